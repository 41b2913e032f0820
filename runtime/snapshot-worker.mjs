// Fetches and unpacks the memory snapshot on a thread of its own, so the
// calculators' worker can load Pyodide's scripts meanwhile instead of waiting
// behind it. Hands the result over without a copy.
// Messages out: {layout} as soon as the header is read, then
//               {bytes: Uint8Array} or {error}.
import { fetchSnapshot } from "./sparse-snapshot.mjs";

/** What the helper posts (above); calc-worker.mjs reads it.
 * @typedef {{layout: import("./sparse-snapshot.mjs").Layout, bytes?: undefined, error?: undefined}
 *   | {bytes: Uint8Array, layout?: undefined, error?: undefined}
 *   | {error: string, layout?: undefined, bytes?: undefined}} HelperMessage */

try {
  const bytes = await fetchSnapshot((layout) => postMessage(/** @satisfies {HelperMessage} */ ({ layout })));
  postMessage(/** @satisfies {HelperMessage} */ ({ bytes }), [bytes.buffer]);
} catch (err) {
  postMessage(/** @satisfies {HelperMessage} */ ({ error: err instanceof Error ? err.message : String(err) }));
}
