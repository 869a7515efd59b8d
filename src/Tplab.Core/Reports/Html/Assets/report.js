// Draws a tplab report from the JSON embedded in #tplab-data: { kind, summary, series }. kind "lab" is `tplab run`'s
// report.html (per experiment: the table beside the seed, where each request's time went, the lessons, the charts);
// "load" one `tplab load` run; "watch" one `tplab watch` timeline.
(function (T) {
  "use strict";
  const data = JSON.parse(document.getElementById("tplab-data").textContent);
  const summary = data.summary, series = data.series || {};
  const el = T.el, root = document.getElementById("content"), toc = document.getElementById("toc-list");
  const slug = s => String(s).toLowerCase().replace(/[^a-z0-9]+/g, "-");
  const tocEntry = (id, text, level) => toc.append(el("li", { class: level ? "sub" : null }, el("a", { href: "#" + id }, text)));

  function section(id, title, level) {
    const node = el("section", { id });
    node.append(el(level ? "h3" : "h2", {}, title));
    tocEntry(id, title, level);
    return node;
  }
  // A section built before knowing whether anything goes in it: listed in the contents only once it has.
  function quietSection(id, title) {
    const node = el("section", { id });
    node.append(el("h3", {}, title));
    node.listIfFilled = () => { if (node.childNodes.length > 1) tocEntry(id, title, 1); return node.childNodes.length > 1; };
    return node;
  }

  // ---- tables ----
  const timing = r => r.load && r.load.handlerTiming;
  function scenarioTable(rows, withSeed) {
    const anyWaited = rows.some(r => timing(r));
    const cols = [
      ["scenario", r => r.label + (r.repeats ? ` ×${r.repeats.length}` : ""), "text"],
      ["requests", r => T.num(r.load && r.load.requests)],
      ["failed", r => T.num(r.load && r.load.failed)],
      ["mean", r => spread(r, "meanMs", T.ms) ?? T.ms(r.load && r.load.latencyMs.mean)],
      ["p99", r => spread(r, "p99Ms", T.ms) ?? T.ms(r.load && r.load.latencyMs.p99)],
      ["max", r => T.ms(r.load && r.load.latencyMs.max)],
      ...(anyWaited ? [["waited mean", r => T.ms(timing(r) && timing(r).waitedForThreadMs.mean)], ["waited p99", r => T.ms(timing(r) && timing(r).waitedForThreadMs.p99)]] : []),
      ["req/s", r => spread(r, "requestsPerSecond", v => T.num(v, 1)) ?? T.num(r.load && r.load.throughputPerSecond, 1)],
      ["pool threads", r => r.timeline ? `${r.timeline.threadsStart} → ${r.timeline.threadsPeak}` : "–"],
      ["verdict", r => r.status === "completed" ? (r.verdict || "–") : `${r.verdict || "–"} (${r.status})`, "verdict"],
      ...(withSeed ? [
        ["seed mean", r => seedMs(r, "meanMs"), "seed"],
        ["seed max", r => seedMs(r, "maxMs"), "seed"],
        ["seed req/s", r => seedRange(r, "requestsPerSecond", v => T.num(v, 1)), "seed"]] : []),
    ];
    // A column with no value in any row (the pool of a plain load run, say) is left out.
    cols.splice(0, cols.length, ...cols.filter((c, i) => i === 0 || rows.some(r => c[1](r) !== "–")));
    const head = el("tr", {}, cols.map(c => el("th", { class: c[2] === "seed" ? "seed" : null }, c[0])));
    const body = el("tbody", {}, rows.flatMap(r => [el("tr", {}, cols.map(c => el("td", {
      class: c[2] === "verdict" ? "verdict-" + (r.verdict || "none") : c[2] === "text" ? "text" : c[2] === "seed" ? "seed" : null,
    }, c[1](r))))].concat(endpointRows(r, cols))));
    return el("div", { class: "table-wrap" }, el("table", {}, el("thead", {}, head), body));
  }
  // With --repeat: the mean over the runs and their range (lowest–highest run).
  function spread(r, key, format) {
    const s = r.spread && r.spread[key];
    return s ? `${format(s.mean)} (${format(s.min)}–${format(s.max)})` : null;
  }
  // A request mix of several endpoints (your own service): one row per endpoint under its scenario.
  const endpointCells = {
    scenario: e => "└ " + e.label, requests: e => T.num(e.requests), failed: e => T.num(e.failed), mean: e => T.ms(e.latencyMs.mean),
    p99: e => T.ms(e.latencyMs.p99), max: e => T.ms(e.latencyMs.max), "req/s": e => T.num(e.throughputPerSecond, 1),
  };
  function endpointRows(r, cols) {
    const targets = (r.requests && r.load && r.load.targets) || [];
    if (targets.length < 2) return [];
    return targets.map(e => el("tr", { class: "endpoint" }, cols.map(c => el("td", { class: c[2] === "text" ? "text" : null }, endpointCells[c[0]] ? endpointCells[c[0]](e) : ""))));
  }
  function seedRange(r, key, format) {
    const s = r.seed || {}, f = s.figures || {}, range = (s.ranges || {})[key];
    if (T.finite(f[key])) return format(f[key]);
    return range ? `${format(range[0])}–${format(range[1])}` : "–";
  }
  const seedMs = (r, key) => seedRange(r, key, v => T.ms(v).replace(/\u00a0(ms|s)$/, "")) + unitOf(r, key);
  const unitOf = (r, key) => { const s = r.seed || {}, v = (s.figures || {})[key] ?? ((s.ranges || {})[key] || [])[1]; return T.finite(v) ? (v >= 1000 ? "\u00a0s" : "\u00a0ms") : ""; };

  function details(rows) {
    const list = el("ul", { class: "details" });
    for (const r of rows) {
      const inj = Object.entries((r.timeline && r.timeline.injectionsByReason) || {}).map(([k, v]) => `${k} ${v}`).join(", ") || "none";
      const parts = [r.evidence ? `${r.verdict}: ${r.evidence}` : "the pool was not watched", r.timeline ? `injections: ${inj}` : null, r.error ? `error: ${r.error}` : null].filter(Boolean);
      list.append(el("li", {}, el("b", {}, r.label + ": "), parts.join("; ")));
    }
    return list;
  }

  // ---- where the time went: mean waited / handler / rest, one stacked bar per run ----
  function splitBars(rows) {
    const timed = rows.filter(r => timing(r) && timing(r).requests > 0);
    if (!timed.length) return null;
    const max = Math.max(...timed.map(r => timing(r).latencyMs.mean)) || 1;
    const wrap = el("div", { class: "split" });
    for (const r of timed) {
      const t = timing(r), w = t.waitedForThreadMs.mean, h = t.handlerMs.mean, rest = t.restMs.mean, total = t.latencyMs.mean;
      const pct = v => `${Math.max(0, (v / max) * 100)}%`;
      wrap.append(el("div", { class: "split-row", "data-latency": total, "data-waited": w, "data-handler": h, "data-rest": rest },
        el("span", { class: "split-label" }, r.label),
        el("span", { class: "split-bar" },
          el("span", { class: "part waited", style: `width:${pct(w)}`, title: `waited for a thread: ${T.ms(w)}` }),
          el("span", { class: "part handler", style: `width:${pct(h)}`, title: `running the handler: ${T.ms(h)}` }),
          el("span", { class: "part rest", style: `width:${pct(rest)}`, title: `the rest: ${T.ms(rest)}` })),
        el("span", { class: "split-text" }, `${T.ms(total)} = waited ${T.ms(w)} + handler ${T.ms(h)} + rest ${T.ms(rest)}` + (t.requests < (r.load.requests || 0) ? ` (${T.num(t.requests)} of ${T.num(r.load.requests)} requests had the header)` : ""))));
    }
    // The headline, from the figures: where most of a request's time was waiting for a thread, and what the pool did meanwhile.
    const headline = timed.filter(r => timing(r).waitedForThreadMs.mean >= 0.3 * timing(r).latencyMs.mean).map(r => {
      const t = timing(r), share = Math.round((100 * t.waitedForThreadMs.mean) / t.latencyMs.mean);
      const inj = Object.entries((r.timeline && r.timeline.injectionsByReason) || {}).map(([k, v]) => `${v} ${k}`).join(", ");
      return el("li", {}, el("b", {}, r.label + ": "), `${share}% of the mean request (${T.ms(t.waitedForThreadMs.mean)} of ${T.ms(t.latencyMs.mean)}) was spent waiting for a pool thread` +
        (r.timeline ? `, while the pool went from ${r.timeline.threadsStart} to ${r.timeline.threadsPeak} threads${inj ? ` (injections: ${inj})` : ""}.` : "."));
    });
    // Measured: where the rest is a large part, say so, with the background that explains it.
    const slowRest = timed.filter(r => timing(r).restMs.mean > 100 && timing(r).restMs.mean > 0.2 * timing(r).latencyMs.mean);
    const restNote = slowRest.length ? el("p", { class: "muted" }, `${slowRest.map(r => r.label).join(", ")}: ${T.ms(timing(slowRest[0]).restMs.mean)} on average passed after the handler returned` +
      (slowRest.length > 1 ? " (first listed)" : "") + ". Background: Kestrel's socket transport sends responses from work items on the same thread pool, so a starved pool delays them too.") : null;
    return el("div", {}, headline.length ? el("ul", { class: "headline" }, headline) : null, restNote, el("p", { class: "legend-inline" },
      el("span", { class: "key waited" }), " waited for a pool thread ", el("span", { class: "key handler" }), " running the handler ", el("span", { class: "key rest" }), " the rest (after the handler: sending the response, connection) — mean per request, from the app's Server-Timing handler header"), wrap);
  }

  function lessonsAndNotes(parent, exp) {
    if (exp.lessons && exp.lessons.length) T.lessonChart(parent, `lessons-${exp.name}`, exp.lessons);
    const notes = [...(exp.runtimeNotes || []), ...(exp.observations || [])];
    if (notes.length) parent.append(el("ul", { class: "notes" }, notes.map(n => el("li", {}, n))));
  }

  function culprits(rows) {
    const found = rows.filter(r => (r.culprits || []).length);
    if (!found.length) return null;
    return el("ul", { class: "notes" }, found.flatMap(r => r.culprits.map(c => el("li", {}, el("b", {}, r.label + ": "),
      el("code", {}, `${c.blockingCall} in ${c.userFrame}`), ` — ${T.num(c.threads, 1)} pool threads held (${T.num(c.share * 100)}% of blocked time). ${c.advice}`))));
  }

  // A plan from tplab scan --plan: each static finding beside what the run saw (the culprit diagnose named, or why not).
  function findings(exp) {
    const list = exp.findings || [];
    if (!list.length) return null;
    const words = { confirmed: "confirmed", notSeen: "not seen", notReached: "not reached", notRun: "not run" };
    const count = state => list.filter(f => f.state === state).length;
    const runtime = f => {
      if (f.state !== "confirmed" || !f.culprit) return el("td", { class: "text" }, f.reason);
      const k = f.culprit;
      return el("td", { class: "text" }, el("code", {}, `${k.blockingCall} in ${k.userFrame}`),
        ` — ${T.num(k.threads, 1)} pool threads held; mean ${T.ms(f.meanMs)}, p99 ${T.ms(f.p99Ms)}; pool ${f.pool || "–"}` + (f.watched && f.scenario ? `; under ${f.scenario}'s load` : ""));
    };
    const table = el("table", { class: "findings" },
      el("thead", {}, el("tr", {}, ["state", "finding", "static: scan", "runtime: this run"].map(h => el("th", {}, h)))),
      el("tbody", {}, list.map(f => el("tr", { class: "finding-" + f.state },
        el("td", { class: "text state" }, words[f.state] || f.state),
        el("td", { class: "text" }, el("b", {}, f.root), f.watched ? " (watched)" : "", el("br"), `${f.rule}, ${f.severity}` + (f.scenario && !f.watched ? ` · scenario ${f.scenario}` : "")),
        el("td", { class: "text" }, el("code", {}, `${f.blockingCall} in ${f.userMethod}`), f.at ? ` (${f.at})` : ""),
        runtime(f)))));
    return el("div", {}, el("p", {}, `${count("confirmed")} confirmed, ${count("notSeen")} not seen under that load, ${count("notReached")} not reached, ${count("notRun")} not run.`), table);
  }

  // Latency charts for a set of runs: by completion (closed loop: everyone starts at once, so the send time says
  // little) and, in open loop, by scheduled send; then percentiles.
  function latencyCharts(parent, key, runs, open) {
    const grid = el("div", { class: "charts" });
    parent.append(grid);
    T.latencyChart(grid, `completion-${key}`, runs, "end", "Latency by completion time", open ? "each request at the moment it finished" : "each request at the moment it finished: waves show threads being added");
    if (open) T.latencyChart(grid, `latency-${key}`, runs, "sched", "Latency by scheduled send", "open loop: latency counts from when the request was due (no coordinated omission)");
    T.percentileChart(grid, `percentiles-${key}`, runs);
  }

  // ---- the three kinds of page ----
  function lab() {
    document.getElementById("meta").textContent =
      `${summary.tool} · ${summary.runtimeVersion} · ${summary.cores} cores · ${summary.os} · profile ${summary.profile} · started ${summary.startedAt}` +
      (summary.interrupted ? " · INTERRUPTED: partial results" : "");
    for (const skipped of summary.skipped || []) root.append(el("p", { class: "warning" }, `${skipped.experiment} skipped: ${skipped.reason}`));
    for (const exp of summary.experiments) {
      const rows = summary.scenarios.filter(s => s.experiment === exp.name);
      const runs = rows.map((r, index) => ({ label: r.label, index, s: series[`${exp.name}/${r.scenario}`], open: !!(r.load && r.load.model === "open"), seed: r.seed })).filter(r => r.s);
      const sec = section("exp-" + slug(exp.name), `${exp.name} — ${exp.title}`);
      if (exp.seeds.length) sec.append(el("p", { class: "muted" }, `Seeds: ${exp.seeds.join(", ")}${exp.seedRuntime ? " · seed runtime: " + exp.seedRuntime : ""}`));
      sec.append(el("p", { class: "muted" }, exp.scaling));
      sec.append(scenarioTable(rows, rows.some(r => r.seed)), details(rows));
      const split = splitBars(rows);
      if (split) { const sub = section(`split-${slug(exp.name)}`, "Where the time went", 1); sub.append(split); sec.append(sub); }
      const cmp = quietSection(`seed-${slug(exp.name)}`, exp.seeds.length ? "Beside the seed" : "What it shows");
      T.seedChart(cmp, `seed-${exp.name}`, exp, rows);
      lessonsAndNotes(cmp, exp);
      if (cmp.listIfFilled()) sec.append(cmp);
      const checked = findings(exp);
      if (checked) { const sub = section(`findings-${slug(exp.name)}`, "Findings from the scan, beside the run", 1); sub.append(checked); sec.append(sub); }
      const found = culprits(rows);
      if (found) { const sub = section(`culprits-${slug(exp.name)}`, "Blocking code found by diagnose", 1); sub.append(found); sec.append(sub); }
      const lat = section(`latency-${slug(exp.name)}`, "Latency", 1);
      sec.append(lat);
      root.append(sec);
      latencyCharts(lat, exp.name, runs, rows.some(r => r.load && r.load.model === "open"));
      const per = section(`runs-${slug(exp.name)}`, "Each request, and the pool beside it", 1);
      sec.append(per);
      for (const run of runs) {
        const row = rows.find(r => r.label === run.label);
        T.timelineChart(per, `timeline-${exp.name}-${row.scenario}`, run);
        T.poolChart(per, `pool-${exp.name}-${row.scenario}`, run);
        T.delayChart(per, `delay-${exp.name}-${row.scenario}`, run);
      }
    }
  }

  function load() {
    const l = summary.load, run = { label: l.url, index: 0, s: series.run, open: l.model === "open" };
    document.getElementById("title").textContent = "tplab load — " + l.url;
    document.title = "tplab load — " + l.url;
    document.getElementById("meta").textContent = `${summary.tool} · ${l.model === "open" ? `open loop, ${T.num(l.targetRate, 2)} req/s` : `closed loop, ${l.concurrency} users`} · started ${summary.startedAt}` + (l.interrupted ? " · INTERRUPTED: partial results" : "");
    const sec = section("summary", "Summary");
    sec.append(scenarioTable([{ label: l.url, load: l, status: "completed" }], false));
    const split = splitBars([{ label: l.url, load: l }]);
    if (split) { const sub = section("split", "Where the time went", 1); sub.append(split); sec.append(sub); }
    root.append(sec);
    const lat = section("latency", "Latency");
    root.append(lat);
    latencyCharts(lat, "run", [run], l.model === "open");
    const per = section("requests", "Each request");
    root.append(per);
    T.timelineChart(per, "timeline-run", run);
  }

  function watch() {
    const w = summary.watch;
    document.getElementById("title").textContent = `tplab watch — process ${w.pid}`;
    document.title = `tplab watch — process ${w.pid}`;
    document.getElementById("meta").textContent = `${summary.tool} · process ${w.pid} · every ${T.num(w.intervalMs)} ms · started ${summary.startedAt}`;
    const sec = section("verdict", "Verdict");
    if (!w.verdict) {
      // No sample with the runtime's counters: no verdict word, no empty chart.
      sec.append(el("p", {}, w.evidence));
      root.append(sec);
      return;
    }
    sec.append(el("p", {}, el("b", { class: "verdict-" + w.verdict }, w.verdict), ` — ${w.evidence}`));
    if (w.delayNote) sec.append(el("p", { class: "muted" }, w.delayNote));
    sec.append(el("p", { class: "muted" }, `pool threads ${w.threadsStart} → ${w.threadsPeak}, OS threads peak ${w.osThreadsPeak}, queue peak ${w.queuePeak}; injections: ` +
      (Object.entries(w.injectionsByReason || {}).map(([k, v]) => `${k} ${v}`).join(", ") || "none")));
    root.append(sec);
    const pool = section("pool", "The pool over time");
    root.append(pool);
    const run = { label: `process ${w.pid}`, index: 0, s: series.watch, xLabel: "seconds since the watch started" };
    T.poolChart(pool, "pool-watch", run, "Pool over time");
    T.delayChart(pool, "delay-watch", run, "Scheduling delay over time");
  }

  const footers = {
    watch: "Made by tplab. Charts: uPlot (MIT). Pool threads, queue and completed/s are the runtime's own counters (EventPipe); OS threads and CPU come from /proc; injections are the runtime's thread-adjustment events, by reason; the measured scheduling delay pairs the runtime's work-item enqueue/dequeue events (30/31) while they were on, the estimate is queue ÷ completed per second.",
  };
  if (footers[data.kind]) document.querySelector("footer").textContent = footers[data.kind];
  ({ lab, load, watch })[data.kind || "lab"]();
  document.body.dataset.rendered = "true";
})(window.tplab);
