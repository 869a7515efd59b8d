// This run beside the seeds' published figures, drawn as small SVG bar charts: per experiment one panel per figure
// (mean and max latency, throughput, pool threads), a pair of bars per scenario (this run filled, the seed outlined,
// the seed's range as a whisker where it printed only a range), and the lessons as ratio bars (this run vs seed).
(function (T) {
  "use strict";
  const NS = "http://www.w3.org/2000/svg";
  const svg = (tag, attrs, text) => {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text != null) node.textContent = text;
    return node;
  };
  const metrics = [
    { key: "meanMs", title: "mean latency", unit: "s", ours: r => r.load && r.load.latencyMs && r.load.latencyMs.mean / 1000, div: 1000 },
    { key: "maxMs", title: "max latency", unit: "s", ours: r => r.load && r.load.latencyMs && r.load.latencyMs.max / 1000, div: 1000 },
    { key: "requestsPerSecond", title: "throughput", unit: "req/s", ours: r => r.load && r.load.throughputPerSecond, div: 1 },
    { key: "threadsPeak", title: "pool threads, peak", unit: "threads", ours: r => r.timeline && r.timeline.threadsPeak, div: 1 },
  ];
  const fmt = v => T.finite(v) ? String(Number(v.toPrecision(3))) : "–";

  /** Bars for one figure: rows = scenarios that have a seed value; returns the number of bars drawn. */
  function panel(parent, metric, rows) {
    const items = rows.map(r => {
      const seed = r.row.seed || {}, f = seed.figures || {}, range = (seed.ranges || {})[metric.key];
      const lo = range ? range[0] / metric.div : null, hi = range ? range[1] / metric.div : null;
      const published = T.finite(f[metric.key]) ? f[metric.key] / metric.div : null;
      return { label: r.row.label, index: r.index, ours: metric.ours(r.row), seed: published ?? (range ? (lo + hi) / 2 : null), lo, hi };
    }).filter(i => T.finite(i.seed));
    if (!items.length) return 0;
    const labelW = 190, barW = 170, rowH = 30, w = labelW + barW + 110, h = items.length * rowH + 22;
    const max = Math.max(...items.map(i => Math.max(i.ours || 0, i.seed, i.hi || 0))) || 1;
    const x = v => labelW + (v / max) * barW;
    const g = svg("svg", { width: w, height: h, viewBox: `0 0 ${w} ${h}`, role: "img", "aria-label": `${metric.title}: this run vs seed` });
    g.append(svg("text", { x: 0, y: 12, class: "svg-title" }, `${metric.title} (${metric.unit})`));
    items.forEach((i, k) => {
      const top = 20 + k * rowH, c = T.color(i.index);
      g.append(svg("text", { x: labelW - 6, y: top + 15, "text-anchor": "end", class: "svg-label" }, i.label.length > 30 ? i.label.slice(0, 29) + "…" : i.label));
      if (T.finite(i.ours)) {
        g.append(svg("rect", { x: labelW, y: top + 2, width: Math.max(1, x(i.ours) - labelW), height: 10, fill: c }));
        g.append(svg("text", { x: x(i.ours) + 4, y: top + 11, class: "svg-value" }, `${fmt(i.ours)} ${metric.unit} this run`));
      }
      g.append(svg("rect", { x: labelW, y: top + 15, width: Math.max(1, x(i.seed) - labelW), height: 10, fill: "#ffffff", stroke: c, "stroke-width": 1.5 }));
      if (T.finite(i.lo)) g.append(svg("path", { d: `M${x(i.lo)},${top + 20}H${x(i.hi)}M${x(i.lo)},${top + 16}v8M${x(i.hi)},${top + 16}v8`, stroke: "#000", "stroke-width": 1.2, fill: "none" }));
      g.append(svg("text", { x: Math.max(x(i.seed), T.finite(i.hi) ? x(i.hi) : 0) + 4, y: top + 24, class: "svg-value" }, T.finite(i.lo) ? `seed ${fmt(i.lo)}–${fmt(i.hi)} ${metric.unit}` : `seed ${fmt(i.seed)} ${metric.unit}`));
    });
    parent.append(T.el("div", { class: "svg-panel" }, g));
    return items.length * 2;
  }

  /** Per experiment: this run vs the seed's published figures, one panel per figure the seed printed. */
  T.seedChart = function (parent, id, exp, rows) {
    const withSeed = rows.map((row, index) => ({ row, index })).filter(r => r.row.seed);
    if (!withSeed.length) return;
    const box = T.box(parent, "This run beside the seed", "filled: this run; outlined: as the seed published it; whisker: the seed's range over its runs", true);
    const panels = T.el("div", { class: "svg-panels" });
    box.append(panels);
    const bars = metrics.reduce((a, m) => a + panel(panels, m, withSeed), 0);
    T.register(id, bars, []);
  };

  // ShapeMatch as docs/lab.md defines it ("Same shape as the seed").
  const shapes = { same: "the same shape as the seed", different: "a different shape from the seed's", unsettled: "unsettled: the repeats fall in more than one band", noSeed: "no seed figure", notCompared: "not compared: a scenario did not complete" };
  const whisker = (g, x, r, y) => { if (r && T.finite(r[0]) && T.finite(r[1]) && r[1] > r[0]) g.append(svg("path", { d: `M${x(r[0])},${y}H${x(r[1])}M${x(r[0])},${y - 4}v8M${x(r[1])},${y - 4}v8`, stroke: "#000", "stroke-width": 1.2, fill: "none" })); };

  /** Lessons as ratio bars: this run's ratio beside the seed's on a log scale, 1× marked; spreads as whiskers; the shape verdict as computed. */
  T.lessonChart = function (parent, id, lessons) {
    const items = lessons.filter(l => T.finite(l.ours) || T.finite(l.seed));
    if (!items.length) return;
    const labelW = 300, barW = 300, rowH = 34, w = labelW + barW + 500, h = items.length * rowH + 24;
    const max = Math.max(2, ...items.map(l => Math.max(l.ours || 1, l.seed || 1, (l.oursRange || [])[1] || 1, (l.seedRange || [])[1] || 1)));
    const lg = v => Math.log10(Math.max(1, v)) / Math.log10(max);
    const x = v => labelW + lg(v) * barW;
    const g = svg("svg", { width: w, height: h, viewBox: `0 0 ${w} ${h}`, role: "img", "aria-label": "lessons: this run vs seed" });
    g.append(svg("text", { x: labelW, y: 12, class: "svg-title" }, "ratio (log scale; 1× = no difference)"));
    g.append(svg("path", { d: `M${labelW},16V${h}`, stroke: "#555", "stroke-width": 1 }));
    items.forEach((l, k) => {
      const top = 20 + k * rowH;
      g.append(svg("text", { x: labelW - 6, y: top + 16, "text-anchor": "end", class: "svg-label" }, l.label.length > 40 ? l.label.slice(0, 39) + "…" : l.label));
      if (T.finite(l.ours)) {
        g.append(svg("rect", { x: labelW, y: top + 2, width: Math.max(1, x(l.ours) - labelW), height: 11, fill: "#0072B2" }));
        whisker(g, x, l.oursRange, top + 7);
        g.append(svg("text", { x: Math.max(x(l.ours), l.oursRange ? x(l.oursRange[1]) : 0) + 4, y: top + 12, class: "svg-value" },
          `${T.ratio(l.ours)} this run` + (l.shape && shapes[l.shape] ? ` — ${shapes[l.shape]}` : "") + (l.incomplete ? ` (${l.incomplete})` : "")));
      }
      if (T.finite(l.seed)) {
        g.append(svg("rect", { x: labelW, y: top + 16, width: Math.max(1, x(l.seed) - labelW), height: 11, fill: "#ffffff", stroke: "#0072B2", "stroke-width": 1.5 }));
        whisker(g, x, l.seedRange, top + 21);
        g.append(svg("text", { x: Math.max(x(l.seed), l.seedRange ? x(l.seedRange[1]) : 0) + 4, y: top + 26, class: "svg-value" }, `${T.ratio(l.seed)} seed` + (l.seedRange ? ` (its runs: ${T.ratio(l.seedRange[0])}–${T.ratio(l.seedRange[1])})` : "")));
      }
    });
    const box = T.box(parent, "What it shows, this run vs the seed", null, true);
    box.append(g);
    T.register(id, items.length, []);
  };
})(window.tplab);
