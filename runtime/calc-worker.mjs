// The calculators' Web Worker: boots Pyodide once and answers compute requests.
// Lives in the versioned runtime folder, next to pyodide.mjs, the lock file,
// the wheels and the snapshot, so everything it loads is of one build.
//
// Started with: #boot=snapshot (or fresh)&origin=the page's performance.timeOrigin
//               at the end of its address: it starts at once (see startAsAsked)
// Messages in:  {type: "compute", id, name, params, seed}
//               {type: "keep-snapshot"}  the service worker's runtime cache is whole: keep the
//                 snapshot unpacked there for the next visit (see keepSnapshot in sparse-snapshot.mjs)
// Messages out: {type: "progress", text}
//               {type: "ready", how: "snapshot" | "boot", bootStarted, snapshotFetched, readyAt, stamps}
//                 (the times in the page's clock, for make bench; snapshotFetched
//                 null when no snapshot had come by then; stamps, each step of
//                 the start that was reached, see Stamp)
//               {type: "failed", error}
//               {type: "busy", id}      Python is running request id now (the page times it)
//               {type: "waiting", id}   request id waits for the standard library (not timed)
//               {type: "result", id, result, stamps?}   result is runner.run()'s dict;
//                 the first result's stamps: when Python started and finished it
//
// Pyodide's private parts (the snapshot, the wasm watch) are used through
// pyodide-private.mjs only.
import { RuntimeFileError, fetchWasmEarly, interpreterOptions, restoreOptions, usable, watchWasm } from "./pyodide-private.mjs";
import { forgetKeptSnapshot, keepSnapshot, keptSnapshot } from "./sparse-snapshot.mjs";

/** @typedef {import("./sparse-snapshot.mjs").Layout} Layout */
/** @typedef {import("./pyodide.mjs").PyodideAPI} PyodideAPI */
/** The messages in (above). The page's types for its side (Compute and
 * WorkerMessage in docs/assets/calc-runtime.js) cannot be imported here: this
 * check would then take that page script in, against the worker's library.
 * `params`: the form's fields, or a tracker's step's {state, action} texts, or
 * {version, action} for a step from the state Python holds (calculators/runner.py).
 * @typedef {{type: "compute", id: number, name: string, params?: Record<string, string> | null,
 *   seed?: string | null}} Compute */
/** @typedef {Compute | {type: "keep-snapshot"}} Incoming */
/** The messages out (above); `result` is Python's JSON, not checked here.
 * @typedef {{type: "progress", text: string}
 *   | {type: "ready", how: "snapshot" | "boot", bootStarted: number, snapshotFetched: number | null, readyAt: number,
 *      stamps: Stamps}
 *   | {type: "failed", error: string}
 *   | {type: "busy" | "waiting", id: number}
 *   | {type: "result", id: number, result: unknown, stamps?: Stamps}} Posted */
/** The steps of the start make bench's timeline shows, each when it was
 * reached (performance.now() in the thread that saw it; only a clock is read,
 * nothing waits for it): this script running; Pyodide's scripts imported;
 * the snapshot's header in, its last byte in, unpacked, and handed to this
 * worker (or read unpacked from the copy kept on the device: snapshotKept);
 * pyodide.asm.wasm asked for (when loadPyodide starts), its
 * response's first and last byte (these three from the resource timing),
 * handed to the compiler by this thread, compiled and instantiated; the
 * snapshot's pages equal to the wasm's own memory copied from it and checked;
 * Emscripten's module set up (Pyodide calls its fsInit hook), the
 * snapshot's bytes copied into place (in that hook), Pyodide's own
 * restore done (loadPyodide resolved); the interpreter restored (or booted:
 * then none of the four before); then, with the first result, Python
 * starting and finishing it.
 * @typedef {"workerStarted" | "pyodideImported" | "snapshotHeader" | "snapshotArrived" | "snapshotDecoded" | "snapshotKept"
 *   | "wasmRequested" | "wasmResponse" | "wasmFetched" | "wasmCompiling" | "wasmCompiled" | "initialCopied" | "moduleReady" | "snapshotCopied"
 *   | "pyodideLoaded" | "restored"
 *   | "computeStarted" | "computeDone"} Stamp
 * @typedef {Partial<Record<Stamp, number>>} Stamps */
