// Build-time: boot the pinned Pyodide in Node, install our wheels, import the
// calculators, and save a memory snapshot the browser can restore instead of
// booting. Usage: node make-snapshot.mjs RUNTIME_DIR (holds pyodide.mjs,
// pyodide-lock.json and the wheels); writes RUNTIME_DIR/snapshot.raw, which
// hooks/pyodide_runtime.py packs into the file the browser gets.
import { readFileSync, writeFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

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
pyodide.runPython("import gc; gc.collect()");
zeroFreeMemory(pyodide._module);
writeFileSync(join(dir, "snapshot.raw"), pyodide.makeMemorySnapshot());

/**
 * Memory the allocator holds free still has whatever the warm-up left there,
 * and that garbage costs half a megabyte of the compressed snapshot. Borrow
 * every free block from the allocator, zero it, and give it back: the heap's
 * bookkeeping is untouched (only memory this function owns is written) and
 * the memory, so the snapshot, does not grow (a block that needs the heap to
 * grow is returned at once, and the heap's top trimmed after).
 */
function zeroFreeMemory(module) {
  const malloc = module._emscripten_builtin_malloc;
  const { _free: free, _sbrk: sbrk, _malloc_trim: trim } = module;
  if (![malloc, free, sbrk, trim].every((f) => typeof f === "function")) {
    throw new Error("this Pyodide build does not export the allocator functions zeroFreeMemory needs");
  }
  const memory = module.HEAPU8.length;
  const borrowed = [];
  for (let size = 1 << 20; size >= 16; size >>= 1) {
    for (;;) {
      const before = sbrk(0);
      const block = malloc(size);
      if (!block) break;
      if (sbrk(0) > before) {
        free(block);
        break;
      }
      module.HEAPU8.fill(0, block, block + size);
      borrowed.push(block);
    }
  }
  borrowed.forEach(free);
  trim(0);
  if (module.HEAPU8.length !== memory) throw new Error("zeroFreeMemory grew the memory");
}
