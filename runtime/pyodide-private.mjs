// Every use of Pyodide that its documentation does not promise, in one place.
//
// The site leans on a few private or undocumented parts of Pyodide: the
// memory snapshot (`_makeSnapshot`, `makeMemorySnapshot`, `_loadSnapshot`),
// the order in which `loadPyodide` instantiates the wasm, runs
// `fsInit` and only then reads the snapshot's contents (from the offset its
// header gives, into memory at address 0) without growing the memory the wasm
// declares to the snapshot's size (growTo does), the Emscripten
// module's allocator exports (`_module._emscripten_builtin_malloc`, `_free`,
// `_sbrk`, `_malloc_trim`, `HEAPU8`), and the way Pyodide fetches and
// compiles pyodide.asm.wasm (one `WebAssembly.instantiateStreaming` whose
// failure it only logs, leaving `loadPyodide` pending for ever;
// `WebAssembly.instantiate` under Node; the instance exports its memory and
// `Py_Version`, and nothing runs in it before Pyodide gets it, so its memory
// is then the wasm's data). Each was read in Pyodide's source at the version
// below and nowhere else.
//
// Upgrading Pyodide: read the new version's src/js/pyodide.ts,
// emscripten-settings.ts and compat.ts for each of the uses above, then
// change CHECKED_AGAINST. Until then the build refuses to run
// (runtime/build.py and make-snapshot.mjs call checkVersion), and a browser
// that somehow gets another version boots without the snapshot. The
// TypeScript is in the npm package's pyodide.mjs.map (sourcesContent); the
// snapshot code (API.makeSnapshot, API.restoreSnapshot, makeMemorySnapshot)
// and the allocator exports are compiled into pyodide.asm.mjs: read there.
//
// 314.0.8 against 0.29.5: pyodide.asm.js became the ES module
// pyodide.asm.mjs, loaded with import() (runtime/build.py copies it); the
// stages of loadPyodide are unchanged (load the wasm script, await
// _loadSnapshot and set INITIAL_MEMORY from its length, create the module,
// whose preRun runs fsInit, then restoreSnapshot reads the bytes); the wasm
// is still fetched once when the settings are made and compiled by one
// WebAssembly.instantiateStreaming whose failure is only logged; the
// snapshot's format and BUILD_ID check, makeMemorySnapshot, and the exports
// _emscripten_builtin_malloc, _free, _sbrk, _malloc_trim and HEAPU8 are as
// they were.

import { copyInitialMemory } from "./sparse-snapshot.mjs";

/** @typedef {import("./sparse-snapshot.mjs").Layout} Layout */
/** @typedef {import("./pyodide.mjs").PyodideConfig} PyodideConfig */
/**
 * The allocator exports of Pyodide's Emscripten module (`pyodide._module`),
 * in no .d.ts: just what zeroFreeMemory uses. Pointers are numbers (wasm32).
 * @typedef {{
 *   _emscripten_builtin_malloc: (size: number) => number,
 *   _free: (pointer: number) => void,
 *   _sbrk: (increment: number) => number,
 *   _malloc_trim: (pad: number) => number,
 *   HEAPU8: Uint8Array,
 * }} AllocatorModule
 */
/**
 * The snapshot as restoreOptions takes it, while it arrives: promises of the
 * file's layout (from its header) and of the unpacked bytes.
 * @typedef {{ layout: PromiseLike<Layout>, bytes: PromiseLike<Uint8Array> }} ArrivingSnapshot
 */
/**
 * What restoreOptions gives: loadPyodide options, the hook for watchWasm's
 * `onInstance`, and the reason a failed restore failed (anything thrown).
 * @typedef {{
 *   options: Pick<PyodideConfig, "_loadSnapshot" | "fsInit">,
 *   onInstance: (instance: WebAssembly.Instance) => void,
 *   failure: () => unknown,
 * }} Restore
 */

export const CHECKED_AGAINST = "314.0.8";

