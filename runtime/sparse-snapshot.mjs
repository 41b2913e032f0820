// The memory snapshot without its empty pages.
//
// A Pyodide memory snapshot is the interpreter's whole memory: 24 MB, of
// which about 9 MB are 4 KiB pages of zeros. Gzip squeezes those to almost
// nothing on the wire, but the browser still has to inflate them, and
// inflating is the slowest step of a fast start. So the build drops them and
// the browser puts them back by allocating zeroed memory, which costs nothing.
//
// Layout (all integers unsigned 32-bit little-endian):
//   "SPSN"  version (1)  full length  run count
//   run count x (offset, length)      the stretches that are not all zeros
//   the bytes of those stretches, one after the other
// The whole file is then gzipped (snapshot.bin.gz).

const MAGIC = 0x4e535053; // "SPSN" read little-endian
const VERSION = 1;
const PAGE = 4096;

/** Build time: the full snapshot in, the sparse file out (not yet gzipped). */
export function pack(full) {
  const runs = [];
  for (let start = 0; start < full.length; start += PAGE) {
    const end = Math.min(start + PAGE, full.length);
    if (!isZero(full, start, end)) {
      const last = runs[runs.length - 1];
      if (last && last[0] + last[1] === start) last[1] += end - start;
      else runs.push([start, end - start]);
    }
  }
  const head = 16 + 8 * runs.length;
  const out = new Uint8Array(head + runs.reduce((sum, [, length]) => sum + length, 0));
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, VERSION, true);
  view.setUint32(8, full.length, true);
  view.setUint32(12, runs.length, true);
  let at = head;
  runs.forEach(([offset, length], i) => {
    view.setUint32(16 + 8 * i, offset, true);
    view.setUint32(20 + 8 * i, length, true);
    out.set(full.subarray(offset, offset + length), at);
    at += length;
  });
  return out;
}

function isZero(bytes, start, end) {
  for (let i = start; i < end; i++) if (bytes[i]) return false;
  return true;
}

/**
 * Browser and tests: rebuild the full snapshot from a stream of the sparse
 * file's bytes (already inflated), copying each chunk straight to its place,
 * so no second copy of the file is ever held. `onLength` hears the full
 * length as soon as the header is in, long before the rest.
 */
export async function unpack(stream, onLength = () => {}) {
  const reader = stream.getReader();
  let pending = new Uint8Array(0); // bytes of the header not yet parsed
  let full = null;
  let runs = null;
  let run = 0;
  let filled = 0; // bytes of the current run already written
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    let chunk = value;
    if (!runs) {
      pending = concat(pending, chunk);
      if (pending.length < 16) continue;
      const view = new DataView(pending.buffer, pending.byteOffset, pending.byteLength);
      if (view.getUint32(0, true) !== MAGIC || view.getUint32(4, true) !== VERSION) {
        throw new Error("the snapshot file is not in the expected format");
      }
      const count = view.getUint32(12, true);
      const head = 16 + 8 * count;
      if (pending.length < head) continue;
      full = new Uint8Array(view.getUint32(8, true));
      onLength(full.length);
      runs = [];
      for (let i = 0; i < count; i++) runs.push([view.getUint32(16 + 8 * i, true), view.getUint32(20 + 8 * i, true)]);
      chunk = pending.subarray(head);
      pending = null;
    }
    while (chunk.length) {
      if (run >= runs.length) throw new Error("the snapshot file is longer than it says");
      const [offset, length] = runs[run];
      const take = Math.min(length - filled, chunk.length);
      full.set(chunk.subarray(0, take), offset + filled);
      filled += take;
      chunk = chunk.subarray(take);
      if (filled === length) {
        run += 1;
        filled = 0;
      }
    }
  }
  if (!runs || run !== runs.length) throw new Error("the snapshot file is cut short");
  return full;
}

function concat(a, b) {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
