#!/usr/bin/env python3
"""Top inclusive frames of a CPU profile of tplab (issue 33 §7, BENCHMARKS.md "Scan speed"): a speedscope file
converted from an EventPipe sampled-thread-time trace (`dotnet-trace collect -p PID --profile dotnet-sampled-thread-time`,
then `dotnet-trace convert TRACE --format speedscope`). Time whose leaf frame is a wait is left out; what remains is
thread time on or waiting for a CPU (on a loaded machine a runnable thread waiting for a core counts too: read shares).
Usage: bench/trace-top.py FILE.speedscope.json [REGEX-of-frames-to-list]"""
import json, sys, re, collections
d = json.load(open(sys.argv[1]))
frames = [f["name"] for f in d["shared"]["frames"]]
WAIT = re.compile(r"(WaitOne|WaitCore|Wait\(|WaitAsync|Sleep|SpinWait|Monitor\.Enter|Monitor\.Wait|LowLevelLifoSemaphore|ManualResetEventSlim\.Wait|Thread\.Join|epoll|Socket|ReadAsync|PipeStream|WaitHandle|WaitForSingleObject|Interop\+Sys\.Read|Interop\+Sys\.Poll|Interop\+Sys\.Wait)")
isWait = [bool(WAIT.search(f)) for f in frames]
incl = collections.Counter(); excl = collections.Counter(); total = 0.0; waited = 0.0
for p in d["profiles"]:
    if p["type"] != "evented":
        continue
    stack = []; last = p["startValue"]
    for e in p["events"]:
        dt = e["at"] - last; last = e["at"]
        if stack and dt > 0:
            if isWait[stack[-1]] or frames[stack[-1]] in ("UNMANAGED_CODE_TIME",):
                waited += dt
            else:
                total += dt
                excl[stack[-1]] += dt
                for f in set(stack):
                    incl[f] += dt
        if e["type"] == "O":
            stack.append(e["frame"])
        else:
            # close the innermost matching frame
            for i in range(len(stack) - 1, -1, -1):
                if stack[i] == e["frame"]:
                    del stack[i:]; break
print(f"on CPU (not waiting): {total/1000:.1f} s of thread time; waiting or unmanaged: {waited/1000:.1f} s")
def show(c, title, n, flt=None):
    print("== " + title)
    for f, w in c.most_common():
        name = frames[f]
        if flt and not re.search(flt, name): continue
        print(f"{100*w/total:6.1f}% {w/1000:8.1f}s  {name[:180]}")
        n -= 1
        if n == 0: break
flt = sys.argv[2] if len(sys.argv) > 2 else None
if flt:
    show(incl, "inclusive, frames matching " + flt, 80, flt)
else:
    show(incl, "inclusive (tplab frames)", 50, r"^Tplab")
    show(incl, "inclusive (all)", 60)
    show(excl, "exclusive", 40)
