// Draws tplab's report from the JSON embedded in #tplab-data: per experiment, the table beside the seed's
// figures, the lessons, and three kinds of chart (latency over time, pool over time, latency percentiles).
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("tplab-data").textContent);
  const summary = data.summary;
  const series = data.series || {};
  const colors = ["#d1495b", "#2e86ab", "#edae49", "#00798c", "#6a4c93", "#8ac926", "#ff595e", "#1982c4", "#525252", "#b5838d"];
  window.tplabCharts = [];

  const el = (tag, attrs, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(c == null ? "" : String(c)));
    return node;
  };
  const num = (v, digits) => v == null || Number.isNaN(v) ? "–" : Number(v).toLocaleString("en-US", { maximumFractionDigits: digits ?? 0, minimumFractionDigits: digits ?? 0 });
  const ms = v => v == null ? "–" : v >= 10000 ? num(v / 1000, 1) + " s" : num(v) + " ms";

  document.getElementById("meta").textContent =
    `${summary.tool} · ${summary.runtimeVersion} · ${summary.cores} cores · ${summary.os} · profile ${summary.profile} · ${summary.startedAt}` +
    (summary.interrupted ? " · INTERRUPTED: partial results" : "");

  const root = document.getElementById("experiments");
  for (const skipped of summary.skipped || []) {
    root.append(el("p", { class: "interrupted" }, `${skipped.experiment} skipped: ${skipped.reason}`));
  }
  for (const exp of summary.experiments) {
    const rows = summary.scenarios.filter(s => s.experiment === exp.name);
    const section = el("section", { id: "exp-" + exp.name });
    section.append(el("h2", {}, `${exp.name} — ${exp.title}`));
    if (exp.seeds.length) section.append(el("p", { class: "seeds" }, "Seeds: " + exp.seeds.join(", ")));
    section.append(el("p", { class: "scaling" }, exp.scaling));
    section.append(el("div", { class: "scroll" }, scenarioTable(rows)));
    if (exp.lessons.length) section.append(el("h3", {}, "What it shows"), lessonTable(exp.lessons));
    const notes = [...(exp.runtimeNotes || []), ...(exp.observations || [])];
    if (notes.length) section.append(el("ul", { class: "notes" }, ...notes.map(n => el("li", {}, n))));
    const culprits = rows.filter(r => (r.culprits || []).length);
    if (culprits.length) section.append(el("h3", {}, "Blocking code found by diagnose"), culpritList(culprits));
    const charts = el("div", { class: "charts" });
    section.append(el("h3", {}, "Charts"), charts);
    root.append(section);
    latencyChart(charts, exp, rows);
    percentileChart(charts, exp, rows);
    for (const row of rows) poolChart(charts, exp, row);
  }
  document.body.dataset.rendered = "true";

  function scenarioTable(rows) {
    const head = ["scenario", "requests", "failed", "mean", "p50", "p99", "max", "req/s", "threads", "injections", "verdict", "seed mean", "seed p50", "seed max", "seed req/s", "seed failed"];
    const table = el("table", {}, el("thead", {}, el("tr", {}, ...head.map(h => el("th", {}, h)))));
    const body = el("tbody");
    for (const r of rows) {
      const l = r.load || {}, lat = l.latencyMs || {}, t = r.timeline || {}, f = (r.seed && r.seed.figures) || {};
      const inj = Object.entries(t.injectionsByReason || {}).map(([k, v]) => `${k} ${v}`).join(", ") || "–";
      const verdict = r.status === "completed" ? r.verdict : `${r.verdict || ""} (${r.status})`;
      body.append(el("tr", {},
        el("td", {}, r.label), el("td", {}, num(l.requests)), el("td", {}, num(l.failed)),
        el("td", {}, ms(lat.mean)), el("td", {}, ms(lat.p50)), el("td", {}, ms(lat.p99)), el("td", {}, ms(lat.max)),
        el("td", {}, num(l.throughputPerSecond, 1)),
        el("td", {}, t.threadsStart == null ? "–" : `${t.threadsStart} → ${t.threadsPeak}`), el("td", {}, inj),
        el("td", { class: "verdict-" + (r.verdict || "none") }, verdict || "–"),
        el("td", {}, ms(f.meanMs)), el("td", {}, ms(f.p50Ms)), el("td", {}, ms(f.maxMs)), el("td", {}, num(f.requestsPerSecond, 1)), el("td", {}, num(f.failed))));
      // A request mix of several endpoints (the user's service): one row per endpoint under the scenario.
      for (const e of (r.endpoints || []).length > 1 ? r.endpoints : []) body.append(el("tr", { class: "endpoint" }, el("td", {}, "└ " + e.name), el("td", {}, num(e.requests)), el("td", {}, num(e.failed)), el("td", {}, ms(e.meanMs)), el("td", {}, ms(e.p50Ms)), el("td", {}, ms(e.p99Ms)), el("td", {}, ms(e.maxMs)), el("td", {}, num(e.requestsPerSecond, 1))));
    }
    table.append(body);
    return table;
  }

  function lessonTable(lessons) {
    const table = el("table", {}, el("thead", {}, el("tr", {}, ...["ratio", "this run", "seed"].map(h => el("th", {}, h)))));
    const body = el("tbody");
    for (const l of lessons) body.append(el("tr", {}, el("td", {}, l.label), el("td", {}, l.ours == null ? "–" : num(l.ours, 1) + "×"), el("td", {}, l.seed == null ? "–" : num(l.seed, 1) + "×")));
    table.append(body);
    return table;
  }

  function culpritList(rows) {
    const list = el("ul", { class: "notes" });
    for (const r of rows) for (const c of r.culprits) {
      list.append(el("li", {}, el("b", {}, r.label + ": "), el("span", { class: "culprit" }, `${c.blockingCall} in ${c.userFrame}`), ` — ${num(c.threads, 1)} pool threads held (${num(c.share * 100)}% of blocked time). ${c.advice}`));
    }
    return list;
  }

  function chartBox(parent, title) {
    const box = el("div", { class: "chart" }, el("h4", {}, title));
    parent.append(box);
    return box;
  }

  function register(id, title, points) { window.tplabCharts.push({ id, title, points }); }

  // One scatter series per scenario: x = seconds since the scenario's first send, y = latency (ms).
  function latencyChart(parent, exp, rows) {
    const tables = [], names = [];
    for (const r of rows) {
      const s = series[`${exp.name}/${r.scenario}`];
      if (s && s.latency && s.latency.t.length) { tables.push([s.latency.t, s.latency.ms]); names.push(r.label); }
    }
    if (!tables.length) return;
    const joined = uPlot.join(tables);
    const box = chartBox(parent, "Latency of each request over time");
    const opts = {
      width: 560, height: 300, legend: { live: false },
      scales: { x: { time: false } },
      axes: [{ label: "seconds since start" }, { label: "latency (ms)", size: 60 }],
      series: [{}, ...names.map((n, i) => ({ label: n, stroke: colors[i % colors.length], fill: colors[i % colors.length], paths: () => null, points: { show: true, size: 3, width: 0 } }))],
    };
    new uPlot(opts, joined, box);
    register(`latency-${exp.name}`, "latency", tables.reduce((a, t) => a + t[0].length, 0));
  }

  // Latency by percentile, x on the usual 1/(1-p) log scale (as HdrHistogram plots it).
  function percentileChart(parent, exp, rows) {
    const tables = [], names = [];
    for (const r of rows) {
      const s = series[`${exp.name}/${r.scenario}`];
      if (s && s.percentiles && s.percentiles.p.length) {
        tables.push([s.percentiles.p.map(p => 1 / (1 - Math.min(p, 0.999999))), s.percentiles.ms]);
        names.push(r.label);
      }
    }
    if (!tables.length) return;
    const box = chartBox(parent, "Latency by percentile");
    const opts = {
      width: 560, height: 300, legend: { live: false },
      scales: { x: { time: false, distr: 3, log: 10 } },
      axes: [{
        label: "percentile",
        splits: u => [1, 2, 10, 100, 1000, 10000, 100000, 1000000].filter(v => v >= u.scales.x.min && v <= u.scales.x.max),
        values: (u, vals) => vals.map(v => String(Number((100 - 100 / v).toFixed(4))) + "%"),
      }, { label: "latency (ms)", size: 60 }],
      series: [{}, ...names.map((n, i) => ({ label: n, stroke: colors[i % colors.length], width: 2 }))],
    };
    new uPlot(opts, uPlot.join(tables), box);
    register(`percentiles-${exp.name}`, "percentiles", tables.reduce((a, t) => a + t[0].length, 0));
  }

  // Pool threads and queue length every sample, injections marked by reason.
  function poolChart(parent, exp, row) {
    const s = series[`${exp.name}/${row.scenario}`];
    if (!s || !s.pool || !s.pool.t.length) return;
    const reasons = [...new Set((s.injections && s.injections.reason) || [])];
    const tables = [[s.pool.t, s.pool.threads, s.pool.queue]];
    for (const reason of reasons) {
      const idx = s.injections.reason.map((r, i) => r === reason ? i : -1).filter(i => i >= 0);
      tables.push([idx.map(i => s.injections.t[i]), idx.map(i => s.injections.threads[i])]);
    }
    const box = chartBox(parent, `Pool over time — ${row.label}`);
    const opts = {
      width: 560, height: 240, legend: { live: false },
      scales: { x: { time: false }, q: {} },
      axes: [{ label: "seconds since start" }, { label: "threads", size: 50 }, { side: 1, scale: "q", label: "queue", size: 50, grid: { show: false } }],
      series: [{},
        { label: "pool threads", stroke: "#2e86ab", width: 2 },
        { label: "queue length", stroke: "#d1495b", width: 1, scale: "q", dash: [4, 3] },
        ...reasons.map((r, i) => ({ label: `injection: ${r}`, stroke: colors[(i + 2) % colors.length], fill: colors[(i + 2) % colors.length], paths: () => null, points: { show: true, size: 7, width: 0 } }))],
    };
    new uPlot(opts, uPlot.join(tables), box);
    register(`pool-${exp.name}-${row.scenario}`, "pool", s.pool.t.length);
  }
})();
