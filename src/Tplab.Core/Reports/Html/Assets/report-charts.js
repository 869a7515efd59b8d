// tplab's uPlot charts. Every chart takes "runs": [{ label, index (colour), s (the run's series) }] where s holds
// requests { sched, start, end, ms, ok, hs, he } (seconds from the load's start; hs/he the handler's start and end when
// the app sent the Server-Timing handler header, else null), pool { t, threads, os, queue, completed, cpu },
// injections { t, threads, reason } and percentiles { p, ms }. Failed and timed-out requests are never drawn as
// latencies: they are marked on their own band at the top of a chart.
(function (T) {
  "use strict";
  const secondsAxis = (ticks, label) => T.axis(ticks, { label: label || "seconds since the load started", size: 40 }, v => T.tick(v, "s"));

  // Latency unit for a set of runs: seconds once anything took 2 s or more, else milliseconds.
  function latencyUnit(runs) {
    let max = 0;
    for (const r of runs) for (let i = 0; i < r.s.requests.ms.length; i++) if (r.s.requests.ok[i]) max = Math.max(max, r.s.requests.ms[i]);
    return max >= 2000 ? { name: "s", div: 1000 } : { name: "ms", div: 1 };
  }

  const failedSeries = { label: "failed or timed out (no latency; marked at the top)", scale: "fail", stroke: T.parts.failed, paths: () => null, points: { show: true, size: 7, width: 1, stroke: T.parts.failed, fill: "#ffffff" } };
  const failedFill = "rgba(90, 90, 90, 0.22)";

  /** Each request's latency against when it was sent (by: "sched") or when it completed (by: "end"). */
  T.latencyChart = function (parent, id, runs, by, title, note) {
    runs = runs.filter(r => r.s.requests && r.s.requests.ms.length);
    if (!runs.length) return;
    const unit = latencyUnit(runs), tables = [], failX = [];
    for (const r of runs) {
      const q = r.s.requests, xs = [], ys = [];
      for (let i = 0; i < q.ms.length; i++) {
        if (q.ok[i]) { xs.push(q[by][i]); ys.push(q.ms[i] / unit.div); } else failX.push(q[by][i]);
      }
      const order = xs.map((_, i) => i).sort((a, b) => xs[a] - xs[b]);
      tables.push([order.map(i => xs[i]), order.map(i => ys[i])]);
    }
    const series = [{ label: "time", value: (u, v) => T.tick(v, "s") }, ...runs.map(r => ({ label: r.label, stroke: T.color(r.index), fill: T.color(r.index), paths: () => null, points: { show: true, size: 4, width: 0 }, value: (u, v) => T.tick(v, unit.name) }))];
    if (failX.length) { failX.sort((a, b) => a - b); tables.push([failX, failX.map(() => 0.96)]); series.push(failedSeries); }
    const box = T.box(parent, title, note), ticks = [];
    new uPlot({
      width: T.width(box), height: 280, legend: { live: true },
      scales: { x: { time: false }, y: { range: (u, min, max) => [0, max > 0 ? max * 1.08 : 1] }, fail: { range: [0, 1] } },
      axes: [secondsAxis(ticks), T.axis(ticks, { label: `latency (${unit.name})`, size: 60 }, v => T.tick(v, unit.name))],
      series,
    }, uPlot.join(tables), box);
    T.register(id, tables.reduce((a, t) => a + t[0].length, 0), ticks);
  };

  /** Latency by percentile on the usual 1/(1−p) scale (as HdrHistogram plots), successful requests only. */
  T.percentileChart = function (parent, id, runs) {
    runs = runs.filter(r => r.s.percentiles && r.s.percentiles.p.length);
    if (!runs.length) return;
    const unit = { name: runs.some(r => Math.max(...r.s.percentiles.ms) >= 2000) ? "s" : "ms" };
    unit.div = unit.name === "s" ? 1000 : 1;
    const tables = runs.map(r => [r.s.percentiles.p.map(p => 1 / (1 - p)), r.s.percentiles.ms.map(v => v / unit.div)]);
    const box = T.box(parent, "Latency by percentile", "successful requests; the tail to the right"), ticks = [];
    const label = v => { const p = 100 - 100 / v; return T.finite(p) && p >= 0 ? String(Number(p.toFixed(4))) + "%" : ""; };
    new uPlot({
      width: T.width(box), height: 280, legend: { live: true },
      scales: { x: { time: false, distr: 3, log: 10, range: (u, min, max) => [1, Math.max(10, max)] } },
      axes: [
        T.axis(ticks, { label: "percentile", size: 40, filter: (u, splits) => splits, splits: u => [1, 2, 10, 100, 1000, 10000, 100000].filter(v => v >= u.scales.x.min && v <= u.scales.x.max * 1.0001) }, label),
        T.axis(ticks, { label: `latency (${unit.name})`, size: 60 }, v => T.tick(v, unit.name)),
      ],
      series: [{ label: "percentile", value: (u, v) => label(v) }, ...runs.map(r => ({ label: r.label, stroke: T.color(r.index), dash: T.dash(r.index), width: 2, value: (u, v) => T.tick(v, unit.name) }))],
    }, uPlot.join(tables), box);
    T.register(id, tables.reduce((a, t) => a + t[0].length, 0), ticks);
  };

  /**
   * One horizontal bar per request in send order, from its (scheduled) send to its end, split into waiting for a
   * pool thread, running the handler and the rest when the app stamped the handler's start and end. Under
   * starvation the handler starts climb like a staircase: one step per thread the pool adds.
   */
  T.timelineChart = function (parent, id, run) {
    const q = run.s.requests;
    if (!q || !q.ms.length) return;
    const n = q.ms.length, order = [...Array(n).keys()].sort((a, b) => q.sched[a] - q.sched[b] || q.start[a] - q.start[b]);
    const split = q.hs.some(v => v != null), lag = q.sched.some((v, i) => q.start[i] - v > 0.005);
    const parts = split
      ? [...(lag ? [["lag", run.open ? "late send (behind the schedule)" : "before the send (the load generator's own delay)"]] : []), ["waited", "waited for a thread"], ["handler", "running the handler"], ["rest", "the rest (after the handler: sending the response, connection)"]]
      : [["whole", "latency (the app sent no handler timing)"]];
    const maxEnd = Math.max(...q.end), anyFailed = q.ok.some(v => !v);
    const rows = order.map((i, k) => k);
    const data = [[0, maxEnd], ...parts.map(() => [null, null]), ...(anyFailed ? [[null, null]] : [])];
    const box = T.box(parent, `Where each request's time went — ${run.label}`,
      split ? "one bar per request in send order; the first part is time spent waiting for a pool thread" : "one bar per request in send order", true);
    const ticks = [];
    const draw = u => {
      const ctx = u.ctx, h = Math.max(1, Math.min(8, (u.bbox.height / n) * 0.8));
      const x = v => u.valToPos(v, "x", true), y = k => u.valToPos(k, "y", true);
      ctx.save();
      ctx.beginPath(); ctx.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height); ctx.clip();
      const shown = name => u.series[1 + parts.findIndex(p => p[0] === name)].show;
      for (let k = 0; k < n; k++) {
        const i = order[k], top = y(k) - h / 2;
        const seg = (name, from, to) => { if (from != null && to != null && to > from && shown(name)) { ctx.fillStyle = T.parts[name]; ctx.fillRect(x(from), top, Math.max(1, x(to) - x(from)), h); } };
        if (!q.ok[i]) {
          if (anyFailed && u.series[u.series.length - 1].show) { ctx.fillStyle = failedFill; ctx.fillRect(x(q.sched[i]), top, Math.max(1, x(q.end[i]) - x(q.sched[i])), h); }
          continue;
        }
        if (split && q.hs[i] != null) {
          seg("lag", q.sched[i], q.start[i]);
          seg("waited", q.start[i], q.hs[i]);
          seg("handler", q.hs[i], q.he[i]);
          seg("rest", q.he[i], q.end[i]);
        } else {
          seg(split ? "rest" : "whole", q.sched[i], q.end[i]);
        }
      }
      ctx.restore();
    };
    new uPlot({
      width: T.width(box), height: Math.min(520, Math.max(220, n * 3 + 80)), legend: { live: false },
      scales: { x: { time: false, range: [0, maxEnd * 1.02] }, y: { range: [-0.5, n - 0.5], dir: -1 } },
      axes: [secondsAxis(ticks), T.axis(ticks, { label: "request (in send order)", size: 60, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000] }, v => T.finite(v) && v >= 0 && Number.isInteger(v) ? String(v + 1) : "")],
      series: [{}, ...parts.map(p => ({ label: p[1], stroke: T.parts[p[0]], fill: T.parts[p[0]], width: 6, paths: () => null, points: { show: false } })),
        ...(anyFailed ? [{ label: "failed or timed out (pale bar: from the send to the error)", stroke: failedFill, fill: failedFill, width: 6, paths: () => null, points: { show: false } }] : [])],
      hooks: { draw: [draw] },
    }, data, box);
    T.register(id, rows.length, ticks);
  };

  /**
   * The pool beside the latency, on one time axis: pool threads and OS threads (left axis), queue length (right
   * axis), completed/s and CPU (values on hover), the runtime's injections as markers by reason, and each
   * request's latency at its completion (right axis, seconds).
   */
  T.poolChart = function (parent, id, run, title) {
    const s = run.s;
    if (!s.pool || !s.pool.t.length) return;
    const reasons = [...new Set((s.injections && s.injections.reason) || [])];
    const tables = [[s.pool.t, s.pool.threads, s.pool.os, s.pool.queue, s.pool.completed, s.pool.cpu]];
    for (const reason of reasons) {
      const idx = s.injections.reason.map((r, i) => r === reason ? i : -1).filter(i => i >= 0);
      tables.push([idx.map(i => s.injections.t[i]), idx.map(i => s.injections.threads[i])]);
    }
    const q = s.requests;
    const hasLatency = q && q.ms.some((v, i) => q.ok[i]);
    if (hasLatency) {
      const idx = [...q.ms.keys()].filter(i => q.ok[i]).sort((a, b) => q.end[a] - q.end[b]);
      tables.push([idx.map(i => q.end[i]), idx.map(i => q.ms[i] / 1000)]);
    }
    // One colour per reason wherever it appears, none shared with the lines; unknown reasons share the last.
    const reasonColors = { Starvation: "#D55E00", CooperativeBlocking: "#CC79A7", Warmup: "#000000", ClimbingMove: "#F0E442", ChangePoint: "#882255", Stabilizing: "#44AA99" };
    const marker = r => reasonColors[r] || "#AA4499";
    const box = T.box(parent, title || `Pool and latency over time — ${run.label}`, "click a legend entry to hide or show it; hover for values", true), ticks = [];
    const series = [{ label: "time", value: (u, v) => T.tick(v, "s") },
      { label: "pool threads", stroke: "#0072B2", width: 2, value: (u, v) => T.tick(v) },
      { label: "OS threads of the process", stroke: "#56B4E9", width: 2, dash: [6, 3], value: (u, v) => T.tick(v) },
      { label: "queue length", stroke: "#E69F00", width: 2, scale: "queue", value: (u, v) => T.tick(v, "items") },
      { label: "completed work items /s", stroke: "#009E73", width: 1, scale: "rate", value: (u, v) => T.tick(v, "/s") },
      { label: "CPU of the process", stroke: "#999999", width: 1, scale: "cpu", dash: [2, 2], value: (u, v) => T.tick(v, "%") },
      ...reasons.map((r, i) => ({ label: `injection: ${r}`, stroke: "#000000", fill: marker(r), paths: () => null, points: { show: true, size: 10, width: 1, stroke: "#000000", fill: marker(r) }, value: (u, v) => v == null ? "–" : `→ ${v} threads` })),
      ...(hasLatency ? [{ label: "request latency (at completion)", scale: "lat", stroke: "#6b6b6b", fill: "#6b6b6b", paths: () => null, points: { show: true, size: 3, width: 0 }, value: (u, v) => T.tick(v, "s") }] : [])];
    // The seed's published thread counts (seed 004 logged the process's threads every second), as a band to compare with.
    const sf = (run.seed && run.seed.figures) || {};
    const seedLo = T.finite(sf.threadsStart) ? sf.threadsStart : sf.threadsPeak, seedHi = T.finite(sf.threadsPeak) ? sf.threadsPeak : sf.threadsStart;
    const seedBand = T.finite(seedLo) ? u => {
      const ctx = u.ctx, y1 = u.valToPos(seedHi, "y", true), y0 = u.valToPos(seedLo, "y", true);
      ctx.save();
      ctx.fillStyle = "rgba(0, 114, 178, 0.10)";
      ctx.fillRect(u.bbox.left, y1 - 2, u.bbox.width, Math.max(4, y0 - y1 + 4));
      ctx.fillStyle = "#0a4f8a";
      ctx.font = `${Math.round(11 * devicePixelRatio)}px system-ui, sans-serif`;
      ctx.fillText(`seed: ${seedLo === seedHi ? seedLo : `${seedLo}–${seedHi}`} threads of the process`, u.bbox.left + 6, y1 - 6);
      ctx.restore();
    } : null;
    new uPlot({
      width: T.width(box), height: 320, legend: { live: true },
      hooks: seedBand ? { draw: [seedBand] } : {},
      scales: { x: { time: false }, y: { range: (u, min, max) => [0, Math.max(4, (T.finite(seedHi) ? Math.max(max, seedHi) : max) * 1.1)] }, queue: { range: (u, min, max) => [0, Math.max(4, max * 1.1)] }, rate: { range: (u, min, max) => [0, Math.max(1, max * 1.1)] }, cpu: { range: [0, 100] }, lat: { range: (u, min, max) => [0, Math.max(0.1, max * 1.1)] } },
      axes: [secondsAxis(ticks, run.xLabel),
        T.axis(ticks, { label: "threads", size: 50 }, v => T.tick(v)),
        T.axis(ticks, { side: 1, scale: "queue", label: "queue (items)", size: 60, grid: { show: false } }, v => T.tick(v)),
        ...(hasLatency ? [T.axis(ticks, { side: 1, scale: "lat", label: "latency (s)", size: 55, grid: { show: false }, stroke: "#555555" }, v => T.tick(v, "s"))] : [])],
      series,
    }, uPlot.join(tables), box);
    T.register(id, s.pool.t.length, ticks);
  };

  // The scheduling delay over time: measured from the runtime's enqueue/dequeue events (p50, p99, the oldest item
  // still queued) beside the estimate from the counters (queue / completions per second), on a log scale in ms.
  T.delayChart = function (parent, id, run, title) {
    const p = run.s.pool;
    if (!p || !p.t.length || !p.estimate) return;
    const measured = (p.delayP99 || []).some(T.finite), on = (p.delayOn || []).some(v => v > 0);
    const note = measured ? "measured: each work item's wait, enqueue to dequeue (events 30/31); estimate: queue ÷ completed per second"
      : on ? "the events were on, but no work item waited in these samples; the estimate is queue ÷ completed per second"
      : "estimate only (queue ÷ completed per second): the events were off";
    const box = T.box(parent, title || `Scheduling delay — ${run.label}`, note + "; log scale, zero not drawn", true), ticks = [];
    const pos = a => (a || []).map(v => T.finite(v) && v > 0 ? v : null);
    new uPlot({
      width: T.width(box), height: 260, legend: { live: true },
      scales: { x: { time: false }, y: { distr: 3 } },
      axes: [secondsAxis(ticks, run.xLabel), T.axis(ticks, { label: "delay (ms)", size: 60 }, v => T.tick(v, "ms"))],
      series: [{ label: "time", value: (u, v) => T.tick(v, "s") },
        { label: "measured p99", stroke: "#D55E00", width: 2, spanGaps: false, value: (u, v) => T.tick(v, "ms") },
        { label: "measured p50", stroke: "#E69F00", width: 1, spanGaps: false, value: (u, v) => T.tick(v, "ms") },
        { label: "oldest still queued", stroke: "#CC79A7", width: 1, dash: [2, 2], value: (u, v) => T.tick(v, "ms") },
        { label: "estimate (queue ÷ completed/s)", stroke: "#0072B2", width: 2, dash: [6, 3], value: (u, v) => T.tick(v, "ms") }],
    }, [p.t, pos(p.delayP99), pos(p.delayP50), pos(p.oldest), pos(p.estimate)], box);
    T.register(id, p.t.length, ticks);
  };
})(window.tplab);
