// Fetches and unpacks the memory snapshot on a thread of its own, so the
// calculators' worker can load Pyodide's scripts meanwhile instead of waiting
// behind 24 MB of inflating. Hands the result over without a copy.
// Messages out: {length} as soon as the header is read, then
//               {bytes: Uint8Array, fetchedAt: ms since the epoch} or {error}.
const response = fetch(new URL("snapshot.bin.gz", import.meta.url));
const { unpack } = await import("./sparse-snapshot.mjs");
try {
  const ok = await response;
  if (!ok.ok) throw new Error(`snapshot.bin.gz answered ${ok.status}`);
  const bytes = await unpack(ok.body.pipeThrough(new DecompressionStream("gzip")), (length) => postMessage({ length }));
  postMessage({ bytes, fetchedAt: performance.timeOrigin + performance.now() }, [bytes.buffer]);
} catch (err) {
  postMessage({ error: String(err && err.message ? err.message : err) });
}
