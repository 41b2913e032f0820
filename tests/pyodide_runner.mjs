// Run the calculators' test cases inside Pyodide under Node, from the
// runtime folder the site ships (same pyodide.mjs, lock file, wheels and
// snapshot the browser gets).
// Usage: node pyodide_runner.mjs RUNTIME_DIR CASES_JSON MODE
// MODE boot: a fresh interpreter that installs the wheels through the lock
// file (sha256 checked); MODE snapshot: the restored memory snapshot alone.
// Prints one JSON line: {doctests: [{page, failed, attempted, output}], cases: [result...],
// stdlibBefore, stdlibAfter: whether a module of the standard library no
// calculator uses could be imported before and after the late install}
import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { Readable } from "node:stream";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [dir, casesFile, mode] = [resolve(process.argv[2]), process.argv[3], process.argv[4]];
const { loadPyodide, version } = await import(pathToFileURL(join(dir, "pyodide.mjs")).href);
const options = { indexURL: dir + "/", lockFileURL: join(dir, "pyodide-lock.json") };
const late = await import(pathToFileURL(join(dir, "late-stdlib.mjs")).href);
// Pyodide's private parts, as the browser uses them (runtime/pyodide-private.mjs).
const adapter = await import(pathToFileURL(join(dir, "pyodide-private.mjs")).href);
adapter.checkVersion(version);
// Python's flags as the worker sets them (a restored snapshot keeps the ones it was made with).
Object.assign(options, adapter.interpreterOptions());
let restore = null;
if (mode === "snapshot") {
  // Unpacked the way the browser's worker does it (runtime/sparse-snapshot.mjs).
  const { unpack } = await import(pathToFileURL(join(dir, "sparse-snapshot.mjs")).href);
  const { ZSTDDecoder } = await import(pathToFileURL(join(dir, "zstddec.mjs")).href);
  const decoder = new ZSTDDecoder();
  await decoder.init();
  const file = Readable.toWeb(createReadStream(join(dir, "snapshot.bin.zst")));
  let layout;
  const bytes = await unpack(file, { decode: (bytes, size) => decoder.decode(bytes, size), onLayout: (known) => { layout = known; } });
  // And restored as there: the pages equal to the wasm's initial memory come
  // from the instance as it is made (restoreOptions, watchWasm).
  restore = adapter.restoreOptions({ layout, bytes });
  Object.assign(options, restore.options);
  // And, as there, with an empty standard library (runtime/late-stdlib.mjs);
  // Node reads stdLibURL as a file path, not a data: URL.
  const empty = join(mkdtempSync(join(tmpdir(), "stdlib-")), "empty.zip");
  writeFileSync(empty, Buffer.from(late.EMPTY_ZIP.split(",")[1], "base64"));
  options.stdLibURL = empty;
}
const watch = adapter.watchWasm({ onInstance: restore?.onInstance });
const pyodide = await loadPyodide(options).catch((err) => { throw restore?.failure() || err; }).finally(() => watch.stop());
if (options.stdLibURL) rmSync(dirname(options.stdLibURL), { recursive: true });
if (mode === "boot") {
  const failures = [];
  await pyodide.loadPackage(["calculators"], { checkIntegrity: true, messageCallback: () => {}, errorCallback: (e) => failures.push(e) });
  if (failures.length) throw new Error("package load failed: " + failures.join("; "));
}
// From the snapshot, as in the browser's fast path, nothing is installed:
// everything must already be in the restored memory.
pyodide.globals.set("CASES_JSON", readFileSync(casesFile, "utf8"));
pyodide.globals.set("MODE", mode);
// First what the worker runs, before the standard library is in place.
const report = JSON.parse(pyodide.runPython(`
import json, sys
from calculators.runner import run

data = json.loads(CASES_JSON)
import builtins
report = {"python": sys.version, "platform": sys.platform, "mode": MODE, "optimize": sys.flags.optimize,
          "grown": sum(map(len, getattr(builtins, "GROWN", []))),  # tests/snapshot_grown_runner.mjs's memory
          "docstrings": json.__doc__ is not None,
          "columns": any(c is not None for f in (json.dumps, run) for _, _, c, _ in f.__code__.co_positions()),
          "cliModules": [m for m in ("argparse", "calculators.__main__", "calculators.house_rules") if m in sys.modules],
          "cases": []}
for name, params, seed in data["cases"]:
    report["cases"].append(run(name, params, seed))
json.dumps(report)
`));
// A module no calculator imports: missing until the real standard library is
// installed late (snapshot), there from the start (boot).
const probe = "import colorsys; colorsys.rgb_to_hsv(1, 0, 0)";
const tryProbe = () => { try { pyodide.runPython(probe); return true; } catch { return false; } };
report.stdlibBefore = tryProbe();
if (mode === "snapshot") late.installStdlib(pyodide, new Uint8Array(readFileSync(join(dir, "python_stdlib.zip"))));
report.stdlibAfter = tryProbe();
// The doctests need the doctest module, from the standard library.
report.doctests = JSON.parse(pyodide.runPython(`
import doctest, io, json

data = json.loads(CASES_JSON)
parser = doctest.DocTestParser()
doctests = []
for page, blocks in data["doctests"].items():
    globs = {}
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    out = io.StringIO()
    for line, source in blocks:
        test = parser.get_doctest(source, globs, f"{page}:{line}", page, line)
        runner.run(test, out=out.write, clear_globs=False)
        globs = test.globs
    r = runner.summarize(verbose=False)
    doctests.append({"page": page, "failed": r.failed, "attempted": r.attempted, "output": out.getvalue()})
json.dumps(doctests)
`));
console.log(JSON.stringify(report));
