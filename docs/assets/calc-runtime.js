// The calculators' runtime in the page: one Web Worker that runs the Python
// calculators on Pyodide (runtime/calc-worker.mjs in the versioned runtime
// folder). The only module that starts it.
//
// On a page with a calculator, overrides/main.html creates the worker as its
// <head> is read and loads this module (async, before the stylesheets are
// in), which takes that worker over (it boots as its address says, see
// startAsAsked in calc-worker.mjs), from <meta
// name="calculator-runtime">: restoring Python takes longer than loading the
// page. calc-form.js imports the same module (the same URL,
// so the same instance) for its forms, and starts the worker itself on a
// page reached by Material's instant navigation. The worker is kept across
// those page switches.
//
// A worker that says nothing at all (no first message, not even an error)
// within START_QUIET_MS of being created is stopped and a new one started,
// up to START_TRIES in all, with the page still saying it is loading: Firefox
// now and then leaves a new worker stalled before its script runs (about 3
// cold loads in 100 with Material's search worker starting beside it). The
// last one is given the whole start limit.
//
// Every calculation has a time limit: past it the worker is stopped and a
// new one started (from the snapshot again), the form that asked is told in
// words, and every other request goes to the new worker. If the worker
// cannot start, every form says why, the rules stay readable, and the
// service worker is asked to drop its copy of the runtime (rulebook/site/offline-sw.js),
// so the next visit fetches it afresh.

/** One line of an answer's odds (runner.Odd): an exact probability and its percentage.
 * @typedef {{label: string, numerator: number, denominator: number, percent: number}} Odd */
/** What every answer that worked says (runner._answer: what the Report says); the refusal's
 * fields are absent, so that `stopped` or `error` may be read before `ok` is.
 * @typedef {{ok: true, outcome: string, headline: string, details: string[], rules: string[], odds_title: string,
 *   odds: Odd[], dice: Record<string, string>, seed: number | null, error?: undefined, field?: undefined,
 *   stopped?: undefined}} Worked */
/** A calculator's answer that worked (runner.run()): `highlight`, the odds' line that came true;
 * `upgraded`, the current fields an old link's parameters filled.
 * @typedef {Worked & {highlight: string | null, calculator: string, upgraded: Record<string, string>}} Calculated */
/** A tracker's step that worked (runner.track_json()): the tracker's name and its new state, as Python checked
 * it; `version`, what the worker holds that state as (tracker-stream.js).
 * @template [S=unknown]
 * @typedef {Worked & {tracker: string, state: S, version?: string}} Tracked */
/** A tracker's step from the state the worker holds (runner.track_json() with a version): what it changed
 * (tracker-stream.js Change), from version `base` to `version`.
 * @typedef {Worked & {tracker: string, version: string, base: string, changes: import("./tracker-stream.js").Change[]}} Streamed */
/** No answer about the input: the error sentence and the field at fault (null: none); `stopped`, it
 * was not worked out (the calculator did not start, or was stopped), so a page must conclude nothing from it;
 * `stale`, a tracker's step named a version the worker does not hold (nothing was done: send the state whole).
 * @typedef {{ok: false, error: string, field: string | null, stopped?: boolean, stale?: boolean}} Refusal */
/** Whatever the worker answers a request with.
 * @typedef {Calculated | Tracked | Streamed | Refusal} Answer */
/** A request for the worker, and its promise's ends.
 * @typedef {{type: string, id: number, name: string, params: Record<string, string>, seed: string | null | undefined}} Compute
 * @typedef {{message: Compute, resolve: (answer: Answer) => void, reject: (err: Error) => void}} Request */
/** What the worker posts (runtime/calc-worker.mjs): its start's progress, ready (with when each step of
 * the start happened, in this page's clock: `stamps`, its Stamps) or failed; a request Python runs now
 * (`busy`, timed), one that waits for the standard library, and a result (the first with when Python
 * started and finished it).
 * @typedef {{type: "progress", text: string}
 *   | {type: "ready", how: string, bootStarted: number, snapshotFetched: number | null, readyAt: number,
 *      stamps?: Record<string, number>}
 *   | {type: "failed", error: string}
 *   | {type: "busy" | "waiting", id: number}
 *   | {type: "result", id: number, result: Answer, stamps?: Record<string, number>}} WorkerMessage */
/** The worker the page's head created (overrides/main.html), until this module takes it over.
 * @typedef {typeof globalThis & {__calcEarlyWorker?: {worker: Worker, url: string, heard: Event[], created: number}}} EarlyWorker */
