"""Self-hosted Pyodide with the calculators, built into the site.

At build time this hook
1. builds the `calculators` wheel (pure Python) next to the pinned icepool
   wheel that `make setup` fetched,
2. registers both in a site-local `pyodide-lock.json` with
   `pyodide lockfile add-wheels`, so the browser loads them with their
   sha256 checked,
3. makes a memory snapshot in Node, from the same pinned npm runtime, with
   the calculators already imported (the fast path in the browser), and
   packs it for the browser (`pack_snapshot`: empty pages out, Zstandard;
   read by runtime/sparse-snapshot.mjs), and
4. copies runtime, lock file, wheels, snapshot and the worker into
   `site/pyodide/<version>-<digest>/`: one folder per combination of runtime
   and code, so a cached file can never be mixed with another version's.

The work is cached in `.cache/pyodide/<digest>/`, keyed by every input, so
`mkdocs serve` rebuilds cost a copy.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

import zstandard
from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parent.parent
RUNTIME_NPM = ROOT / "node_modules" / "pyodide"
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip")
ZSTD_DECODER = ROOT / "node_modules" / "zstddec" / "dist" / "zstddec.mjs"  # unpacks the snapshot in the browser
WEB = ROOT / "runtime"  # worker and snapshot script
WHEELS = ROOT / ".cache" / "wheels"  # third-party wheels fetched by `make setup`
CACHE = ROOT / ".cache" / "pyodide"


# ---------------------------------------------------------------- hooks


def on_config(config):
    version = _runtime_version()
    digest = _digest(version)
    config["pyodide_runtime"] = f"pyodide/{version}-{digest}/"
    config["pyodide_digest"] = digest
    return config


def on_post_build(config):
    digest = config["pyodide_digest"]
    built = CACHE / digest
    if not (built / "snapshot.bin.zst").exists():
        _build(built)
    target = Path(config["site_dir"]) / config["pyodide_runtime"]
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(built, target)


# ---------------------------------------------------------------- helpers

SNAPSHOT_PAGE = 4096


def pack_snapshot(full: bytes, level: int = 19) -> bytes:
    """The memory snapshot as the browser gets it; runtime/sparse-snapshot.mjs
    reads it and documents the layout. Pages of zeros are left out (9 of
    24 MB) and the rest is compressed with Zstandard: 4 MB, where gzip made
    6.3 MB, and unpacked in a fraction of gzip's time. Shipped compressed, so
    it travels small even from a host that compresses nothing."""
    view = memoryview(full)
    zero = bytes(SNAPSHOT_PAGE)
    runs: list[list[int]] = []
    for start in range(0, len(full), SNAPSHOT_PAGE):
        page = view[start:start + SNAPSHOT_PAGE]
        if page == zero[:len(page)]:
            continue
        if runs and sum(runs[-1]) == start:
            runs[-1][1] += len(page)
        else:
            runs.append([start, len(page)])
    head = struct.pack("<4sIII", b"SPSN", 2, len(full), len(runs))
    head += b"".join(struct.pack("<II", offset, length) for offset, length in runs)
    data = b"".join(view[offset:offset + length] for offset, length in runs)
    return head + zstandard.ZstdCompressor(level=level).compress(data)



def _runtime_version() -> str:
    package = RUNTIME_NPM / "package.json"
    if not package.exists():
        raise PluginError("The npm pyodide package is missing: run `make setup` (it runs `npm ci`).")
    return json.loads(package.read_text())["version"]


def _inputs() -> list[Path]:
    code = sorted((ROOT / "calculators").glob("*.py"))
    wheels = sorted(WHEELS.glob("*.whl"))
    if not wheels:
        raise PluginError("No icepool wheel in .cache/wheels: run `make setup`.")
    web = sorted(WEB.glob("*"))
    if not ZSTD_DECODER.exists():
        raise PluginError("The npm zstddec package is missing: run `make setup` (it runs `npm ci`).")
    return [*code, *wheels, *web, ROOT / "pyproject.toml", Path(__file__), RUNTIME_NPM / "package.json", ZSTD_DECODER]


def _digest(version: str) -> str:
    h = hashlib.sha256(version.encode())
    for path in _inputs():
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:12]


def _run(cmd: list[str], what: str, cwd: Path = ROOT) -> None:
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if proc.returncode:
        raise PluginError(f"{what} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")


def _prune_lock(path: Path, root: str) -> None:
    """Keep only the packages the calculators need: the browser reads the lock
    file before anything else, and the full one lists hundreds of packages
    this site does not ship."""
    lock = json.loads(path.read_text())
    packages = lock["packages"]
    keep, todo = set(), [root]
    while todo:
        name = todo.pop()
        if name not in keep:
            keep.add(name)
            todo += packages[name]["depends"]
    lock["packages"] = {name: packages[name] for name in sorted(keep)}
    path.write_text(json.dumps(lock, indent=1))


def _build(out: Path) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="pyodide-", dir=CACHE.parent if CACHE.parent.exists() else None))
    try:
        wheels = tmp / "wheels"
        wheels.mkdir()
        _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
              "--disable-pip-version-check", "-w", str(wheels), str(ROOT)], "Building the calculators wheel")
        for wheel in WHEELS.glob("*.whl"):
            shutil.copy2(wheel, wheels)
        stage = tmp / "runtime"
        stage.mkdir()
        for name in RUNTIME_FILES:
            shutil.copy2(RUNTIME_NPM / name, stage)
        for wheel in wheels.glob("*.whl"):
            shutil.copy2(wheel, stage)
        pyodide_cli = Path(sys.executable).parent / "pyodide"
        _run([str(pyodide_cli), "lockfile", "add-wheels", "--input", str(RUNTIME_NPM / "pyodide-lock.json"),
              "--output", str(stage / "pyodide-lock.json"), "--base-path", str(stage),
              *map(str, sorted(stage.glob("*.whl")))], "Adding the wheels to pyodide-lock.json")
        _prune_lock(stage / "pyodide-lock.json", "calculators")
        for path in WEB.iterdir():
            shutil.copy2(path, stage)
        shutil.copy2(ZSTD_DECODER, stage)
        _run(["node", str(WEB / "make-snapshot.mjs"), str(stage)], "Making the Pyodide memory snapshot")
        (stage / "make-snapshot.mjs").unlink()
        raw = stage / "snapshot.raw"
        (stage / "snapshot.bin.zst").write_bytes(pack_snapshot(raw.read_bytes()))
        raw.unlink()
        manifest = {"files": sorted(p.name for p in stage.iterdir())}
        (stage / "manifest.json").write_text(json.dumps(manifest))
        if out.exists():
            shutil.rmtree(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(stage), out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
