// Reading the memory snapshot file, snapshot.bin.zst (written at build time by
// pack_snapshot() in runtime/build.py).
//
// A Pyodide memory snapshot is the interpreter's whole memory: 31 MB, of
// which about 14 MB are 4 KiB pages of zeros and 3.4 MB pages still as
// pyodide.asm.wasm's data left them. The build drops both: the browser gets
// the zeros back for free by allocating zeroed memory, and the wasm's data by
// copying it from the memory it has just instantiated (copyInitialMemory,
// called by runtime/pyodide-private.mjs at that moment), which saves a
// megabyte of download. The rest is compressed with Zstandard, which makes it
// a third smaller than gzip would and unpacks several times faster than the
// browser's own gzip stream.
//
// Layout (integers unsigned 32-bit little-endian):
//   "SPSN"  version (3)  full length  run count                 } not compressed,
//   initial offset  initial run count  initial digest           } so the layout
//   run count x (offset, length)                                } is known early
//   initial run count x (offset, length)                        }
//   one Zstandard frame: the bytes of the runs, one after the other
// The runs are the stretches of the snapshot stored in the file; the initial
// runs those equal to the wasm's initial memory, byte `offset - initial
// offset` of it on (the snapshot starts with Pyodide's header, then the memory
// from address 0); the digest checks the bytes copied from there (FNV-1a over
// 32-bit words, as initial_digest in runtime/build.py). Both lists are in
// order and apart; everything else is zeros.

const MAGIC = 0x4e535053; // "SPSN" read little-endian
const VERSION = 3;
const FIXED = 28; // bytes before the runs

/**
 * @typedef {{ fullLength: number, runs: [number, number][], size: number,
 *   initial: { offset: number, runs: [number, number][], digest: number, needed: number } }} Layout
 * `initial.needed`: how many bytes of the initial memory the initial runs read.
 */
/** The moments unpack reports, for make bench's timeline: "arrived", the
 * file's last byte is in; "decoded", the snapshot is rebuilt from it.
 * @typedef {"arrived" | "decoded"} Stage */

/** Browser: fetch the snapshot next to this file and unpack it. `onLayout`
 * hears the layout as soon as the header is in; `onStage`, when the last
 * byte has arrived and when it is unpacked; `onBytes`, the bytes received so
 * far, at each piece of the download (see unpack).
 * @param {(layout: Layout) => void} [onLayout] @param {(stage: Stage) => void} [onStage]
 * @param {(received: number) => void} [onBytes]
 * @returns {Promise<Uint8Array>} */
export async function fetchSnapshot(onLayout, onStage, onBytes) {
  const response = fetch(PACKED);
  const { ZSTDDecoder } = await import("./zstddec.mjs"); // copied from the npm package zstddec
  const decoder = new ZSTDDecoder();
  await decoder.init();
  const ok = await response;
  if (!ok.ok || !ok.body) throw new Error(`snapshot.bin.zst answered ${ok.status}`);
  return unpack(ok.body, { decode: (bytes, size) => decoder.decode(bytes, size), onLayout, onStage, onBytes });
}

// The snapshot unpacked, kept by the calculators' worker in the service
// worker's runtime cache (the cache that holds this snapshot.bin.zst) once a
// first result has shown and that cache is whole: the same header, then the
// runs' bytes as they are, not compressed. A repeat visit reads it from there
// and skips the download's unpacking (31 MB rebuilt from 3.4 MB by the
// Zstandard decoder, the longest step of a repeat visit's start). 14 MB more
// on the device; dropped with the runtime cache.
const KEPT = new URL("snapshot.bin", import.meta.url).href;
const PACKED = new URL("snapshot.bin.zst", import.meta.url).href;
/** How long a start waits for Cache Storage to say whether a kept snapshot is there, in ms. */
const KEPT_LOOKUP_MS = 1000;

/** The kept snapshot, rebuilt, or null where there is none (or no Cache
 * Storage); `onLayout` hears its layout first. One whose length is not its
 * header's is forgotten and null returned: the .zst is used instead.
 * @param {(layout: Layout) => void} [onLayout] @returns {Promise<Uint8Array | null>} */
export async function keptSnapshot(onLayout = (_layout) => {}) {
  let kept;
  try {
    // A lookup that does not answer soon (Cache Storage busy with the service worker's precache) is not waited
    // on: the download starts instead.
    const late = new Promise((resolve) => setTimeout(() => resolve(undefined), KEPT_LOOKUP_MS));
    kept = await Promise.race([globalThis.caches?.match(KEPT), late]);
  } catch {
    return null; // Cache Storage refused (a private window in some engines)
  }
  if (!kept?.ok) return null;
  try {
    const bytes = new Uint8Array(await kept.arrayBuffer());
    const header = bytes.length >= FIXED ? readHeader([bytes], bytes.length) : null;
    const dataLength = header ? header.runs.reduce((sum, [, length]) => sum + length, 0) : -1;
    if (!header || bytes.length !== header.size + dataLength) throw new Error("the kept snapshot is cut short");
    onLayout(header);
    return spread(header, bytes.subarray(header.size));
  } catch (err) {
    console.warn("the kept snapshot cannot be used, forgetting it:", err);
    await forgetKeptSnapshot();
    return null;
  }
}