/** Throws unless `version` (pyodide.mjs's `version`) is the one checked.
 * @param {string} version */
export function checkVersion(version) {
  if (version !== CHECKED_AGAINST) {
    throw new Error(
      `Pyodide ${version} is installed, but runtime/pyodide-private.mjs was checked against ${CHECKED_AGAINST}: ` +
        "check each private use listed there in the new version's source, then update CHECKED_AGAINST.",
    );
  }
}

/** Whether the private parts may be used with this version (the browser asks).
 * @param {string} version @returns {boolean} */
export function usable(version) {
  return version === CHECKED_AGAINST;
}

// ---------------------------------------------------------------- build time (Node)

/** Python's command line, the same where the snapshot is made and where a
 * page boots without one (not private: here because the snapshot maker, the
 * worker and the tests all import this module). Both ways of starting run
 * the same code, and the snapshot is smaller:
 * - -OO compiles every module without its docstrings (and asserts, which
 *   guard only cases that cannot happen): 0.29 MB less packed (4.02 to 3.73 MB);
 * - -X no_debug_ranges keeps each instruction's line but not its columns
 *   (a traceback's ^^^ marks, which no reader sees): 0.36 MB less packed
 *   (3.80 to 3.44 MB; leaving the command line out of the warm-up then
 *   took it to 3.36 MB). */
export const PYTHON_ARGS = Object.freeze(["-OO", "-X", "no_debug_ranges"]);

/** loadPyodide options every interpreter of the site starts with.
 * @returns {Pick<PyodideConfig, "args">} */
export function interpreterOptions() {
  return { args: [...PYTHON_ARGS] };
}

/** loadPyodide options for an interpreter whose memory can be saved.
 * @returns {Pick<PyodideConfig, "_makeSnapshot" | "args">} */
export function snapshotMakingOptions() {
  return { _makeSnapshot: true, ...interpreterOptions() };
}

/** The interpreter's whole memory, to restore with restoreOptions().
 * @param {import("./pyodide.mjs").PyodideAPI} pyodide @returns {Uint8Array} */
export function makeSnapshot(pyodide) {
  return pyodide.makeMemorySnapshot();
}

/**
 * Memory the allocator holds free still has whatever the warm-up left there,
 * and that garbage costs half a megabyte of the compressed snapshot. Borrow
 * every free block from the allocator, zero it, and give it back: the heap's
 * bookkeeping is untouched (only memory this function owns is written) and
 * the memory, so the snapshot, does not grow. Only blocks below the heap's
 * top as it was (sbrk) are kept: above it lies memory never used, zeros
 * already. A block that reaches past it is returned at once; the heap's top
 * then stays raised (Emscripten's malloc does not give memory back to sbrk)
 * but by no more than one block, and a size is only tried while the memory
 * has room for that (314.0.8 leaves 1.7 MB: 0.29.5's way, which took the
 * next size from the heap just extended, climbed past the end and grew it).
 * @param {{ _module: AllocatorModule }} pyodide Pyodide's API object; only its private `_module` is used
 */
export function zeroFreeMemory(pyodide) {
  const module = pyodide._module;
  const malloc = module._emscripten_builtin_malloc;
  const { _free: free, _sbrk: sbrk, _malloc_trim: trim } = module;
  if (![malloc, free, sbrk, trim].every((f) => typeof f === "function")) {
    throw new Error("this Pyodide build does not export the allocator functions zeroFreeMemory needs");
  }
  const memory = module.HEAPU8.length;
  const top = sbrk(0);
  const margin = 64 * 1024; // more than malloc adds to a request when it extends the heap
  /** @type {number[]} */
  const borrowed = [];
  for (let size = 1 << 20; size >= 16; size >>= 1) {
    while (memory - sbrk(0) >= size + margin) {
      const block = malloc(size);
      if (!block) break;
      if (block + size > top) {
        free(block);
        break;
      }
      module.HEAPU8.fill(0, block, block + size);
      borrowed.push(block);
    }
  }
  borrowed.forEach(free);
  trim(0);
  if (module.HEAPU8.length !== memory) throw new Error("zeroFreeMemory grew the memory");
}

