// Reads packed snapshots with runtime/sparse-snapshot.mjs, for
// tests/test_snapshot_format.py (which packs them with the build's own
// pack_snapshot). Reads JSON lists, one per line of stdin, each of
// {packed: base64, chunks: [sizes], initial?: base64} (the download cut into
// chunks of those sizes, in turn; the wasm's initial memory, copied in as
// runtime/pyodide-private.mjs does at instantiation). Prints one JSON line a
// list: per case {ok, full: base64, lengths: [the full length each time
// onLayout was called]} or {ok, error, lengths, cancelled: whether the
// download was stopped}.
import { ZSTDDecoder } from "zstddec";
// {restore: true} runs restoreOptions instead, as loadPyodide would: the
// layout, an instance whose memory is `initial`, fsInit; then it prints {ok,
// full (what Pyodide would restore from), failure}.
// {sha256: true} prints the full snapshot's sha256 (hex) instead of itself.
import { createHash } from "node:crypto";
import { createInterface } from "node:readline";
import { copyInitialMemory, unpack } from "../runtime/sparse-snapshot.mjs";
import { restoreOptions } from "../runtime/pyodide-private.mjs";

const decoder = new ZSTDDecoder();
await decoder.init();
const decode = (bytes, size) => decoder.decode(bytes, size);
const b64 = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");

let cancelled = false; // whether the reader cancelled the last stream made (the download stopped)

function streamOf(bytes, sizes) {
  let at = 0;
  let i = 0;
  cancelled = false;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      const size = sizes.length ? sizes[i++ % sizes.length] : bytes.length;
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
    cancel() { cancelled = true; },
  }, { highWaterMark: 0 });
}

/** What loadPyodide does with restoreOptions: size the snapshot from the
 * layout, make the instance (here one whose memory holds `initial` and that
 * exports a Py_Version like Pyodide's), run fsInit; the buffer it would restore. */
async function restore(c, stream) {
  let gotLayout;
  const layout = new Promise((resolve) => { gotLayout = resolve; });
  const bytes = unpack(stream, { decode, onLayout: gotLayout });
  const { options, onInstance, failure } = restoreOptions({ layout, bytes });
  const full = await options._loadSnapshot;
  const initial = Buffer.from(c.initial, "base64");
  const memory = new WebAssembly.Memory({ initial: Math.ceil((initial.length + 1) / 65536) });
  new Uint8Array(memory.buffer).set(initial);
  onInstance(/** @type {any} */ ({ exports: { memory, Py_Version: new WebAssembly.Global({ value: "i32" }, 0) } }));
  await options.fsInit();
  const err = failure();
  return { ok: !err, full: b64(full), failure: err ? err.message : null };
}

async function unpackAll(input) {
  const out = [];
  for (const c of input) {
    if (c.restore) {
      out.push(await restore(c, streamOf(new Uint8Array(Buffer.from(c.packed, "base64")), c.chunks)));
      continue;
    }
    const lengths = [];
    let layout = null;
    const onLayout = (known) => { layout = known; lengths.push(known.fullLength); };
    try {
      const full = await unpack(streamOf(new Uint8Array(Buffer.from(c.packed, "base64")), c.chunks), { decode, onLayout });
      if (c.initial != null) copyInitialMemory(full, layout.initial, new Uint8Array(Buffer.from(c.initial, "base64")));
      const shown = c.sha256 ? { sha256: createHash("sha256").update(full).digest("hex") } : { full: b64(full) };
      out.push({ ok: true, ...shown, lengths });
    } catch (err) {
      out.push({ ok: false, error: err.message, lengths, cancelled });
    }
  }
  return out;
}

// A list per line of stdin, each answered by a line, until stdin ends: one
// Node for a whole Hypothesis run (a Node each costs 0.1 s an example).
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim()) process.stdout.write(JSON.stringify(await unpackAll(JSON.parse(line))) + "\n");
}
