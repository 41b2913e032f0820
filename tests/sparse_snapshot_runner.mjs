// Exercises runtime/sparse-snapshot.mjs for tests/test_snapshot_format.py.
// Reads a JSON list of cases on stdin: {full: base64, chunks: [sizes...]} to
// round-trip, or {sparse: base64, chunks} to unpack as is. Prints one JSON
// line: per case {ok, full?: base64, packedLength?, lengths: [onLength calls], error?}.
import { pack, unpack } from "../runtime/sparse-snapshot.mjs";

const input = JSON.parse(await new Response(process.stdin).text());
const b64 = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
const bytesOf = (text) => new Uint8Array(Buffer.from(text, "base64"));

function streamOf(bytes, sizes) {
  let at = 0;
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      const size = sizes.length ? sizes[i++ % sizes.length] : bytes.length;
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

const out = [];
for (const c of input) {
  const packed = c.full !== undefined ? pack(bytesOf(c.full)) : bytesOf(c.sparse);
  const lengths = [];
  try {
    const full = await unpack(streamOf(packed, c.chunks), (n) => lengths.push(n));
    out.push({ ok: true, full: b64(full), packedLength: packed.length, lengths });
  } catch (err) {
    out.push({ ok: false, error: err.message, lengths });
  }
}
console.log(JSON.stringify(out));
