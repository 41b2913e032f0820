// Run the calculators' test cases inside Pyodide under Node, from the
// runtime folder the site ships (same pyodide.mjs, lock file, wheels and
// snapshot the browser gets).
// Usage: node pyodide_runner.mjs RUNTIME_DIR CASES_JSON MODE
// MODE boot: a fresh interpreter that installs the wheels through the lock
// file (sha256 checked); MODE snapshot: the restored memory snapshot alone.
// Prints one JSON line: {doctests: [{name, failed, attempted, output}], cases: [result...]}
import { createReadStream, readFileSync } from "node:fs";
import { Readable } from "node:stream";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [dir, casesFile, mode] = [resolve(process.argv[2]), process.argv[3], process.argv[4]];
const { loadPyodide } = await import(pathToFileURL(join(dir, "pyodide.mjs")).href);
const options = { indexURL: dir + "/", lockFileURL: join(dir, "pyodide-lock.json") };
if (mode === "snapshot") {
  // Unpacked the way the browser's worker does it (runtime/sparse-snapshot.mjs).
  const { unpack } = await import(pathToFileURL(join(dir, "sparse-snapshot.mjs")).href);
  const gz = Readable.toWeb(createReadStream(join(dir, "snapshot.bin.gz")));
  options._loadSnapshot = await unpack(gz.pipeThrough(new DecompressionStream("gzip")));
}
const pyodide = await loadPyodide(options);
if (mode === "boot") {
  const failures = [];
  await pyodide.loadPackage(["calculators"], { checkIntegrity: true, messageCallback: () => {}, errorCallback: (e) => failures.push(e) });
  if (failures.length) throw new Error("package load failed: " + failures.join("; "));
}
// From the snapshot, as in the browser's fast path, nothing is installed:
// everything must already be in the restored memory.
pyodide.globals.set("CASES_JSON", readFileSync(casesFile, "utf8"));
const out = pyodide.runPython(`
import doctest, io, json, sys
from calculators.registry import run

data = json.loads(CASES_JSON)
parser = doctest.DocTestParser()
report = {"python": sys.version, "platform": sys.platform, "doctests": [], "cases": []}
for page, blocks in data["doctests"].items():
    globs = {}
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    out = io.StringIO()
    for line, source in blocks:
        test = parser.get_doctest(source, globs, f"{page}:{line}", page, line)
        runner.run(test, out=out.write, clear_globs=False)
        globs = test.globs
    r = runner.summarize(verbose=False)
    report["doctests"].append({"page": page, "failed": r.failed, "attempted": r.attempted, "output": out.getvalue()})
for name, params, seed in data["cases"]:
    report["cases"].append(run(name, params, seed))
json.dumps(report)
`);
console.log(out);