// ---------------------------------------------------------------- restoring

/**
 * loadPyodide options that restore a snapshot while it is still arriving,
 * and `onInstance`, for watchWasm: it takes the pages the file leaves out as
 * equal to pyodide.asm.wasm's initial memory (see sparse-snapshot.mjs) from
 * that memory the moment the wasm is instantiated, before Pyodide has run
 * any of it (the wasm has no start function: runtime/build.py checks).
 * Pyodide sizes its memory from the snapshot's length, instantiates the
 * wasm, and reads the contents only when it restores them, after its
 * `fsInit` hook: so the runtime starts as soon as `layout` (a promise of the
 * file's layout, from its header) resolves, and `bytes` (a promise of the
 * unpacked snapshot) is copied in from `fsInit`. If either fails, or the
 * initial memory does not match the snapshot's digest of it, the restore
 * fails on a snapshot without Pyodide's header: `failure()` then gives the
 * reason to report instead. `onStage` hears when the initial memory is
 * copied and checked ("initialCopied", in onInstance), when Pyodide calls `fsInit`
 * ("moduleReady": the wasm instantiated and Emscripten's module set up) and
 * when `fsInit` has copied the bytes in ("snapshotCopied": Pyodide's own
 * restore starts then), for make bench's timeline.
 * @param {ArrivingSnapshot} snapshot
 * @param {(stage: "initialCopied" | "moduleReady" | "snapshotCopied") => void} [onStage]
 * @returns {Restore}
 */
export function restoreOptions({ layout, bytes }, onStage = (_stage) => {}) {
  /** @type {Uint8Array | null} */
  let full = null;
  /** @type {Layout | null} */
  let plan = null;
  /** @type {unknown} */
  let failed = null; // anything thrown
  let initialCopied = false;
  return {
    options: {
      _loadSnapshot: Promise.resolve(layout).then((known) => {
        plan = known;
        return (full = new Uint8Array(known.fullLength));
      }),
      fsInit: async () => {
        onStage("moduleReady");
        try {
          const data = await bytes;
          if (failed) return;
          // plan and full are set by _loadSnapshot, which Pyodide awaits before it calls fsInit.
          if (/** @type {Layout} */ (plan).initial.runs.length && !initialCopied) throw new Error("Pyodide's memory was not seen when pyodide.asm.wasm was instantiated");
          for (const [offset, length] of /** @type {Layout} */ (plan).runs) /** @type {Uint8Array} */ (full).set(data.subarray(offset, offset + length), offset);
          onStage("snapshotCopied");
        } catch (err) {
          failed = err;
        }
      },
    },
    /** @param {WebAssembly.Instance} instance */
    onInstance(instance) {
      if (!plan || !full || initialCopied || failed || !isPyodide(instance)) return;
      try {
        const memory = /** @type {WebAssembly.Memory} */ (instance.exports.memory);
        growTo(memory, plan.fullLength - plan.initial.offset);
        copyInitialMemory(full, plan.initial, new Uint8Array(memory.buffer));
        initialCopied = true;
        onStage("initialCopied");
      } catch (err) {
        failed = err;
      }
    },
    failure: () => failed,
  };
}

/** Grows `memory` to hold `bytes`. Pyodide 314 copies a snapshot into the
 * memory the wasm declares (480 pages, 30 MiB) whatever the snapshot's size:
 * it does not read the INITIAL_MEMORY it sets from the snapshot's length, so
 * a snapshot of a heap grown past 30 MiB fails with "RangeError: offset is out
 * of bounds" (https://github.com/pyodide/pyodide/issues/6254;
 * tests/test_snapshot_headroom.py). Grown here,
 * before Pyodide makes its views of the memory, the heap may grow as far as
 * the wasm's maximum.
 * @param {WebAssembly.Memory} memory @param {number} bytes */
