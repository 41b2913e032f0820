// Build-time: boot the pinned Pyodide in Node, install our wheels, import the
// calculators, and save a memory snapshot the browser can restore instead of
// booting. Usage: node make-snapshot.mjs RUNTIME_DIR [--bare] (RUNTIME_DIR
// holds pyodide.mjs, pyodide-lock.json and the wheels; --bare, for make
// bench: Pyodide alone, no wheel installed, nothing of ours imported, the
// floor under any snapshot of ours); writes RUNTIME_DIR/snapshot.raw, which
// runtime/build.py packs into the file the browser gets. The private Pyodide
// calls are in pyodide-private.mjs, checked against one Pyodide version.
import { readFileSync, writeFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { checkVersion, makeSnapshot, snapshotMakingOptions, zeroFreeMemory } from "./pyodide-private.mjs";

const dir = resolve(process.argv[2]);
const bare = process.argv.includes("--bare");
const { loadPyodide, version } = await import(pathToFileURL(join(dir, "pyodide.mjs")).href);
checkVersion(version);
const pyodide = await loadPyodide({ indexURL: dir + "/", ...snapshotMakingOptions() });
// Install where loadPackage would, so module paths match the browser's.
const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
for (const name of readdirSync(dir).filter((n) => n.endsWith(".whl") && !bare)) {
  pyodide.unpackArchive(new Uint8Array(readFileSync(join(dir, name))), "wheel", { extractDir: sitePackages });
}
// Import everything a calculator touches, and run each once, so nothing is
// left to import lazily after the snapshot is restored.
if (!bare) pyodide.runPython(readFileSync(new URL("./warm-up.py", import.meta.url), "utf8"));
pyodide.runPython("import gc; gc.collect()");
zeroFreeMemory(pyodide);
writeFileSync(join(dir, "snapshot.raw"), makeSnapshot(pyodide));
