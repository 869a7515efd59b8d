#!/usr/bin/env python3
"""Two `tplab scan --format json` reports compared parsed, every timing field left out: findings (sites, severities,
roots, chains, advice), entry points, projects. Prints the count of differences and the first 20; exit 1 if any.
Usage: bench/scan-compare.py BEFORE.json AFTER.json   (BENCHMARKS.md, "Scan speed": results identical before/after)"""
import json, re, sys


def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if not re.search(r"second|time|duration|elapsed", k, re.I)}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x


a, b = (strip(json.load(open(p, encoding="utf-8"))) for p in sys.argv[1:3])
diffs = []


def walk(x, y, path):
    if type(x) != type(y):
        diffs.append((path, x, y))
        return
    if isinstance(x, dict):
        for k in sorted(set(x) | set(y)):
            if k not in x or k not in y:
                diffs.append((path + "/" + k, x.get(k), y.get(k)))
            else:
                walk(x[k], y[k], path + "/" + k)
    elif isinstance(x, list):
        if len(x) != len(y):
            diffs.append((path + "#len", len(x), len(y)))
        for i, (u, v) in enumerate(zip(x, y)):
            walk(u, v, f"{path}[{i}]")
    elif x != y:
        diffs.append((path, x, y))


walk(a, b, "")
first = json.load(open(sys.argv[1], encoding="utf-8"))
findings = first.get("findings", [])
print(f"{sys.argv[1]} vs {sys.argv[2]}: findings {len(findings)}, entry point x site pairs "
      f"{sum(f.get('rootCount', len(f.get('roots', []))) for f in findings)}, {len(diffs)} difference(s)")
for d in diffs[:20]:
    print("  ", str(d)[:300])
sys.exit(1 if diffs else 0)