/** Python's `compute` (calculators/web.py): the answer as JSON text.
 * @typedef {(name: string, paramsJson: string, seed?: string, state?: string) => string} PyCompute */

const base = new URL("./", import.meta.url).href;
/** @type {Stamps} */
const stamps = { workerStarted: performance.now() }; // this thread's clock; in the page's when posted
/** @param {Stamp} name */
const stamp = (name) => { stamps[name] ??= performance.now(); };
/** A time of performance.timeOrigin + now(), from another thread, in this one's clock. @param {number | undefined} at */
const fromShared = (at) => (at === undefined ? undefined : at - performance.timeOrigin);
// How long the snapshot helper may say nothing: while it starts and asks for
// the file, while the file arrives (it speaks at least every 250 ms while
// bytes come), and while it unpacks 31 MB once all have come. Firefox left
// the helper silent after its layout in 7 of 7 hangs traced (about one cold
// load in eleven beside Material's search worker); past these the worker
// unpacks the snapshot itself. Declared before loadSnapshot runs, below.
const HELPER_QUIET_MS = { starting: 10_000, receiving: 5_000, arrived: 15_000 };

// The snapshot is the biggest download and the most work to unpack: start it
// before anything else, on its own thread where there is one (see
// snapshot-worker.mjs), so Pyodide's own scripts load meanwhile.
/** @type {number | undefined} */
let snapshotFetched; // when it arrived, for make bench
let snapshotKept = false; // whether it came unpacked from the copy kept on the device
let restoredFromSnapshot = false;
let keeping = false; // asked to keep it (once)
const early = loadSnapshot();

/** {layout, bytes}: promises of the snapshot file's layout (from its
 * header, early) and of its unpacked bytes. Read from the copy kept
 * unpacked on the device where there is one; else downloaded and unpacked
 * by the helper, or, where there is no helper or it fails, here.
 * @returns {{layout: Promise<Layout>, bytes: Promise<Uint8Array>}} */
function loadSnapshot() {
  // Set at once by the promise below, which TypeScript cannot see: so
  // unknown here, and cast to (layout: Layout) => void where used.
  /** @type {unknown} */
  let gotLayout;
  /** @type {Promise<Layout>} */
  const layout = new Promise((resolve) => { gotLayout = resolve; });
  /** @param {import("./sparse-snapshot.mjs").Stage} stage */
  const stampStage = (stage) => stamp(stage === "arrived" ? "snapshotArrived" : "snapshotDecoded");
  const here = () => import("./sparse-snapshot.mjs").then(({ fetchSnapshot }) => fetchSnapshot(/** @type {(layout: Layout) => void} */ (gotLayout), stampStage));
  const download = () => (typeof Worker !== "function" ? here() : inHelper(/** @type {(layout: Layout) => void} */ (gotLayout)).catch((err) => {
    console.warn("the snapshot helper failed, unpacking in the worker:", err);
    return here();
  }));
  const bytes = keptSnapshot(/** @type {(layout: Layout) => void} */ (gotLayout)).then((kept) => {
    if (!kept) return download();
    snapshotKept = true;
    stamp("snapshotKept");
    return kept;
  });
  bytes.then(() => { snapshotFetched = performance.now(); }, () => {});
  layout.then(() => stamp("snapshotHeader"));
  // A failed snapshot is handled where it is used; a layout that never came
  // is settled by that failure.
  const layoutOrFailure = Promise.race([layout, bytes.then(() => layout)]);
  layoutOrFailure.catch(() => {});
  return { layout: layoutOrFailure, bytes };
}

/** The snapshot's bytes, unpacked by snapshot-worker.mjs; `gotLayout` hears its layout.
 * @param {(layout: Layout) => void} gotLayout @returns {Promise<Uint8Array>} */
