"""The pages `make bench` visits: the site's share links, and the bench's
own pages written into the site's __bench/ folder for the run (a bare
Pyodide boot, the plain Pyodide page doing the share link's job, the
calculator's worker alone), with the scripts it runs in the site's pages.
"""

from __future__ import annotations

from pathlib import Path

CALC_PAGE = "tell-tale/combat/"
SHARE = "?calc=tell_tale.resolve_attack&power=5&d20=17"  # the bench's pages below compute the same
SECOND_PAGE = "talislanta/action-table/"
SECOND_SHARE = "?calc=talislanta.resolve_action&rating=9&opposing_rating=7&d20=10"
PLAIN_PAGE = "tell-tale/glossary/"

BARE_PAGE = """<!doctype html><meta charset="utf-8"><title>bare</title>
<script type="module">
const t0 = performance.now();
const { loadPyodide } = await import("%(runtime)spyodide.mjs");
const py = await loadPyodide({ indexURL: "%(runtime)s" });
py.runPython("1+1");
window.__done = performance.now();
</script>"""

# The plain Pyodide page doing the share link's job, the yardstick of issue
# 14: the site's own runtime files, lock file and wheels; loadPyodide with the
# lock file's packages, import the calculators, runner.run on the inputs.
# window.__stamps: its timeline (benchmarks/timeline.py), performance.now()
# at each step and nothing more; the result is drawn after __done.
PYODIDE_PAGE = """<!doctype html><meta charset="utf-8"><title>plain Pyodide</title>
<script type="module">
const stamps = {};
const streaming = WebAssembly.instantiateStreaming;
WebAssembly.instantiateStreaming = async (source, imports) => {
  const made = await streaming.call(WebAssembly, source, imports);
  stamps.wasmCompiled ??= performance.now();
  return made;
};
const runtime = new URL("%(runtime)s", location.href).href; // absolute: the wheels' URLs are built on it
const { loadPyodide } = await import(runtime + "pyodide.mjs");
stamps.pyodideImported = performance.now();
const lock = await (await fetch(runtime + "pyodide-lock.json")).json();
const py = await loadPyodide({ indexURL: runtime, lockFileURL: runtime + "pyodide-lock.json",
  packages: Object.keys(lock.packages) });
stamps.loaded = performance.now();
const ok = py.runPython(`
import calculators.runner as runner
runner.run("tell_tale.resolve_attack", {"power": "5", "d20": "17"})["ok"]`);
if (ok) window.__done = stamps.computeDone = performance.now();
document.body.append(ok ? "worked" : "failed");
requestAnimationFrame(() => setTimeout(() => { stamps.painted = performance.now(); window.__stamps = stamps; }));
</script>"""

# The calculator's worker alone on a blank page, answering the same share
# link: how much of the first result is the worker's own start, and how much
# is the page around it competing for the same cores.
WORKER_PAGE = """<!doctype html><meta charset="utf-8"><title>worker alone</title>
<script>
let stamps = { created: performance.now() }; // its timeline, as the page keeps it (calc-runtime.js)
const boot = new URLSearchParams({ boot: "snapshot", origin: String(performance.timeOrigin) });
const worker = new Worker("%(runtime)scalc-worker.mjs#" + boot, { type: "module" });
worker.onmessage = ({ data }) => {
  if (data.type === "ready") {
    stamps = { ...stamps, ...data.stamps, bootStarted: data.bootStarted, snapshotFetched: data.snapshotFetched,
      readyAt: data.readyAt, readySeen: performance.now() };
    stamps.computeSent = performance.now();
    worker.postMessage({ type: "compute", id: 1, name: "tell_tale.resolve_attack", params: { power: "5", d20: "17" } });
  }
  if (data.type === "result" && data.result.ok) {
    window.__done = performance.now();
    Object.assign(stamps, data.stamps, { resultReceived: window.__done });
    requestAnimationFrame(() => setTimeout(() => { stamps.painted = performance.now(); window.__stamps = stamps; }));
  }
};
</script>"""

# Stamps, in the page itself, the moment a result first appears: Playwright's
# polling would add its own latency to the figure.
FIRST_RESULT_STAMP = """new MutationObserver((_, obs) => {
  if (document.querySelector("form[data-calculator] [data-outcome]")) {
    window.__firstResult = performance.now();
    obs.disconnect();
  }
}).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-outcome"] });"""

# The share link's input change, timed in the page (row 4): `n` changes of
# d20, each until the result box changes.
INPUT_LATENCY_JS = """async ({ n }) => {
  const form = document.querySelector('form[data-calculator="tell_tale.resolve_attack"]');
  const d20 = form.querySelector('[name=d20]');
  const box = form.querySelector('.calc-result');
  const times = [];
  for (let i = 0; i < n; i++) {
    const value = String(1 + (i * 7) % 20);
    const done = new Promise((resolve) => {
      const obs = new MutationObserver(() => { obs.disconnect(); resolve(performance.now()); });
      obs.observe(box, { childList: true, attributes: true });
    });
    const t0 = performance.now();
    d20.value = value === d20.value ? '1' : value;
    d20.dispatchEvent(new Event('input', { bubbles: true }));
    const t1 = await done;
    await new Promise((r) => requestAnimationFrame(() => r()));
    times.push(t1 - t0);
  }
  return times;
}"""

BENCH_PAGES = {"bare.html": BARE_PAGE, "worker.html": WORKER_PAGE, "pyodide.html": PYODIDE_PAGE}


def runtime_path(site: Path) -> str:
    """The runtime's folder in a built site, as a URL path: pyodide/<version>/."""
    return "pyodide/" + next((site / "pyodide").iterdir()).name + "/"


def write_bench_pages(folder: Path, runtime: str) -> None:
    """The bench's own pages into `folder` (the site's __bench/), loading the runtime at /`runtime`."""
    folder.mkdir(exist_ok=True)
    for name, page in BENCH_PAGES.items():
        (folder / name).write_text(page % {"runtime": "/" + runtime})
