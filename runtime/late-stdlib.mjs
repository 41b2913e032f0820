// Python's standard library, installed after a snapshot is restored instead
// of before.
//
// Pyodide downloads python_stdlib.zip (2.5 MB, already compressed, a fifth of
// a first visit) before it hands over the interpreter. A restored snapshot
// has already imported every module the calculators use, so the worker
// gives Pyodide an empty archive to start with and puts the real one in
// place right after: it does not hold up the first result. The snapshot's
// import system already knows the real archive's table of contents, so the
// file only has to be there, unchanged, before a module not yet imported is
// asked for; until then the worker retries a failed calculation once the
// archive is in (calc-worker.mjs).

/** An empty zip archive (just its end record), for Pyodide's stdLibURL. */
export const EMPTY_ZIP = "data:application/zip;base64,UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA==";

/** Put the real archive where Python looks for it, and have it re-read.
 * @param {import("./pyodide.mjs").PyodideAPI} pyodide @param {Uint8Array} bytes python_stdlib.zip */
export function installStdlib(pyodide, bytes) {
  const path = /** @type {string} */ (pyodide.runPython("import sys; next(p for p in sys.path if p.endswith('.zip'))"));
  pyodide.FS.writeFile(path, bytes);
  pyodide.runPython("import importlib; importlib.invalidate_caches()");
}
