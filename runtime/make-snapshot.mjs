// Build-time: boot the pinned Pyodide in Node, install our wheels, import the
// calculators, and save a memory snapshot the browser can restore instead of
// booting. Usage: node make-snapshot.mjs RUNTIME_DIR (holds pyodide.mjs,
// pyodide-lock.json and the wheels); writes RUNTIME_DIR/snapshot.bin.gz.
// The snapshot is gzipped here, not left to the host: many hosts (and
// `python -m http.server`) send binary files uncompressed, and it is 25 MB raw.
import { readFileSync, writeFileSync, readdirSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { pack } from "./sparse-snapshot.mjs";

const dir = resolve(process.argv[2]);
const { loadPyodide } = await import(pathToFileURL(join(dir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: dir + "/", _makeSnapshot: true });
// Install where loadPackage would, so module paths match the browser's.
const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
for (const name of readdirSync(dir).filter((n) => n.endsWith(".whl"))) {
  pyodide.unpackArchive(new Uint8Array(readFileSync(join(dir, name))), "wheel", { extractDir: sitePackages });
}
// Import everything a calculator touches, and run each once, so nothing is
// left to import lazily after the snapshot is restored.
pyodide.runPython(readFileSync(new URL("./warm-up.py", import.meta.url), "utf8"));
// Without its empty pages (see sparse-snapshot.mjs): less to inflate in the browser.
writeFileSync(join(dir, "snapshot.bin.gz"), gzipSync(pack(pyodide.makeMemorySnapshot()), { level: 6 }));
