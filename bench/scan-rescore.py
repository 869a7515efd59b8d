#!/usr/bin/env python3
"""Re-score a judged app (bench/judged/<app>.md) against a new `tplab scan --format json` report (bench, not CI).

  bench/scan-rescore.py bench/judged/jackett.md /tmp/jackett-after.json [--slack N] [--show-new N]

The judged file holds two tables (issue 33 §8 format):
  precision: | # | sev | site | call | root (one of) | verdict | why |     verdict T, H or F (first letter counts)
  recall:    | # | site | call | endpoint | found | note |     a row whose found cell starts "not a site" is left out
A site is `path/File.cs:LINE`, repo-relative. A finding matches a site when its file ends with the site's path (or the
site's path ends with the finding's file: the scan's paths are relative to the folder scanned) and its line is the
site's line (or within --slack lines, default 0: a site whose line moved says so).

Prints, so the "after" figures come without re-reading everything:
  1. each judged sample site: still reported (at which severity) or gone; precision over the sites still reported,
     (T + H) / reported, H counted apart;
  2. the error/warning sites of the new report that are not judged sample sites (to be judged), by severity;
  3. recall: each hand-found site found (severity) or missed, and found / listed.
"""
import argparse
import json
import re
import sys

ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("judged")
ap.add_argument("report")
ap.add_argument("--slack", type=int, default=0, help="lines a site may have moved and still match (default 0)")
ap.add_argument("--show-new", type=int, default=1000, help="list at most N new sites (default: all)")
args = ap.parse_args()

site_re = re.compile(r"`?([\w./\-]+\.cs):(\d+)`?")


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


precision, recall = [], []
table = None
for line in open(args.judged, encoding="utf-8"):
    if not line.lstrip().startswith("|"):
        table = None
        continue
    c = cells(line)
    low = [x.lower() for x in c]
    if len(c) >= 7 and low[:3] == ["#", "sev", "site"] and "verdict" in low:
        table = ("p", low.index("site"), low.index("call"), low.index("verdict"))
        continue
    if len(c) >= 5 and low[:2] == ["#", "site"] and "found" in low:
        table = ("r", low.index("site"), low.index("call"), low.index("found"))
        continue
    if table is None or set(line.strip()) <= set("|-: "):
        continue
    kind, si, ci, vi = table
    m = site_re.search(c[si]) if si < len(c) else None
    if not m:
        continue
    row = {"n": c[0], "path": m.group(1), "line": int(m.group(2)), "call": c[ci] if ci < len(c) else "",
           "mark": c[vi] if vi < len(c) else ""}
    if kind == "r" and row["mark"].lower().startswith("not a site"):
        continue  # struck from the hand list after the scan, with the reason in the judged file
    (precision if kind == "p" else recall).append(row)

report = json.load(open(args.report, encoding="utf-8"))
findings = report["findings"]


def norm(p):
    return p.replace("\\", "/").lstrip("./")


def same_file(a, b):
    a, b = norm(a), norm(b)
    return a == b or a.endswith("/" + b) or b.endswith("/" + a)


def match(row):
    """The findings at the site: exact line first, then the nearest within --slack."""
    exact = [f for f in findings if f["line"] == row["line"] and same_file(f["file"], row["path"])]
    if exact:
        return exact, 0
    near = [f for f in findings if abs(f["line"] - row["line"]) <= args.slack and same_file(f["file"], row["path"])]
    if near:
        near.sort(key=lambda f: abs(f["line"] - row["line"]))
        return near, near[0]["line"] - row["line"]
    return [], None


rank = {"error": 0, "warning": 1, "note": 2}


def worst(fs):
    return sorted(fs, key=lambda f: rank.get(f["severity"], 9))[0]


summary = report.get("summary", {})
print(f"report: {args.report}: {len(findings)} sites ({summary.get('errors', '?')} errors, "
      f"{summary.get('warnings', '?')} warnings, {summary.get('notes', '?')} notes)")

matched_ids = set()
if precision:
    print(f"\n== judged sample ({len(precision)} sites)")
    counts = {"T": 0, "H": 0, "F": 0}
    reported = 0
    for row in precision:
        fs, moved = match(row)
        verdict = (row["mark"][:1] or "?").upper()
        where = f"{row['path']}:{row['line']}"
        if fs:
            w = worst(fs)
            matched_ids.update(f["id"] for f in fs)
            if w["severity"] in ("error", "warning"):
                reported += 1
                counts[verdict] = counts.get(verdict, 0) + 1
            shift = f" (now line {row['line'] + moved})" if moved else ""
            print(f"  #{row['n']:>3} {verdict}  still reported, {w['severity']}{shift}: {where} {w['blockingCall']}")
        else:
            print(f"  #{row['n']:>3} {verdict}  gone: {where} {row['call']}")
    if reported:
        good = counts.get("T", 0) + counts.get("H", 0)
        print(f"  precision over the {reported} judged sites still reported as error/warning: {good}/{reported} = "
              f"{100 * good / reported:.0f}% (T {counts.get('T', 0)}, H {counts.get('H', 0)}, F {counts.get('F', 0)})")
    else:
        print("  none of the judged sites is still reported as an error or warning")

new = [f for f in findings if f["id"] not in matched_ids and f["severity"] in ("error", "warning")]
print(f"\n== error/warning sites not in the judged sample: {len(new)} "
      f"({sum(f['severity'] == 'error' for f in new)} errors, {sum(f['severity'] == 'warning' for f in new)} warnings)")
for f in sorted(new, key=lambda f: (rank[f["severity"]], f["file"], f["line"]))[: args.show_new]:
    print(f"  {f['severity'][0].upper()} {f['file']}:{f['line']} {f['blockingCall']}  from {f.get('root')}")
if len(new) > args.show_new:
    print(f"  and {len(new) - args.show_new} more")

if recall:
    print(f"\n== recall ({len(recall)} hand-found sites)")
    found = 0
    by_sev = {}
    for row in recall:
        fs, moved = match(row)
        where = f"{row['path']}:{row['line']}"
        if fs:
            found += 1
            w = worst(fs)
            by_sev[w["severity"]] = by_sev.get(w["severity"], 0) + 1
            shift = f" (at line {row['line'] + moved})" if moved else ""
            print(f"  #{row['n']:>3} found, {w['severity']}{shift}: {where} {w['blockingCall']}  from {w.get('root')}")
        else:
            print(f"  #{row['n']:>3} missed: {where} {row['call']}")
    sevs = ", ".join(f"{k} {v}" for k, v in sorted(by_sev.items(), key=lambda kv: rank.get(kv[0], 9)))
    print(f"  recall: {found}/{len(recall)} = {100 * found / len(recall):.0f}%" + (f" ({sevs})" if sevs else ""))
