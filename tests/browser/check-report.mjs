// Usage: node check-report.mjs REPORT.html SCREENSHOT.png
// Loads the report offline in Debian's Chromium and prints one JSON line: console errors, page errors,
// whether the page finished rendering, and each chart with its number of data points.
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
    charts: (window.tplabCharts || []).map(c => ({ id: c.id, points: c.points })),
    canvases: document.querySelectorAll("canvas").length,
    tables: document.querySelectorAll("table").length,
    text: document.body.innerText.slice(0, 20000),
  }));
  await page.screenshot({ path: screenshot, fullPage: true });
  console.log(JSON.stringify({ ...result, consoleErrors, externalRequests: requests }));
} finally {
  await browser.close();
}
