// The calculators' Web Worker: boots Pyodide once and answers compute requests.
// Lives in the versioned runtime folder, next to pyodide.mjs, the lock file,
// the wheels and the snapshot, so everything it loads is of one build.
//
// Messages in:  {type: "boot", snapshot: bool, timeOrigin: the page's performance.timeOrigin}
//               {type: "compute", id, name, params, seed}
// Messages out: {type: "progress", text}
//               {type: "ready", how: "snapshot" | "boot", bootStarted, snapshotFetched, readyAt}
//                 (the times in the page's clock, for make bench)
//               {type: "failed", error}
//               {type: "result", id, result}   result is registry.run()'s dict
const base = new URL("./", import.meta.url).href;
// The snapshot is the biggest download: ask for it before anything else,
// even before Pyodide's own script (imported below, once this is on its way).
const marks = {};
const early = fetch(base + "snapshot.bin.gz").then(async (response) => {
  if (!response.ok) throw new Error(`snapshot.bin.gz answered ${response.status}`);
  const unzipped = new Response(response.body.pipeThrough(new DecompressionStream("gzip")));
  const bytes = new Uint8Array(await unzipped.arrayBuffer());
  marks.snapshotFetched = performance.now();
  return bytes;
});
early.catch(() => {}); // a failed snapshot is handled where it is used
const pyodideModule = import("./pyodide.mjs");
let compute = null;
let pageOrigin = 0;

const progress = (text) => postMessage({ type: "progress", text });

async function fetchOk(url, as) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.slice(base.length)} answered ${response.status}`);
  return as === "bytes" ? new Uint8Array(await response.arrayBuffer()) : response.text();
}

async function bootFromSnapshot() {
  progress("Loading the calculator (restoring Python)…");
  const { loadPyodide } = await pyodideModule;
  const pyodide = await loadPyodide({ indexURL: base, lockFileURL: base + "pyodide-lock.json", _loadSnapshot: early });
  // A snapshot restores the random state it was made with: reseed.
  pyodide.runPython("import random; random.seed()");
  return pyodide;
}

async function bootFresh() {
  progress("Loading the calculator (starting Python)…");
  const { loadPyodide } = await pyodideModule;
  const pyodide = await loadPyodide({ indexURL: base, lockFileURL: base + "pyodide-lock.json" });
  progress("Loading the calculator (installing the rules)…");
  const failures = [];
  await pyodide.loadPackage(["calculators"], { checkIntegrity: true, messageCallback: () => {}, errorCallback: (e) => failures.push(e) });
  if (failures.length) throw new Error("a package did not load: " + failures.join("; "));
  pyodide.runPython(await fetchOk(base + "warm-up.py", "text"));
  return pyodide;
}

async function boot(useSnapshot) {
  const start = performance.now();
  let pyodide = null;
  let how = "boot";
  if (useSnapshot) {
    try {
      pyodide = await bootFromSnapshot();
      how = "snapshot";
    } catch (err) {
      progress("Fast start failed, starting the slow way…");
      console.warn("snapshot restore failed, booting normally:", err);
    }
  }
  if (!pyodide) pyodide = await bootFresh();
  compute = pyodide.globals.get("compute");
  if (!compute) throw new Error("the calculators did not load");
  // Times since the page's own time origin, for the benchmarks.
  const since = performance.timeOrigin - pageOrigin;
  postMessage({ type: "ready", how, bootStarted: since + start, snapshotFetched: since + marks.snapshotFetched, readyAt: since + performance.now() });
}

onmessage = async ({ data }) => {
  if (data.type === "boot") {
    pageOrigin = data.timeOrigin ?? performance.timeOrigin;
    try {
      await boot(data.snapshot !== false);
    } catch (err) {
      postMessage({ type: "failed", error: String(err && err.message ? err.message : err) });
    }
  } else if (data.type === "compute") {
    let result;
    try {
      // undefined, not null: Pyodide turns JS null into its own jsnull, not None.
      result = JSON.parse(compute(data.name, JSON.stringify(data.params), data.seed ?? undefined));
    } catch (err) {
      result = { ok: false, error: "The calculator hit a problem it could not explain. Please report it.", field: null };
      console.error(err);
    }
    postMessage({ type: "result", id: data.id, result });
  }
};