function growTo(memory, bytes) {
  const short = bytes - memory.buffer.byteLength;
  if (short > 0) memory.grow(Math.ceil(short / 65536));
}

/** Pyodide's own instance, not another wasm loaded meanwhile (the
 * snapshot's Zstandard decoder is one): it exports its memory and CPython's
 * Py_Version, which Pyodide itself reads (pyodide.asm.mjs).
 * @param {WebAssembly.Instance} instance @returns {boolean} */
function isPyodide(instance) {
  const { memory, Py_Version: version } = instance.exports;
  return memory instanceof WebAssembly.Memory && version instanceof WebAssembly.Global;
}

// ---------------------------------------------------------------- the wasm

/** A runtime file that cannot be used: no other way of booting helps. */
export class RuntimeFileError extends Error {}

/**
 * Reports, as a rejected `failed` promise, a pyodide.asm.wasm that cannot be
 * downloaded, is not sent as application/wasm, or does not compile. Pyodide
 * itself only logs these and never settles loadPyodide. Watches the
 * WebAssembly.instantiateStreaming call Pyodide makes in a browser, passing
 * it through unchanged; `onInstance` hears each instance made meanwhile, by
 * that call or by WebAssembly.instantiate (Pyodide's way under Node), before
 * the caller gets it. `onStage` hears when this thread hands
 * pyodide.asm.wasm's response to the compiler ("wasmCompiling": its body
 * streams in from then on) and when it was compiled and instantiated
 * ("wasmCompiled"), for make bench's timeline. `stop()` puts the originals back.
 *
 * It also answers Pyodide's fetch of pyodide.asm.wasm (one `fetch` of
 * `indexURL + "pyodide.asm.wasm"`, made when loadPyodide builds its
 * settings) with pyodide.asm.wasm.zst decoded as it arrives (see
 * compressedWasm): the same bytes, 0.65 MB fewer on the line. That download
 * is compiled as it arrives, from when it was asked for (by fetchWasmEarly,
 * or by Pyodide), not from when Pyodide's instantiateStreaming hands it
 * over; Pyodide gets a stand-in response, and the call instantiates the
 * compiled module (wasmResponse).
 * @param {{ onInstance?: (instance: WebAssembly.Instance) => void,
 *   onStage?: (stage: "wasmCompiling" | "wasmCompiled") => void }} [options]
 * @returns {{ failed: Promise<never>, stop: () => void }}
 */
