#!/usr/bin/env python3
"""The suite's lanes from a trx: per collection its summed test time, first start and last end; the slowest classes
and tests; and a timeline of busy seconds per lane per minute. Each class's collection is read from its attributes in
the test sources ([Collection(...)], [ParallelSafe], else the serial collection).

    python3 bench/suite-lanes.py artifacts/suite.trx tests/Tplab.Tests

test.sh writes artifacts/suite.trx on every run (BENCHMARKS.md, "The suite's time")."""
import re, sys, os, xml.etree.ElementTree as ET
from datetime import datetime
from collections import defaultdict
trx, src = sys.argv[1], sys.argv[2]
ns = {'t': 'http://microsoft.com/schemas/VisualStudio/TeamTest/2010'}
root = ET.parse(trx).getroot()
def ts(s):
    s = re.sub(r'(\.\d{6})\d*', r'\1', s)
    return datetime.fromisoformat(s).timestamp()
cls_of = {}
for ut in root.iterfind('.//t:UnitTest', ns):
    tm = ut.find('t:TestMethod', ns)
    cls_of[ut.get('id')] = tm.get('className')
coll = {}
for dp, _, fs in os.walk(src):
    for f in fs:
        if not f.endswith('.cs'): continue
        text = open(os.path.join(dp, f), encoding='utf-8', errors='replace').read()
        nsm = re.search(r'^namespace ([\w.]+)', text, re.M)
        for m in re.finditer(r'((?:\[[^\]]*\]\s*)*)(?:public |internal )?(?:sealed |static |abstract )*(?:partial )?class (\w+)', text):
            attrs, name = m.group(1), m.group(2)
            c = re.search(r'Collection\(([^)]*)\)', attrs)
            full = (nsm.group(1) + '.' if nsm else '') + name
            if c: coll[full] = c.group(1)
            elif 'ParallelSafe' in attrs: coll[full] = 'parallel'
rows = []
t0 = None
for r in root.iterfind('.//t:UnitTestResult', ns):
    s, e = ts(r.get('startTime')), ts(r.get('endTime'))
    cl = cls_of.get(r.get('testId'), '?')
    rows.append((s, e, cl, r.get('testName'), r.get('outcome')))
t0 = min(r[0] for r in rows); t1 = max(r[1] for r in rows)
print(f"tests {len(rows)}, span {t1-t0:.0f} s")
lanes = defaultdict(list)
for s, e, cl, n, o in rows:
    lanes[coll.get(cl, 'serial')].append((s, e, cl, n))
print("\nlane: summed / first start / last end")
for k, v in sorted(lanes.items(), key=lambda kv: -sum(e - s for s, e, *_ in kv[1])):
    print(f"{k:45s} {sum(e-s for s,e,*_ in v):7.0f} {min(s for s,*_ in v)-t0:6.0f} {max(e for _,e,*_ in v)-t0:6.0f}  n={len(v)}")
cls = defaultdict(float)
for s, e, cl, n, o in rows: cls[cl] += e - s
print("\nslowest classes")
for k, v in sorted(cls.items(), key=lambda kv: -kv[1])[:30]:
    print(f"{v:7.0f} {coll.get(k,'serial'):30s} {k}")
print("\nslowest tests")
for s, e, cl, n, o in sorted(rows, key=lambda r: -(r[1]-r[0]))[:30]:
    print(f"{e-s:7.0f} {s-t0:6.0f} {coll.get(cl,'serial'):25s} {n[:110]}")
print("\ntimeline (per 60 s: busy seconds per lane)")
import math
B = 60; nb = int((t1 - t0) / B) + 1
lane_names = sorted(lanes)
for b in range(nb):
    lo, hi = t0 + b*B, t0 + (b+1)*B
    cells = []
    for ln in lane_names:
        busy = sum(max(0, min(e, hi) - max(s, lo)) for s, e, *_ in lanes[ln])
        if busy > 0.5: cells.append(f"{ln.split('.')[-1][:10]}={busy:.0f}")
    print(f"{b*B:5d} " + " ".join(cells))