/** The time limits the tests may set before this module loads (ms).
 * @typedef {typeof globalThis & {__calcBootTimeoutMs?: number, __calcTimeoutMs?: number, __calcStartQuietMs?: number}} TestLimits */

const BOOT_TIMEOUT_MS = /** @type {TestLimits} */ (globalThis).__calcBootTimeoutMs ?? 60000;
// A worker's first message (calc-worker.mjs posts its progress as its script runs) comes within 0.5 s of its
// creation on a cold load (make bench); one silent this long is replaced.
const START_QUIET_MS = /** @type {TestLimits} */ (globalThis).__calcStartQuietMs ?? 4000;
const START_TRIES = 3; // workers made for one start at most: the first, and two that replace a silent one
const CALC_TIMEOUT_MS = /** @type {TestLimits} */ (globalThis).__calcTimeoutMs ?? 10000;
export const READY = "Ready: type what you rolled, or press Roll for me.";
const READY_NO_DICE = "Ready: the answer shows here as you fill in the form.";
const LOADING = "Loading the calculator…";
const RESTARTING = "A calculation took too long and was stopped: starting the calculator again…";
/** @param {number} ms */
const seconds = (ms) => `${Math.max(1, Math.round(ms / 1000))} second${Math.round(ms / 1000) === 1 ? "" : "s"}`;
/** @param {string} why */
const failure = (why) => `The calculator could not start (${why}). The rules and tables on this page still apply: roll and read the table by hand.`;
// `stopped`: no answer about the input (it was not worked out); a page must conclude nothing from it.
/** @type {() => Refusal} */
const tooLong = () => ({
  ok: false,
  field: null,
  stopped: true,
  error: `This took longer than ${seconds(CALC_TIMEOUT_MS)} to work out, so it was stopped. Try smaller numbers or a shorter list.`,
});

/** The runtime's state; exposed read-only in spirit as globalThis.__calcRuntime
 * for the tests and the benchmarks.
 * @type {{url: string | null, worker: Worker | null, ready: Promise<Worker> | null,
 *   pending: Map<number, Request>, nextId: number,
 *   busy: {id: number, timer: ReturnType<typeof setTimeout>} | null, how: string | null, status: string, text: string,
 *   error: string | null, restarts: number, silentReplaced: number, created: number | null,
 *   timings: Record<string, number | null> | null, settledAt: number | null}} */
export const runtime = {
  url: null, // the runtime folder, relative to the page that started it
  worker: null,
  ready: null, // a promise of the worker, once it can compute
  pending: new Map(), // id -> {message, resolve, reject}
  nextId: 1,
  busy: null, // {id, timer}: the request Python is running now
  how: null, // "snapshot" | "boot"
  status: "idle", // "loading" | "ready" | "restarting" | "failed"
  text: "", // what the forms say about it
  error: null,
  restarts: 0,
  silentReplaced: 0, // workers stopped for saying nothing after they were created (START_QUIET_MS)
  created: null,
  timings: null,
  settledAt: null, // when the first result came, or the start failed (see settle)
};

/** The hashes of a window that only shows what another tab or device sends: the encounter's players'
 * view (#players, encounter-players.js), a player's phone (#phone, and #join=<offer> as it opens) and the
 * GM's camera app handing a phone's answer to the tracker (#answer=<code>) and the players' view as a link
 * (#view=<view>, encounter-join.js). Such a
 * window never computes, so it never starts Python. */
export const SHOW_ONLY = /^#(players|phone|join=|answer=|view=)/;
/** The players' view on the same device. */
export const SHOW_ONLY_HASH = "#players";

/** Start the worker unless it runs (or this window only shows); `runtimeUrl` is relative to this page.
 * @param {string} runtimeUrl @returns {Promise<Worker> | null} */
export function startRuntime(runtimeUrl) {
  if (SHOW_ONLY.test(location.hash)) return null;
  if (runtime.ready) return runtime.ready;
  runtime.url = new URL(runtimeUrl, location.href).href;
  runtime.created = performance.now();
  return spawn();
}

/** Registry.run()'s answer for one calculation, as a promise. Rejects only
 * when the worker cannot start.
 * @overload
 * @param {`track:${string}`} name a tracker's step (tracker-stream.js): its state's and action's JSON texts, or
 *   its action's and the version of the state the worker holds (then answered with what changed)
 * @param {{state: string, action: string} | {version: string, action: string}} params
 * @param {string | null} [seed]
 * @returns {Promise<Tracked | Streamed | Refusal>}
 */