export function watchWasm({ onInstance = (_instance) => {}, onStage = (_stage) => {} } = {}) {
  const original = WebAssembly.instantiateStreaming;
  const instantiate = WebAssembly.instantiate;
  /** @type {(why: string) => void} */
  let fail;
  /** @type {Promise<never>} */
  const failed = new Promise((_, reject) => { fail = (why) => reject(new RuntimeFileError(why)); });
  failed.catch(() => {});
  /** @type {any} */ (WebAssembly).instantiate = async function (/** @type {any} */ source, /** @type {any} */ imports) {
    const result = await instantiate.call(WebAssembly, source, imports);
    onInstance(result instanceof WebAssembly.Instance ? result : /** @type {any} */ (result).instance);
    return result;
  };
  const name = "pyodide.asm.wasm";
  const plainFetch = globalThis.fetch;
  const putBack = () => { WebAssembly.instantiate = instantiate; globalThis.fetch = plainFetch; };
  if (typeof original !== "function") return { failed, stop: putBack };
  globalThis.fetch = function (input, init) {
    const url = input instanceof Request ? input.url : String(input);
    const address = new URL(url, self.location.href);
    if (!address.pathname.endsWith("/" + name)) return plainFetch.call(globalThis, input, init);
    const early = fetchedEarly.get(address.href);
    fetchedEarly.delete(address.href); // once: a second boot (after a failed restore) asks afresh
    return (early ?? wasmResponse(url, (/** @type {string} */ at) => plainFetch.call(globalThis, at, init))).then((response) => {
      if (compiling.has(response)) onStage("wasmCompiling");
      return response;
    });
  };
  WebAssembly.instantiateStreaming = async function (source, imports) {
    let response;
    try {
      response = await source;
    } catch (err) {
      fail(`${name} could not be downloaded: ${reason(err)}`);
      throw err;
    }
    const ours = String(response.url || "").endsWith(name); // not another wasm compiled meanwhile
    const module = compiling.get(response);
    if (module) {
      let compiled, instance;
      try {
        compiled = await module;
        instance = await instantiate.call(WebAssembly, compiled, imports);
      } catch (err) {
        fail(`${name} is damaged or cut short: ${reason(err)}`);
        throw err;
      }
      onStage("wasmCompiled");
      onInstance(instance);
      return { module: compiled, instance };
    }
    if (!response.ok) fail(`${name} answered ${response.status}${response.statusText ? " " + response.statusText : ""}`);
    const type = wasmType(response);
    if (response.ok && type !== "application/wasm") {
      fail(`the host sent ${name} as ${type || "a file of no type"}, not application/wasm`);
    }
    let result;
    if (ours) onStage("wasmCompiling");
    try {
      result = await original.call(WebAssembly, response, imports);
    } catch (err) {
      fail(`${name} is damaged or cut short: ${reason(err)}`);
      throw err;
    }
    if (ours) onStage("wasmCompiled");
    onInstance(result.instance);
    return result;
  };
  return { failed, stop() { WebAssembly.instantiateStreaming = original; putBack(); } };
}

/** The compile started as the response came (wasmResponse), by the stand-in Pyodide is given instead.
 * @type {WeakMap<Response, Promise<WebAssembly.Module>>} */
const compiling = new WeakMap();
/** pyodide.asm.wasm asked for before Pyodide asks (fetchWasmEarly), by its address.
 * @type {Map<string, Promise<Response>>} */
const fetchedEarly = new Map();

/**
 * Starts downloading and compiling pyodide.asm.wasm (at `url`) now, from the
 * worker's first lines: Pyodide asks for it only once its own scripts are in,
 * and hands it to the compiler only once they have run, and the worker's
 * thread, which unpacks it, is then busy with them (make bench: asked for at
 * 141 ms, handed to the compiler at 456, compiled at 670). watchWasm gives
 * Pyodide this download when it asks.
 * @param {string} url
 */
export function fetchWasmEarly(url) {
  const key = new URL(url, self.location.href).href;
  if (fetchedEarly.has(key)) return;
  // The browser's own fetch, taken now: watchWasm may have put its own in place by the time the plain file is
  // asked for (a host without the .zst), and that one would answer with this very download, not yet compiled.
  const browserFetch = globalThis.fetch;
  const response = wasmResponse(key, (/** @type {string} */ at) => browserFetch.call(globalThis, at));
  response.catch(() => {}); // said when Pyodide asks for it
  fetchedEarly.set(key, response);
}

/**
 * pyodide.asm.wasm's response for Pyodide: compiled from now on, as it
 * streams in (see compressedWasm), on the compiler's threads, and Pyodide
 * gets a stand-in that watchWasm's instantiateStreaming knows. A response the
 * checks there refuse (an error, another type) goes to Pyodide as it came.
 * @param {string} url @param {(url: string) => Promise<Response>} get @returns {Promise<Response>}
 */
async function wasmResponse(url, get) {
  const response = await compressedWasm(url, get);
  if (!response.ok || wasmType(response) !== "application/wasm" || typeof WebAssembly.compileStreaming !== "function") return response;
  const module = WebAssembly.compileStreaming(response);
  module.catch(() => {}); // said by instantiateStreaming, which Pyodide calls next
  const standIn = new Response(null, { status: 200, headers: { "Content-Type": "application/wasm" } });
  Object.defineProperty(standIn, "url", { value: response.url || url });
  compiling.set(standIn, module);
  return standIn;
}

