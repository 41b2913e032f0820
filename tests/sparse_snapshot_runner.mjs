// Reads packed snapshots with runtime/sparse-snapshot.mjs, for
// tests/test_snapshot_format.py (which packs them with the build's own
// pack_snapshot). Reads a JSON list on stdin: {packed: base64, chunks: [sizes]}
// (the download cut into chunks of those sizes, in turn). Prints one JSON
// line: per case {ok, full: base64, lengths: [what onLength heard]} or {ok, error}.
import { ZSTDDecoder } from "zstddec";
import { unpack } from "../runtime/sparse-snapshot.mjs";

const decoder = new ZSTDDecoder();
await decoder.init();
const decode = (bytes, size) => decoder.decode(bytes, size);
const input = JSON.parse(await new Response(process.stdin).text());
const b64 = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");

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
  const lengths = [];
  try {
    const full = await unpack(streamOf(new Uint8Array(Buffer.from(c.packed, "base64")), c.chunks), { decode, onLength: (n) => lengths.push(n) });
    out.push({ ok: true, full: b64(full), lengths });
  } catch (err) {
    out.push({ ok: false, error: err.message, lengths });
  }
}
console.log(JSON.stringify(out));