/**
 * @overload
 * @param {string} name a calculator, with its form's fields
 * @param {Record<string, string>} params
 * @param {string | null} [seed]
 * @returns {Promise<Calculated | Refusal>}
 */
/** @param {string} name @param {Record<string, string>} params @param {string | null} [seed] @returns {Promise<Answer>} */
export function computeInWorker(name, params, seed) {
  if (!runtime.ready) return Promise.reject(new Error("the calculator was not started"));
  return new Promise((resolve, reject) => {
    const id = runtime.nextId++;
    const request = { message: { type: "compute", id, name, params, seed }, resolve, reject };
    runtime.pending.set(id, request);
    dispatch(request);
  });
}

/** Put the runtime's state in every form's status line on this page. */
export function showRuntimeStatus() {
  const failed = runtime.status === "failed";
  for (const status of document.querySelectorAll("form[data-calculator] .calc-status")) {
    const rolls = status.closest("form")?.querySelector("[data-action=roll]");
    status.textContent = runtime.text === READY && !rolls ? READY_NO_DICE : runtime.text;
    status.classList.toggle("calc-failed", failed);
    status.toggleAttribute("hidden", !runtime.text);
  }
}

// ---------------------------------------------------------------- the worker

/** @param {string} status @param {string} text */
function setStatus(status, text) {
  runtime.status = status;
  runtime.text = text;
  showRuntimeStatus();
}

/** The worker overrides/main.html's head created and booted as the page was read, taken over by the first
 * start (the only one that finds it) if it is this runtime's, else stopped and a new one made. The events it
 * heard so far.
 * @returns {{worker: Worker, heard: Event[]} | null} */
function earlyWorker() {
  const held = /** @type {EarlyWorker} */ (globalThis).__calcEarlyWorker;
  delete (/** @type {EarlyWorker} */ (globalThis)).__calcEarlyWorker;
  if (!held) return null;
  if (held.url !== new URL("calc-worker.mjs", /** @type {string} */ (runtime.url)).href) {
    held.worker.terminate();
    return null;
  }
  runtime.created = held.created;
  return held;
}

function spawn() {
  setStatus(runtime.restarts ? "restarting" : "loading", runtime.restarts ? RESTARTING : LOADING);
  const early = earlyWorker();
  // Told how to boot in its address (see startAsAsked in calc-worker.mjs), as the head's early worker is.
  const make = () => new Worker(new URL("calc-worker.mjs", /** @type {string} */ (runtime.url)).href + "#" + new URLSearchParams({ boot: new URLSearchParams(location.search).has("no-snapshot") ? "fresh" : "snapshot", origin: String(performance.timeOrigin) }), { type: "module" });
  /** @type {Worker} */
  let worker = early?.worker ?? make();
  runtime.worker = worker;
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      worker.terminate();
      reject(new Error(`it did not start within ${seconds(BOOT_TIMEOUT_MS)}`));
    }, BOOT_TIMEOUT_MS);
    let quiet = /** @type {ReturnType<typeof setTimeout> | undefined} */ (undefined);
    /** @template T @param {(value: T) => void} how @returns {(value: T) => void} */
    const settle = (how) => (value) => {
      clearTimeout(timer);
      clearTimeout(quiet);
      how(value);
    };
    /** @param {Worker} listened */
    const listen = (listened) => {
      listened.onerror = (event) => {
        event.preventDefault();
        clearTimeout(quiet);
        if (listened === runtime.worker) settle(reject)(new Error(event.message || "its files could not be loaded"));
      };
      listened.onmessage = ({ data }) => {
        clearTimeout(quiet);
        receive(listened, data, settle(resolve), settle(reject));
      };
    };
    /** A new worker's silence: past START_QUIET_MS since `since`, it is replaced (START_TRIES in all).
     * @param {number} since @param {number} tries */
    const watch = (since, tries) => {
      if (tries >= START_TRIES) return; // the last one has the start's whole limit
      quiet = setTimeout(() => {
        worker.terminate();
        runtime.silentReplaced += 1;
        worker = make();
        runtime.worker = worker;
        listen(worker);
        watch(performance.now(), tries + 1);
      }, Math.max(0, since + START_QUIET_MS - performance.now()));
    };
    listen(worker);
    watch(early ? (runtime.created ?? performance.now()) : performance.now(), 1); // the early one's time runs from its creation
    // What the early worker heard before it was taken over, in order, before anything it says next.
    for (const event of early?.heard ?? []) {
      if (event instanceof MessageEvent) worker.onmessage?.(event);
      else worker.onerror?.(/** @type {ErrorEvent} */ (event));
    }
  });
  runtime.ready = ready;
  ready.then(
    () => {
      setStatus("ready", READY);
      if (!runtime.pending.size) settle(); // no result asked for: nothing to wait for
    },
    (/** @type {Error} */ err) => {
      settle();
      worker.terminate();
      runtime.error = err.message;
      setStatus("failed", failure(err.message));
      forgetCachedRuntime();
    },
  );
  return ready;
}

