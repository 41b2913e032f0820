// Fetches and unpacks the memory snapshot on a thread of its own, so the
// calculators' worker can load Pyodide's scripts meanwhile instead of waiting
// behind it. Hands the result over without a copy.
// Messages out: {layout} as soon as the header is read, then
//               {bytes: Uint8Array} or {error}.
import { fetchSnapshot } from "./sparse-snapshot.mjs";

try {
  const bytes = await fetchSnapshot((layout) => postMessage({ layout }));
  postMessage({ bytes }, [bytes.buffer]);
} catch (err) {
  postMessage({ error: err instanceof Error ? err.message : String(err) });
}