function inHelper(gotLayout) {
  return new Promise((resolve, reject) => {
    const helper = new Worker(base + "snapshot-worker.mjs", { type: "module" });
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let quiet;
    /** @param {keyof HELPER_QUIET_MS} stage */
    const watch = (stage) => {
      clearTimeout(quiet);
      quiet = setTimeout(() => {
        helper.terminate();
        reject(new Error(`the snapshot helper said nothing for ${HELPER_QUIET_MS[stage] / 1000} s`));
      }, HELPER_QUIET_MS[stage]);
    };
    watch("starting");
    /** @param {MessageEvent<import("./snapshot-worker.mjs").HelperMessage>} event */
    helper.onmessage = ({ data }) => {
      if (data.alive) return watch(data.alive);
      if (data.layout) {
        watch("receiving");
        return gotLayout(data.layout);
      }
      clearTimeout(quiet);
      helper.terminate();
      if (data.bytes) {
        stamps.snapshotArrived ??= fromShared(data.stages?.arrived); // a stamp never stops the start
        stamps.snapshotDecoded ??= fromShared(data.stages?.decoded);
        resolve(data.bytes);
      } else {
        reject(new Error(data.error || "the snapshot helper stopped without saying why")); // an Error may have no message
      }
    };
    helper.onerror = (event) => {
      event.preventDefault();
      clearTimeout(quiet);
      helper.terminate();
      reject(new Error("the snapshot helper could not start"));
    };
  });
}

const pyodideModule = import("./pyodide.mjs");
pyodideModule.then(() => stamp("pyodideImported"), () => {});
const lateStdlib = import("./late-stdlib.mjs");
/** @type {PyCompute | null} */
let compute = null;
/** @type {Promise<void> | null} */
let stdlibInstalled = null; // a promise, once the standard library's download started
let startStdlib = () => stdlibInstalled; // starts it (after a snapshot restore), once
const STDLIB_TRIES = 3; // downloads of the standard library for one need of it, at most
const STDLIB_AFTER_MS = 2000; // with no calculation asked for, it starts this long after the start
const STDLIB_AFTER_RESULT_MS = 300; // after a result: once the page has drawn it, so the download never shares the line with it
let pageOrigin = 0;

/** @param {string} text */
const progress = (text) => postMessage(/** @satisfies {Posted} */ ({ type: "progress", text }));

/** The standard library's bytes; a download that fails (a dropped connection) is asked for again after 1 s, then
 * 3 s, STDLIB_TRIES in all. @returns {Promise<Uint8Array>} */
async function stdlibBytes() {
  for (let tried = 1; ; tried += 1) {
    try {
      return /** @type {Uint8Array} */ (await fetchOk(base + "python_stdlib.zip", "bytes"));
    } catch (err) {
      if (tried >= STDLIB_TRIES) throw err;
      await new Promise((go) => setTimeout(go, tried === 1 ? 1000 : 3000));
    }
  }
}

/** The file at `url` (under base) as bytes or as text; throws, in words, when it is not there.
 * @overload @param {string} url @param {"bytes"} as @returns {Promise<Uint8Array>} */
