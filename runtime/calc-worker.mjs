// The calculators' Web Worker: boots Pyodide once and answers compute requests.
// Lives in the versioned runtime folder, next to pyodide.mjs, the lock file,
// the wheels and the snapshot, so everything it loads is of one build.
//
// Messages in:  {type: "boot", snapshot: bool}
//               {type: "compute", id, name, params, seed}
// Messages out: {type: "progress", text}
//               {type: "ready", how: "snapshot" | "boot", ms}
//               {type: "failed", error}
//               {type: "result", id, result}   result is registry.run()'s dict
import { loadPyodide } from "./pyodide.mjs";

const base = new URL("./", import.meta.url).href;
let compute = null;

const progress = (text) => postMessage({ type: "progress", text });

async function fetchOk(url, as) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.slice(base.length)} answered ${response.status}`);
  return as === "bytes" ? new Uint8Array(await response.arrayBuffer()) : response.text();
}

async function bootFromSnapshot() {
  progress("Loading the calculator (restoring Python)…");
  const snapshot = fetchOk(base + "snapshot.bin", "bytes");
  const pyodide = await loadPyodide({ indexURL: base, lockFileURL: base + "pyodide-lock.json", _loadSnapshot: snapshot });
  // A snapshot restores the random state it was made with: reseed.
  pyodide.runPython("import random; random.seed()");
  return pyodide;
}

async function bootFresh() {
  progress("Loading the calculator (starting Python)…");
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
  postMessage({ type: "ready", how, ms: performance.now() - start });
}

onmessage = async ({ data }) => {
  if (data.type === "boot") {
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
