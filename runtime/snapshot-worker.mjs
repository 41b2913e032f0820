// Fetches and unpacks the memory snapshot on a thread of its own, so the
// calculators' worker can load Pyodide's scripts meanwhile instead of waiting
// behind it. Hands the result over without a copy.
// Messages out: {layout} as soon as the header is read, {alive} at most
//               every 250 ms while bytes arrive and once all have (so the
//               worker can tell a slow download from a helper gone silent),
//               then {bytes: Uint8Array, stages} or {error}; `stages`, when the
//               file's last byte arrived and when it was unpacked (Stage in
//               sparse-snapshot.mjs), as performance.timeOrigin + now(), a
//               clock every thread shares (for make bench's timeline).
import { fetchSnapshot } from "./sparse-snapshot.mjs";

/** What the helper posts (above); calc-worker.mjs reads it.
 * @typedef {Partial<Record<import("./sparse-snapshot.mjs").Stage, number>>} Stages
 * @typedef {{layout: import("./sparse-snapshot.mjs").Layout, bytes?: undefined, error?: undefined, alive?: undefined}
 *   | {alive: "receiving" | "arrived", layout?: undefined, bytes?: undefined, error?: undefined}
 *   | {bytes: Uint8Array, stages: Stages, layout?: undefined, error?: undefined, alive?: undefined}
 *   | {error: string, layout?: undefined, bytes?: undefined, alive?: undefined}} HelperMessage */

try {
  /** @type {Stages} */
  const stages = {};
  let said = 0;
  const bytes = await fetchSnapshot((layout) => postMessage(/** @satisfies {HelperMessage} */ ({ layout })),
    (stage) => {
      stages[stage] = performance.timeOrigin + performance.now();
      if (stage === "arrived") postMessage(/** @satisfies {HelperMessage} */ ({ alive: "arrived" }));
    },
    () => {
      if (performance.now() - said < 250) return;
      said = performance.now();
      postMessage(/** @satisfies {HelperMessage} */ ({ alive: "receiving" }));
    });
  postMessage(/** @satisfies {HelperMessage} */ ({ bytes, stages }), [bytes.buffer]);
} catch (err) {
  postMessage(/** @satisfies {HelperMessage} */ ({ error: err instanceof Error ? err.message : String(err) }));
}