/**
 * pyodide.asm.wasm as a Response Pyodide can compile as it streams in, from
 * `url + ".zst"` (runtime/build.py: 2.9 MB where gzip makes 3.5 MB) decoded
 * chunk by chunk as the chunks arrive. Where the host has no .zst (or
 * answers with an error), the plain file, as Pyodide would have fetched it.
 * A .zst that is damaged or cut short errors the stream: Pyodide's
 * instantiateStreaming then fails, and watchWasm says so.
 * @param {string} url @param {(url: string) => Promise<Response>} get @returns {Promise<Response>}
 */
async function compressedWasm(url, get) {
  const kept = await keptWasm(url);
  if (kept) return kept;
  const packed = await get(url + ".zst").catch(() => null);
  if (!packed || !packed.ok || !packed.body) return get(url);
  const { ZSTDDecoder } = await import("./zstddec.mjs"); // the npm package zstddec's streaming decoder
  const decoder = new ZSTDDecoder();
  await decoder.init();
  const reader = packed.body.getReader();
  /** @type {Uint8Array[]} */
  const arrived = [];
  let ended = false;
  let idle = 0; // steps in a row that took no chunk and gave no bytes
  // The decoder pulls the next chunk only once it has used up the last, and
  // never more than one per step: so each step is taken with a chunk waiting
  // (or the file ended), and it never finds the list empty before the end.
  const chunks = { [Symbol.iterator]: () => ({ next: () => {
    idle = 0;
    return arrived.length ? { value: /** @type {Uint8Array} */ (arrived.shift()), done: false } : { value: undefined, done: true };
  } }) };
  const decoded = decoder.decodeStreaming(/** @type {Iterable<Uint8Array>} */ (chunks));
  const body = new ReadableStream({
    async pull(controller) {
      for (;;) {
        if (!arrived.length && !ended) {
          const { value, done } = await reader.read();
          if (done) ended = true;
          else if (value.byteLength) arrived.push(value);
          continue;
        }
        const step = decoded.next();
        if (step.done) return controller.close();
        if (step.value.byteLength) {
          idle = 0;
          return controller.enqueue(step.value);
        }
        // zstddec does not check for errors: on bytes that are not Zstandard
        // it steps on the same input for ever, giving nothing.
        if (++idle > 64) throw new Error("pyodide.asm.wasm.zst is not Zstandard");
      }
    },
    cancel(why) { return reader.cancel(why); },
  });
  const response = new Response(body, { status: 200, headers: { "Content-Type": "application/wasm" } });
  Object.defineProperty(response, "url", { value: url }); // a made Response has none: watchWasm tells Pyodide's by it
  return response;
}

/**
 * pyodide.asm.wasm itself from Cache Storage, where the site's service
 * worker keeps it once a calculator has been used (rulebook/site/offline-sw.js,
 * keepCompiled): compiled from there, a repeat visit does not unpack the
 * .zst. (Chromium 150 compiles it again each time: no V8 code cache was seen
 * written for it, benchmarks/code_cache.py.) Undefined without it (a first
 * visit, no service worker, no Cache Storage).
 * @param {string} url @returns {Promise<Response | undefined>}
 */
async function keptWasm(url) {
  try {
    const kept = await globalThis.caches?.match(url);
    return kept?.ok ? kept : undefined;
  } catch {
    return undefined; // Cache Storage refused (a private window in some engines): the .zst as before
  }
}

/** A response's Content-Type, without its parameters. @param {Response} response @returns {string} */
function wasmType(response) {
  return (response.headers.get("Content-Type") || "").split(";")[0].trim();
}

/** @param {any} err anything thrown: an Error, or whatever a script threw @returns {string} */
function reason(err) {
  return String(err && err.message ? err.message : err);
}
