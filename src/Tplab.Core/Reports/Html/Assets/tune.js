// Draws tplab tune's page from the JSON in #tplab-data (tune.json's content): the objective's figure against the
// minimum worker threads tried, the bound, every trial with its cost, and the settings ready to paste.
(function () {
  "use strict";
  const t = JSON.parse(document.getElementById("tplab-data").textContent);
  window.tplabCharts = [];
  const el = (tag, attrs, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(c == null ? "" : String(c)));
    return node;
  };
  const num = (v, d) => v == null ? "–" : Number(v).toLocaleString("en-US", { maximumFractionDigits: d ?? 0, minimumFractionDigits: d ?? 0 });
  const ms = v => v == null ? "–" : v >= 1000 ? num(v / 1000, 2) + " s" : num(v) + " ms";

  document.getElementById("meta").textContent = `${t.service} · load ${t.load} · objective ${t.objective} · default minimum ${t.defaultMinThreads} (this machine's cores)` + (t.interrupted ? " · INTERRUPTED" : "");

  // One point per tried minimum (the default run at the default minimum); knob trials are listed, not plotted.
  const points = t.trials.filter(x => x.purpose !== "knob").map(x => ({ x: x.minThreads ?? t.defaultMinThreads, y: x.objectiveMs, meets: x.meets }))
    .filter(p => p.y != null).sort((a, b) => a.x - b.x);
  const xs = points.map(p => p.x);
  const meets = points.map(p => p.meets ? p.y : null);
  const fails = points.map(p => p.meets ? null : p.y);
  const bound = points.map(() => t.objectiveBoundMs);
  const chart = document.getElementById("chart");
  // The axes' tick labels as drawn, for the Chromium check (tests/browser).
  const ticks = [];
  const labels = (u, splits) => { const v = splits.map(x => String(Math.round(x * 100) / 100)); ticks.push(...v); return v; };
  if (points.length > 0) {
    const opts = {
      width: Math.min(1100, window.innerWidth - 60), height: 320,
      scales: { x: { time: false } },
      axes: [{ label: "minimum worker threads", values: labels }, { label: t.objectiveFigure + " (ms)", values: labels, size: 60 }],
      series: [{},
        { label: "meets", stroke: "#1b7f3b", width: 0, points: { show: true, size: 9, fill: "#1b7f3b" } },
        { label: "fails", stroke: "#b00020", width: 0, points: { show: true, size: 9, fill: "#b00020" } },
        { label: "bound", stroke: "#888", dash: [6, 4], points: { show: false } }],
    };
    new uPlot(opts, [xs, meets, fails, bound], chart);
  } else {
    chart.append(el("p", {}, "No trial ended with a figure to plot."));
  }
  window.tplabCharts.push({ id: "tune-objective", title: "objective vs minimum", points: points.length, ticks });

  const body = document.getElementById("body");
  const answer = t.defaultMeets ? `The default pool already meets ${t.objective}: no minimum needed.`
    : t.recommendedMinThreads != null ? `Least minimum that met ${t.objective}: ${t.recommendedMinThreads}` + (t.highestFailingMinThreads != null ? ` (${t.highestFailingMinThreads} failed).` : ".")
    : `No tried minimum up to ${t.highestFailingMinThreads} met ${t.objective}.`;
  body.append(el("h2", {}, "Answer"), el("p", { id: "answer" }, answer));
  if (t.estimate) body.append(el("p", { class: "note" }, `Estimate: ${t.estimate.threads} threads — ${t.estimate.explanation}.`));

  const table = el("table", { id: "trials" });
  table.append(el("tr", {}, ...["#", "why", "min threads", "knob", "result", "mean", "p50", "p99", "max", "req/s", "errors", "threads peak", "injections", "peak RSS", "CPU"].map(h => el("th", {}, h))));
  for (const x of t.trials) {
    table.append(el("tr", {},
      el("td", {}, x.trial), el("td", { class: "l" }, x.purpose), el("td", {}, x.minThreads ?? `default (${t.defaultMinThreads})`), el("td", { class: "l" }, x.knob ?? ""),
      el("td", { class: "l " + (x.meets ? "meets" : "fails") }, (x.meets ? "meets: " : "fails: ") + x.why),
      el("td", {}, ms(x.meanMs)), el("td", {}, ms(x.p50Ms)), el("td", {}, ms(x.p99Ms)), el("td", {}, ms(x.maxMs)), el("td", {}, num(x.requestsPerSecond, 1)),
      el("td", {}, num(x.failed)), el("td", {}, num(x.threadsPeak)), el("td", {}, num(x.injections)),
      el("td", {}, x.peakRssMb == null ? "–" : num(x.peakRssMb, 1) + " MB"), el("td", {}, x.cpuSeconds == null ? "–" : num(x.cpuSeconds, 2) + " s")));
  }
  body.append(el("h2", {}, "Every tried value"), table);
  if (t.knobsWithoutEffect.length > 0) body.append(el("p", {}, "Made no difference at the default minimum: " + t.knobsWithoutEffect.join(", ") + "."));
  if (t.settings.length > 0) {
    body.append(el("h2", {}, "Settings ready to paste"));
    for (const s of t.settings) body.append(el("p", {}, s.where), el("pre", {}, s.text));
  }
  body.append(el("h2", {}, "The real fix"), el("p", {}, t.advice));
  document.body.dataset.rendered = "true";
})();
