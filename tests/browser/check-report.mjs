// Usage: node check-report.mjs REPORT.html SCREENSHOT.png
// Loads a tplab report (lab, load or watch) offline in Debian's Chromium at 1,280 px and prints one JSON line:
// console errors, requests that left the file, whether the page finished rendering, each chart with its data points
// and tick labels, horizontal overflow, and the "where the time went" rows (latency and its three parts).
import { chromium } from "playwright-core";
import { pathToFileURL } from "node:url";

const [report, screenshot] = process.argv.slice(2);
if (!report || !screenshot) {
  console.error("usage: node check-report.mjs REPORT.html SCREENSHOT.png");
  process.exit(2);
}
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const consoleErrors = [];
  const requests = [];
  page.on("console", m => { if (m.type() === "error") consoleErrors.push(m.text()); });
  page.on("pageerror", e => consoleErrors.push("pageerror: " + e.message));
  page.on("request", r => { if (!r.url().startsWith("file:") && !r.url().startsWith("data:")) requests.push(r.url()); });
  await page.goto(pathToFileURL(report).href, { waitUntil: "load" });
  await page.waitForFunction(() => document.body.dataset.rendered === "true", null, { timeout: 15000 }).catch(() => {});
  const result = await page.evaluate(() => ({
    rendered: document.body.dataset.rendered === "true",
    charts: (window.tplabCharts || []).map(c => ({ id: c.id, points: c.points, ticks: c.ticks })),
    // Wider than the viewport: the page scrolls sideways, or an element sticks out of it.
    overflow: document.documentElement.scrollWidth > document.documentElement.clientWidth ||
      [...document.querySelectorAll("table, figure, svg, canvas")].some(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5),
    legends: [...document.querySelectorAll(".u-legend")].map(l => l.innerText).join("\n"),
    splits: [...document.querySelectorAll(".split-row")].map(r => ({ latency: +r.dataset.latency, waited: +r.dataset.waited, handler: +r.dataset.handler, rest: +r.dataset.rest })),
    toc: document.querySelectorAll("#toc-list a").length,
    canvases: document.querySelectorAll("canvas").length,
    tables: document.querySelectorAll("table").length,
    text: document.body.innerText.slice(0, 20000),
  }));
  await page.screenshot({ path: screenshot, fullPage: true });
  console.log(JSON.stringify({ ...result, consoleErrors, externalRequests: requests }));
} finally {
  await browser.close();
}
