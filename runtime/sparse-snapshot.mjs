// Reading the memory snapshot file, snapshot.bin.zst (written at build time by
// pack_snapshot() in runtime/build.py).
//
// A Pyodide memory snapshot is the interpreter's whole memory: 31 MB, of
// which about 14 MB are 4 KiB pages of zeros. The build drops those pages (the
// browser gets them back for free by allocating zeroed memory) and compresses
// the rest with Zstandard, which makes it a third smaller than gzip would
// and unpacks several times faster than the browser's own gzip stream.
//
// Layout (integers unsigned 32-bit little-endian):
//   "SPSN"  version (2)  full length  run count         } not compressed, so
//   run count x (offset, length)                        } the length is known early
//   one Zstandard frame: the bytes of those runs, one after the other
// The runs are the stretches of memory that are not all zeros, in order.

const MAGIC = 0x4e535053; // "SPSN" read little-endian
const VERSION = 2;

/** Browser: fetch the snapshot next to this file and unpack it. */
export async function fetchSnapshot(onLength) {
  const response = fetch(new URL("snapshot.bin.zst", import.meta.url));
  const { ZSTDDecoder } = await import("./zstddec.mjs"); // copied from the npm package zstddec
  const decoder = new ZSTDDecoder();
  await decoder.init();
  const ok = await response;
  if (!ok.ok) throw new Error(`snapshot.bin.zst answered ${ok.status}`);
  return unpack(ok.body, { decode: (bytes, size) => decoder.decode(bytes, size), onLength });
}

/**
 * Rebuild the full snapshot from a stream of the file's bytes. `onLength`
 * hears the full length as soon as the header is in, long before the rest;
 * `decode(bytes, size)` is a Zstandard decoder (zstddec's, in the browser).
 * @param {ReadableStream<Uint8Array>} stream
 * @param {{ decode: (bytes: Uint8Array, size: number) => Uint8Array, onLength?: (length: number) => void }} options
 */
export async function unpack(stream, { decode, onLength = (_length) => {} }) {
  const reader = stream.getReader();
  const chunks = [];
  let received = 0;
  let header = null;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.length;
    if (!header) {
      header = readHeader(chunks, received);
      if (header) onLength(header.fullLength);
    }
  }
  if (!header) throw new Error("the snapshot file is cut short");
  const body = join(chunks, received).subarray(header.size);
  const dataLength = header.runs.reduce((sum, [, length]) => sum + length, 0);
  let data;
  try {
    data = decode(body, dataLength);
  } catch {
    data = null;
  }
  if (!data || data.length !== dataLength) throw new Error("the snapshot file is damaged or cut short");
  const full = new Uint8Array(header.fullLength);
  let at = 0;
  for (const [offset, length] of header.runs) {
    full.set(data.subarray(at, at + length), offset);
    at += length;
  }
  return full;
}

/** The header, once enough bytes are in; null until then. */
function readHeader(chunks, received) {
  if (received < 16) return null;
  const bytes = join(chunks, received);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== MAGIC || view.getUint32(4, true) !== VERSION) {
    throw new Error("the snapshot file is not in the expected format");
  }
  const fullLength = view.getUint32(8, true);
  const count = view.getUint32(12, true);
  const size = 16 + 8 * count;
  if (received < size) return null;
  const runs = [];
  for (let i = 0; i < count; i++) {
    const offset = view.getUint32(16 + 8 * i, true);
    const length = view.getUint32(20 + 8 * i, true);
    const previousEnd = i ? runs[i - 1][0] + runs[i - 1][1] : 0;
    if (offset < previousEnd || offset + length > fullLength) throw new Error("the snapshot file is not in the expected format");
    runs.push([offset, length]);
  }
  return { fullLength, runs, size };
}

/** The chunks as one array; merges them in place, so the next call copies less. */
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