/** @param {Worker} worker @param {WorkerMessage} data @param {(worker: Worker) => void} ready @param {(err: Error) => void} failed */
function receive(worker, data, ready, failed) {
  if (worker !== runtime.worker) return; // one that was stopped
  if (data.type === "progress") {
    setStatus(runtime.status, data.text);
  } else if (data.type === "ready") {
    runtime.how = data.how;
    // When each step of the start happened, in this page's clock (make bench prints them as a
    // timeline): the worker's, then this page's own (readySeen here, computeSent in dispatch, the
    // first result's below), each one performance.now() and nothing more.
    runtime.timings = { created: runtime.created, ...data.stamps, bootStarted: data.bootStarted, snapshotFetched: data.snapshotFetched,
      readyAt: data.readyAt, readySeen: performance.now() };
    ready(worker);
  } else if (data.type === "failed") {
    failed(new Error(data.error));
  } else if (data.type === "busy") {
    clearTimeout(runtime.busy?.timer);
    runtime.busy = { id: data.id, timer: setTimeout(() => stopTooLong(worker, data.id), CALC_TIMEOUT_MS) };
  } else if (data.type === "waiting" || data.type === "result") {
    const busy = runtime.busy;
    if (busy && busy.id === data.id) {
      clearTimeout(busy.timer);
      runtime.busy = null;
    }
    if (data.type === "result") {
      const timings = runtime.timings;
      if (data.stamps && timings) {
        Object.assign(timings, data.stamps, { resultReceived: performance.now() });
        // The form draws the result as the request resolves, below: the frame after it is painted by then.
        requestAnimationFrame(() => setTimeout(() => { timings.painted = performance.now(); }));
      }
      settle();
      const request = runtime.pending.get(data.id);
      runtime.pending.delete(data.id);
      request?.resolve(data.result);
    }
  }
}

/** Send a request to the current worker once it is ready (again).
 * @param {Request} request */
function dispatch(request) {
  const { ready } = runtime;
  const { id } = request.message;
  if (!ready) return request.reject(new Error("the calculator was not started"));
  // To the worker that became ready (a silent one may have been replaced since), unless a new start began since.
  ready.then(
    (worker) => {
      if (runtime.ready !== ready || !runtime.pending.has(id)) return;
      if (runtime.timings) runtime.timings.computeSent ??= performance.now(); // the first request (make bench)
      worker.postMessage(request.message);
    },
    (err) => {
      if (runtime.ready === ready && runtime.pending.delete(id)) request.reject(err);
    },
  );
}

/** The calculation `id` ran past the limit: answer it so, stop the worker,
 * start a new one, and send it every other request.
 * @param {Worker} worker @param {number} id */
function stopTooLong(worker, id) {
  if (worker !== runtime.worker) return;
  worker.terminate();
  runtime.busy = null;
  const request = runtime.pending.get(id);
  runtime.pending.delete(id);
  request?.resolve(tooLong());
  runtime.restarts += 1;
  spawn();
  for (const other of runtime.pending.values()) dispatch(other);
}

/** The first result is in (or none was asked for, or the start failed):
 * from now on the page may fetch what that result does not need. offline.js
 * waits for this event before it registers the service worker, whose
 * precache would otherwise share a phone's link with the runtime. */
function settle() {
  if (runtime.settledAt !== null) return;
  runtime.settledAt = performance.now();
  dispatchEvent(new Event("calc-runtime-settled"));
}

/** A runtime that did not start may be a damaged copy in the service
 * worker's cache: have it dropped, so the next visit fetches it afresh. */
function forgetCachedRuntime() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.getRegistration().then((registration) => {
    const sw = navigator.serviceWorker.controller || registration?.active;
    sw?.postMessage({ type: "drop-runtime", runtime: runtime.url });
  }).catch(() => {});
}

// ---------------------------------------------------------------- start early

const early = document.querySelector('meta[name="calculator-runtime"]');
if (early) startRuntime(/** @type {string} */ (early.getAttribute("content")));

globalThis.__calcRuntime = runtime;
