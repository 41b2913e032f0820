// Lighthouse on several pages in one run, for benchmarks/lighthouse.py.
//
// One Node process and one Chromium for all the pages: the Lighthouse CLI
// starts both again for each page, about 3 s of two cores each time.
//
//   node lighthouse-run.mjs PORT OUT_DIR CATEGORIES SCREENSHOT URL [URL ...]
//
// PORT: the DevTools port of a Chromium already running (started by
// lighthouse.py); CATEGORIES: comma-separated; SCREENSHOT: "1" keeps the
// full-page screenshot (the CLI's default), "0" leaves it out (about 2 s a
// page, and no category's score reads it). Writes OUT_DIR/<n>.json, the report
// of the n-th URL (from 0). Settings are otherwise the CLI's defaults: mobile
// screen, touch, simulated throttling.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import lighthouse from "lighthouse";

const [port, outDir, categories, screenshot, ...urls] = process.argv.slice(2);
if (!urls.length) {
  console.error("usage: node lighthouse-run.mjs PORT OUT_DIR CATEGORIES SCREENSHOT URL [URL ...]");
  process.exit(2);
}
for (const [n, url] of urls.entries()) {
  const result = await lighthouse(url, {
    port: Number(port),
    output: "json",
    logLevel: "error",
    onlyCategories: categories.split(","),
    disableFullPageScreenshot: screenshot !== "1",
  });
  if (!result) throw new Error(`lighthouse gave no report for ${url}`);
  await writeFile(join(outDir, `${n}.json`), JSON.stringify(result.lhr));
}