/** @overload @param {string} url @param {"text"} as @returns {Promise<string>} */
/** @param {string} url @param {"bytes" | "text"} as @returns {Promise<Uint8Array | string>} */
async function fetchOk(url, as) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.slice(base.length)} answered ${response.status}`);
  return as === "bytes" ? new Uint8Array(await response.arrayBuffer()) : response.text();
}

/** loadPyodide, settled at once when the wasm cannot be had (Pyodide would
 * wait for ever): then with a RuntimeFileError that says why. `onInstance`
 * sees the wasm's instance first (see restoreOptions).
 * @param {typeof import("./pyodide.mjs").loadPyodide} loadPyodide
 * @param {import("./pyodide.mjs").PyodideConfig} options
 * @param {(instance: WebAssembly.Instance) => void} [onInstance]
 * @returns {Promise<PyodideAPI>} */
async function load(loadPyodide, options, onInstance = undefined) {
  const watch = watchWasm({ onInstance, onStage: stamp });
  try {
    return await Promise.race([loadPyodide(options), watch.failed]);
  } finally {
    watch.stop();
  }
}

async function bootFromSnapshot() {
  progress("Loading the calculator…");
  const [{ loadPyodide, version }, { EMPTY_ZIP }] = await Promise.all([pyodideModule, lateStdlib]);
  if (!usable(version)) throw new Error(`Pyodide ${version} is not the version the snapshot code was checked against`);
  // The runtime starts as soon as the snapshot's header is in, while the
  // rest downloads (see restoreOptions).
  const restore = restoreOptions(early, stamp);
  const pyodide = await load(loadPyodide, {
    indexURL: base,
    lockFileURL: base + "pyodide-lock.json",
    stdLibURL: EMPTY_ZIP, // the real one comes after, see late-stdlib.mjs
    ...restore.options,
  }, restore.onInstance).catch((err) => { throw err instanceof RuntimeFileError ? err : restore.failure() || err; });
  stamp("pyodideLoaded");
  // A snapshot restores the random state it was made with: reseed.
  pyodide.runPython("import random; random.seed()");
  // Downloaded after the first result (or STDLIB_AFTER_MS), not before: the
  // result does not need it, and on a slow link it would share the line.
  const { installStdlib } = await lateStdlib;
  startStdlib = () => {
    if (!stdlibInstalled) {
      const started = stdlibBytes().then((bytes) => installStdlib(pyodide, bytes));
      stdlibInstalled = started;
      started.catch((err) => {
        console.warn("the standard library did not arrive:", err);
        if (stdlibInstalled === started) stdlibInstalled = null; // the next calculation that needs it asks again
      });
    }
    return stdlibInstalled;
  };
  setTimeout(startStdlib, STDLIB_AFTER_MS);
  return pyodide;
}

async function bootFresh() {
  progress("Loading the calculator (this can take a while)…");
  const { loadPyodide } = await pyodideModule;
  const pyodide = await load(loadPyodide, { indexURL: base, lockFileURL: base + "pyodide-lock.json", ...interpreterOptions() });
  progress("Almost ready: loading the rules…");
  /** @type {string[]} */
  const failures = [];
  await pyodide.loadPackage(["calculators"], { checkIntegrity: true, messageCallback: () => {}, errorCallback: (e) => failures.push(e) });
  if (failures.length) throw new Error("a package did not load: " + failures.join("; "));
  pyodide.runPython(await fetchOk(base + "warm-up.py", "text"));
  return pyodide;
}

/** @param {boolean} useSnapshot */
async function boot(useSnapshot) {
  const start = performance.now();
  fetchWasmEarly(base + "pyodide.asm.wasm"); // both ways of starting need it; Pyodide asks for it later
  /** @type {PyodideAPI | null} */
  let pyodide = null;
  /** @type {"snapshot" | "boot"} */
  let how = "boot";
  if (useSnapshot) {
    try {
      pyodide = await bootFromSnapshot();
      how = "snapshot";
      restoredFromSnapshot = true;
    } catch (err) {
      if (snapshotKept) await forgetKeptSnapshot(); // the next visit unpacks the download again
      if (err instanceof RuntimeFileError) throw err; // a normal boot needs the same file
      progress("Loading the calculator another way (this can take a while)…");
      console.warn("snapshot restore failed, booting normally:", err);
    }
  }
  if (!pyodide) {
    pyodide = await bootFresh();
    stdlibInstalled = Promise.resolve(); // loadPyodide installed it
  }
  stamp("restored");
  compute = pyodide.globals.get("compute");
  if (!compute) throw new Error("the calculators did not load");
  // Times since the page's own time origin, for the benchmarks.
  const since = performance.timeOrigin - pageOrigin;
  const entries = /** @type {PerformanceResourceTiming[]} */ (performance.getEntriesByType("resource"));
  // its network times, read after the fact: of the .zst the adapter fetches instead, or of the file itself
  const wasm = entries.find((entry) => /\/pyodide\.asm\.wasm(\.zst)?$/.test(entry.name));
  if (wasm && wasm.responseEnd > 0) {
    Object.assign(stamps, { wasmRequested: wasm.startTime, wasmResponse: wasm.responseStart, wasmFetched: wasm.responseEnd });
  }
  // snapshotFetched: null if a normal boot was ready before the snapshot came (or it failed).
  postMessage(/** @satisfies {Posted} */ ({ type: "ready", how, bootStarted: since + start,
    snapshotFetched: snapshotFetched === undefined ? null : since + snapshotFetched, readyAt: since + performance.now(),
    stamps: inPageClock(stamps) }));
}

/** `times`, from this worker's clock into the page's.
 * @param {Stamps} times @returns {Stamps} */
function inPageClock(times) {
  const since = performance.timeOrigin - pageOrigin;
  return Object.fromEntries(Object.entries(times).filter(([, at]) => typeof at === "number").map(([name, at]) => [name, since + at]));
}

let firstResult = true; // its stamps go with it (make bench's timeline)

/** Boots as the address this worker was made with asks (#boot=snapshot or
 * fresh, &origin=the page's performance.timeOrigin), as soon as its script
 * runs. Not on a message from the page: a message posted to a worker that is
 * still starting is handed over only once the page's main thread is free, and
 * on a calculator page that is after its first layout (make bench: the boot
 * began at 165 ms, against 70 ms for the same worker on a blank page). Without
 * #boot it waits for nothing and computes nothing. */
function startAsAsked() {
  const asked = new URLSearchParams(location.hash.slice(1));
  const how = asked.get("boot");
  if (how !== "snapshot" && how !== "fresh") return;
  const origin = Number(asked.get("origin"));
  pageOrigin = Number.isFinite(origin) && origin > 0 ? origin : performance.timeOrigin; // read for the bench's stamps only
  boot(how === "snapshot").catch((err) => {
    postMessage(/** @satisfies {Posted} */ ({ type: "failed", error: err instanceof Error ? err.message : String(err) }));
  });
}

/** Keeps the snapshot this worker restored from, unpacked, for the next
 * visit: once, where it came from the download and the restore worked. */
async function keepForNextVisit() {
  if (!restoredFromSnapshot || snapshotKept || keeping) return;
  keeping = true;
  try {
    await keepSnapshot(await early.layout, await early.bytes);
  } catch (err) {
    console.warn("the snapshot was not kept unpacked:", err); // the next visit unpacks the download, as this one did
  }
}

/** @param {MessageEvent<Incoming>} event */
onmessage = async ({ data }) => {
  if (data.type === "keep-snapshot") {
    keepForNextVisit();
  } else if (data.type === "compute") {
    const started = performance.now();
    /** @type {unknown} */
    let result;
    try {
      result = run(data);
    } catch (err) {
      // Before the standard library is in place (see late-stdlib.mjs) a
      // module the snapshot lacks cannot load: wait for it and try again.
      try {
        postMessage(/** @satisfies {Posted} */ ({ type: "waiting", id: data.id }));
        await startStdlib();
        result = run(data);
      } catch (again) {
        result = { ok: false, error: "The calculator hit a problem it could not explain. Please report it.", field: null, stopped: true };
        console.error(err, again);
      }
    }
    if (firstResult) {
      firstResult = false;
      postMessage(/** @satisfies {Posted} */ ({ type: "result", id: data.id, result,
        stamps: inPageClock({ computeStarted: started, computeDone: performance.now() }) }));
    } else {
      postMessage(/** @satisfies {Posted} */ ({ type: "result", id: data.id, result }));
    }
    setTimeout(startStdlib, STDLIB_AFTER_RESULT_MS);
  }
};

/** Python's answer to a request: its JSON, not checked here (the page's Answer).
 * @param {Compute} request @returns {unknown} */
function run({ id, name, params, seed }) {
  postMessage(/** @satisfies {Posted} */ ({ type: "busy", id })); // the page stops a calculation that runs too long
  // undefined, not null: Pyodide turns JS null into its own jsnull, not None.
  // A tracker's state goes beside the parameters, as the text it is: not
  // written into their JSON and read out again at each step (web.compute).
  const { state, ...rest } = params ?? {};
  // compute is set before "ready", and the page asks only after it.
  if (typeof state === "string") return JSON.parse(/** @type {PyCompute} */ (compute)(name, JSON.stringify(rest), seed ?? undefined, state));
  return JSON.parse(/** @type {PyCompute} */ (compute)(name, JSON.stringify(params), seed ?? undefined));
}

startAsAsked();