/** Keeps the snapshot (`layout` and the rebuilt `full`, as unpack gave
 * them) unpacked in the cache that holds this snapshot.bin.zst: none (no
 * service worker, or its runtime cache not filled yet), nothing is kept.
 * Resolves to whether it was kept.
 * @param {Layout} layout @param {Uint8Array} full @returns {Promise<boolean>} */
export async function keepSnapshot(layout, full) {
  const cache = await cacheHolding(PACKED);
  if (!cache || (await cache.match(KEPT))) return false;
  const dataLength = layout.runs.reduce((sum, [, length]) => sum + length, 0);
  const out = new Uint8Array(layout.size + dataLength);
  out.set(headerBytes(layout));
  let at = layout.size;
  for (const [offset, length] of layout.runs) {
    out.set(full.subarray(offset, offset + length), at);
    at += length;
  }
  await cache.put(KEPT, new Response(out, { headers: { "Content-Type": "application/octet-stream" } }));
  return true;
}

/** Forgets the kept snapshot wherever it is (a restore from it failed, or it is damaged). */
export async function forgetKeptSnapshot() {
  try {
    for (const name of await caches.keys()) await (await caches.open(name)).delete(KEPT);
  } catch {
    // no Cache Storage: nothing was kept
  }
}

/** The cache that holds `url`, or null. @param {string} url @returns {Promise<Cache | null>} */
async function cacheHolding(url) {
  if (!globalThis.caches) return null;
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    if (await cache.match(url)) return cache;
  }
  return null;
}

/** The header as readHeader reads it. @param {Layout} layout @returns {Uint8Array} */
function headerBytes(layout) {
  const { runs, initial } = layout;
  const view = new DataView(new ArrayBuffer(layout.size));
  [MAGIC, VERSION, layout.fullLength, runs.length, initial.offset, initial.runs.length, initial.digest]
    .forEach((value, i) => view.setUint32(4 * i, value, true));
  [...runs, ...initial.runs].forEach(([offset, length], i) => {
    view.setUint32(FIXED + 8 * i, offset, true);
    view.setUint32(FIXED + 8 * i + 4, length, true);
  });
  return new Uint8Array(view.buffer);
}

/** The whole snapshot from its runs' bytes, one after the other (zeros elsewhere).
 * @param {Layout} layout @param {Uint8Array} data @returns {Uint8Array} */
function spread(layout, data) {
  const full = new Uint8Array(layout.fullLength);
  let at = 0;
  for (const [offset, length] of layout.runs) {
    full.set(data.subarray(at, at + length), offset);
    at += length;
  }
  return full;
}

/**
 * Rebuild the snapshot from a stream of the file's bytes, all but the initial
 * runs (zeros until copyInitialMemory fills them). `onLayout` hears the
 * layout as soon as the header is in, long before the rest; `decode(bytes,
 * size)` is a Zstandard decoder (zstddec's, in the browser); `onStage` hears
 * each Stage as it is reached (nothing but a clock is read there); `onBytes`
 * the bytes received so far, after each piece.
 * @param {ReadableStream<Uint8Array>} stream
 * @param {{ decode: (bytes: Uint8Array, size: number) => Uint8Array, onLayout?: (layout: Layout) => void,
 *   onStage?: (stage: Stage) => void, onBytes?: (received: number) => void }} options
 * @returns {Promise<Uint8Array>}
 */
export async function unpack(stream, { decode, onLayout = (_layout) => {}, onStage = (_stage) => {}, onBytes = (_received) => {} }) {
  const reader = stream.getReader();
  /** @type {Uint8Array[]} */
  const chunks = [];
  let received = 0;
  /** @type {Layout | null} */
  let header = null;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      received += value.length;
      onBytes(received);
      if (!header) {
        header = readHeader(chunks, received);
        if (header) onLayout(header);
      }
    }
  } catch (err) {
    reader.cancel().catch(() => {}); // a header read as wrong (or a read failed): the rest of the download is not wanted
    throw err;
  }
  if (!header) throw new Error("the snapshot file is cut short");
  onStage("arrived");
  const body = join(chunks, received).subarray(header.size);
  const dataLength = header.runs.reduce((sum, [, length]) => sum + length, 0);
  let data;
  try {
    data = decode(body, dataLength);
  } catch {
    data = null;
  }
  if (!data || data.length !== dataLength) throw new Error("the snapshot file is damaged or cut short");
  const full = spread(header, data);
  onStage("decoded");
  return full;
}

