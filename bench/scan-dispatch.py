#!/usr/bin/env python3
"""How a scan's findings reach their sites through interface and virtual calls (issue 26 §3), from its JSON.

Usage: bench/scan-dispatch.py BEFORE.json [AFTER.json]   (each from `tplab scan APP --allow-partial -o X.json`)

Per report: sites (= findings), errors / warnings, root x site pairs, and of the sites whose shown chain (the worst
entry point's) passes through a dispatch hop: a wide hop ("one of N implementations"), a guess (nothing narrowed it;
reports before the narrowing say nothing, so every wide hop there is a guess), narrowed by DI, and the widest hop.
"""
import json, re, sys

def figures(path):
    d = json.load(open(path))
    f = d["findings"]
    wide = guess = di = 0
    widest = 0
    for x in f:
        vias = [h["via"] or "" for h in x["chain"]]
        ns = [int(m.group(1)) for v in vias for m in [re.search(r"one of (\d+) implementations", v)] if m]
        if ns:
            wide += 1
            widest = max(widest, max(ns))
        if any("one of" in v and ("a guess" in v or "(" not in v) for v in vias):
            guess += 1
        if any("registered in DI" in v for v in vias):
            di += 1
    s = d["summary"]
    pairs = sum(x["rootCount"] for x in f)
    return [len(f), f'{s["errors"]} / {s["warnings"]}', pairs, wide, guess, di, widest]

cols = ["sites", "errors / warnings", "root x site pairs", "sites through a wide hop", "through a guess", "through a DI-narrowed hop", "widest hop"]
print("| report | " + " | ".join(cols) + " |")
print("|---|" + "---:|" * len(cols))
for p in sys.argv[1:]:
    print(f"| {p} | " + " | ".join(str(v) for v in figures(p)) + " |")
