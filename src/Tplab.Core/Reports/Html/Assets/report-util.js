// Shared helpers of tplab's report pages: DOM building, number formats (invariant, units always attached),
// the colour-blind-safe palette (Okabe & Ito), and the registry the browser test reads (window.tplabCharts).
window.tplab = window.tplab || {};
(function (T) {
  "use strict";
  // Okabe & Ito's palette, yellow last (weak on white); past eight series the dash pattern changes too.
  T.palette = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"];
  T.color = i => T.palette[i % T.palette.length];
  T.dash = i => [undefined, [6, 3], [2, 2], [8, 3, 2, 3]][Math.floor(i / T.palette.length) % 4];
  // Parts of a request, the same everywhere: waiting for a pool thread, running the handler, the rest.
  T.parts = { lag: "#E69F00", waited: "#D55E00", handler: "#0072B2", rest: "#9a9a9a", whole: "#56B4E9", failed: "#000000" };
  T.charts = window.tplabCharts = [];

  T.el = (tag, attrs, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v != null) node.setAttribute(k, v);
    for (const c of children.flat()) if (c != null) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return node;
  };
  const finite = v => v != null && typeof v === "number" && Number.isFinite(v);
  T.finite = finite;
  T.num = (v, digits) => finite(v) ? v.toLocaleString("en-US", { maximumFractionDigits: digits ?? 0, minimumFractionDigits: digits ?? 0 }) : "–";
  // Milliseconds as people read them: "547 ms", "2.75 s", "14.0 s" (as the terminal tables).
  T.ms = v => !finite(v) ? "–" : v >= 10000 ? T.num(v / 1000, 1) + "\u00a0s" : v >= 1000 ? T.num(v / 1000, 2) + "\u00a0s" : T.num(v, v < 10 ? 1 : 0) + "\u00a0ms";
  T.rate = v => finite(v) ? T.num(v, 1) + "\u00a0/s" : "–";
  T.ratio = v => finite(v) ? T.num(v, 1) + "×" : "–";
  // Tick labels: never "NaN" or "Infinity"; six significant digits, so ticks a few milliseconds apart stay distinct
  // ("1.2345 s", not "1.234 s" twice); float noise at zero prints as 0; trailing zeros trimmed.
  T.tick = (v, unit) => finite(v) ? String(Math.abs(v) < 1e-9 ? 0 : Number(v.toPrecision(6))) + (unit ? "\u00a0" + unit : "") : "";

  /** A chart box with its title and a one-line note on how to read it. */
  T.box = (parent, title, note, wide) => {
    const box = T.el("figure", { class: "chart" + (wide ? " wide" : "") }, T.el("figcaption", {}, T.el("b", {}, title), note ? T.el("span", { class: "how" }, " " + note) : null));
    parent.append(box);
    return box;
  };
  T.width = box => Math.max(320, Math.floor(box.getBoundingClientRect().width) - 16);

  /** Records a chart for the browser test: its id, its data points, and every tick label it drew. */
  T.register = (id, points, ticks) => { const c = { id, points, ticks: ticks || [] }; T.charts.push(c); return c; };

  /**
   * An axis whose tick labels are recorded in <paramref name="ticks"/> as drawn. A vertical axis is at least
   * opts.size wide and wider when its longest label needs it, so "1500 ms" never runs into the axis title.
   */
  T.axis = (ticks, opts, format) => Object.assign({}, opts, {
    values: (u, splits) => { const out = splits.map(v => format(v)); ticks.push(...out); return out; },
    size: (u, values, i, cycle) => {
      const axis = u.axes[i], least = opts.size || 50;
      if (axis.side % 2 === 0 || !values) return least;
      if (cycle > 1) return axis._size;
      const longest = values.reduce((a, v) => (v != null && String(v).length > a.length ? String(v) : a), "");
      u.ctx.font = axis.font[0];
      return Math.max(least, Math.ceil(u.ctx.measureText(longest).width / devicePixelRatio + axis.ticks.size + axis.gap + 4));
    },
  });
})(window.tplab);