/**
 * Fill the initial runs of `full` (a buffer of `layout.fullLength` bytes)
 * from `memory`, the wasm's memory as instantiating it left it, and check
 * them against the digest. Throws, in words, when they do not match: that
 * memory is not the one the snapshot was made against.
 * @param {Uint8Array} full
 * @param {Layout["initial"]} initial
 * @param {Uint8Array} memory
 */
export function copyInitialMemory(full, initial, memory) {
  if (memory.length < initial.needed) throw new Error("the snapshot does not match this pyodide.asm.wasm");
  for (const [offset, length] of initial.runs) {
    const from = offset - initial.offset;
    full.set(memory.subarray(from, from + length), offset);
  }
  if (digestOf(full, initial.runs) !== initial.digest) throw new Error("the snapshot does not match this pyodide.asm.wasm");
}

/** FNV-1a over the runs' bytes read as little-endian 32-bit words (a last
 * short word zero-padded), in order: runtime/build.py initial_digest.
 * @param {Uint8Array} full @param {[number, number][]} runs @returns {number} */
function digestOf(full, runs) {
  let h = 0x811c9dc5;
  /** @type {number[]} */
  let carry = []; // bytes of a word cut by the end of a run
  /** @param {number} w */
  const word = (w) => { h = Math.imul(h ^ w, 0x01000193) >>> 0; };
  const flush = () => {
    let w = 0;
    carry.forEach((b, i) => { w |= b << (8 * i); });
    word(w >>> 0);
    carry = [];
  };
  for (const [offset, length] of runs) {
    let at = offset;
    const end = offset + length;
    while (carry.length && at < end) {
      carry.push(full[at++]);
      if (carry.length === 4) flush();
    }
    if (at % 4 === 0 && full.byteOffset % 4 === 0) {
      const words = new Uint32Array(full.buffer, full.byteOffset + at, (end - at) >> 2);
      for (let i = 0; i < words.length; i++) h = Math.imul(h ^ words[i], 0x01000193) >>> 0;
      at += words.length * 4;
    }
    while (at < end) {
      carry.push(full[at++]);
      if (carry.length === 4) flush();
    }
  }
  if (carry.length) flush();
  return h;
}

/** The header, once enough bytes are in; null until then.
 * @param {Uint8Array[]} chunks @param {number} received
 * @returns {Layout | null} */
function readHeader(chunks, received) {
  if (received < FIXED) {
    if (received >= 8) checkMagic(join(chunks, received));
    return null;
  }
  const bytes = join(chunks, received);
  const view = checkMagic(bytes);
  const fullLength = view.getUint32(8, true);
  const count = view.getUint32(12, true);
  const initialOffset = view.getUint32(16, true);
  const initialCount = view.getUint32(20, true);
  const digest = view.getUint32(24, true);
  const size = FIXED + 8 * (count + initialCount);
  if (received < size) return null;
  /** @param {number} at @param {number} n */
  const list = (at, n) => {
    /** @type {[number, number][]} */
    const runs = [];
    for (let i = 0; i < n; i++) {
      const offset = view.getUint32(at + 8 * i, true);
      const length = view.getUint32(at + 8 * i + 4, true);
      const previousEnd = i ? runs[i - 1][0] + runs[i - 1][1] : 0;
      if (offset < previousEnd || offset + length > fullLength) throw new Error("the snapshot file is not in the expected format");
      runs.push([offset, length]);
    }
    return runs;
  };
  const runs = list(FIXED, count);
  const initialRuns = list(FIXED + 8 * count, initialCount);
  if (initialRuns.some(([offset]) => offset < initialOffset)) throw new Error("the snapshot file is not in the expected format");
  const last = initialRuns[initialRuns.length - 1];
  const needed = last ? last[0] + last[1] - initialOffset : 0;
  return { fullLength, runs, size, initial: { offset: initialOffset, runs: initialRuns, digest, needed } };
}

/** @param {Uint8Array} bytes @returns {DataView} */
function checkMagic(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== MAGIC || view.getUint32(4, true) !== VERSION) {
    throw new Error("the snapshot file is not in the expected format");
  }
  return view;
}

/** The chunks as one array; merges them in place, so the next call copies less.
 * @param {Uint8Array[]} chunks @param {number} received @returns {Uint8Array} */
function join(chunks, received) {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(received);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  chunks.splice(0, chunks.length, out);
  return out;
}
