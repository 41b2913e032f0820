// Makes a memory snapshot as runtime/make-snapshot.mjs does (the runtime
// folder's wheels installed, its warm-up.py run), with MEGABYTES more of live
// memory, for tests/test_snapshot_headroom.py. Usage: node
// snapshot_grown_runner.mjs RUNTIME_DIR MEGABYTES OUT (the raw snapshot).
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [dir, megabytes, out] = [resolve(process.argv[2]), Number(process.argv[3]), process.argv[4]];
const adapter = await import(pathToFileURL(join(dir, "pyodide-private.mjs")).href);
const { loadPyodide, version } = await import(pathToFileURL(join(dir, "pyodide.mjs")).href);
adapter.checkVersion(version);
const pyodide = await loadPyodide({ indexURL: dir + "/", ...adapter.snapshotMakingOptions() });
const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
for (const name of readdirSync(dir).filter((n) => n.endsWith(".whl"))) {
  pyodide.unpackArchive(new Uint8Array(readFileSync(join(dir, name))), "wheel", { extractDir: sitePackages });
}
pyodide.runPython(readFileSync(join(dir, "warm-up.py"), "utf8"));
// Live, non-zero memory that the restored interpreter must give back: one
// bytes object per MB, each of its own repeated byte.
pyodide.runPython(`import builtins; builtins.GROWN = [bytes([1 + i % 250]) * 1_000_000 for i in range(${megabytes})]`);
pyodide.runPython("import gc; gc.collect()");
adapter.zeroFreeMemory(pyodide);
writeFileSync(out, adapter.makeSnapshot(pyodide));
