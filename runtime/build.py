"""Build the calculators' browser runtime: self-hosted Pyodide with the
calculators in it, ready to copy into the site.

    .venv/bin/python -m runtime.build          # build, or say where the cached build is
    .venv/bin/python -m runtime.build --force  # build again even if cached

Steps, each printed:
1. check that the installed Pyodide is the version runtime/pyodide-private.mjs
   was checked against (its private calls are only known to work there);
2. build the `calculators` wheel (pure Python) next to the pinned icepool
   wheel that `make setup` fetched;
3. register both in a pruned `pyodide-lock.json` (the `pyodide_lock` API), so
   the browser loads them with their sha256 checked;
4. make a memory snapshot in Node from the same files, with the calculators
   already imported (runtime/make-snapshot.mjs), and pack it for the browser
   (`pack_snapshot`: empty pages and pages equal to the wasm's initial memory
   out, Zstandard; read by sparse-snapshot.mjs), and pyodide.asm.wasm too
   (`pyodide.asm.wasm.zst`, which pyodide-private.mjs decodes as it arrives:
   2.9 MB on the line where gzip makes 3.5 MB);
5. write `manifest.json`: the version, the digest, each file's size and
   sha256, the unpacked snapshot's length and sha256, and the fallbacks
   (a file fetched only where another is missing: FALLBACK). rulebook/site/runtime.py copies the folder into the site as
   `pyodide/<version>-<digest>/`; rulebook/site/offline.py reads the manifest and
   puts the digests into the service worker, which refuses to cache a file
   that does not match.

The result is cached in `.cache/pyodide/<digest>/`, the digest covering every
input (the calculators, the wheels, runtime/, the npm packages), so a second
build costs nothing; a cached folder whose files no longer match its manifest
is built again.
"""

from __future__ import annotations

import argparse
import array
import hashlib
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from typing import NamedTuple
from collections.abc import Callable

import zstandard


ROOT = Path(__file__).resolve().parent.parent
HERE = ROOT / "runtime"
RUNTIME_NPM = ROOT / "node_modules" / "pyodide"
# pyodide.asm.mjs is a module since Pyodide 314
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
# Unpacks the snapshot and pyodide.asm.wasm.zst in the browser: zstddec's
# streaming build (its one-shot decode too), shipped as zstddec.mjs.
ZSTD_DECODER = ROOT / "node_modules" / "zstddec" / "dist" / "zstddec-stream.mjs"
WASM_LEVEL = 19  # zstd: 9.6 MB of wasm in 2.89 MB (gzip -9: 3.54 MB); 22 gains 1 kB
ADAPTER = HERE / "pyodide-private.mjs"
MINIFY = HERE / "minify.mjs"  # esbuild: the shipped modules, stylesheets and page scripts without their comments
ESBUILD = ROOT / "node_modules" / "esbuild" / "package.json"  # its version: a new one may write the modules otherwise
# What the browser gets from runtime/ (make-snapshot.mjs and this file stay behind).
SHIPPED = ("calc-worker.mjs", "snapshot-worker.mjs", "sparse-snapshot.mjs", "late-stdlib.mjs",
           "pyodide-private.mjs", "warm-up.py")
WHEELS = ROOT / ".cache" / "wheels"  # third-party wheels fetched by `make setup`
CACHE = ROOT / ".cache" / "pyodide"
MANIFEST = "manifest.json"
SNAPSHOT_PAGE = 4096
# File -> the file the browser fetches instead: the first is fetched only
# where the second is missing (pyodide-private.mjs, compressedWasm), so the
# service worker does not cache it ahead (rulebook/site/offline.py).
FALLBACK = {"pyodide.asm.wasm": "pyodide.asm.wasm.zst"}


class BuildError(Exception):
    """A step failed; the message says which and why."""


class Runtime(NamedTuple):
    """One build of the runtime: what it is called and where its files are."""

    version: str  # Pyodide's
    digest: str  # of every input
    path: Path  # the built files, in the cache

    @property
    def folder(self) -> str:
        """The folder in the site, relative to its root."""
        return f"pyodide/{self.version}-{self.digest}/"

    def manifest(self) -> dict:
        return json.loads((self.path / MANIFEST).read_text())

    def files(self) -> dict[str, dict]:
        """File name -> {size, sha256}, for every file the browser may fetch."""
        return self.manifest()["files"]


# ---------------------------------------------------------------- the build


def plan() -> Runtime:
    """The runtime the current inputs make: cheap, builds nothing."""
    version = pyodide_version()
    digest = _digest(version)
    return Runtime(version, digest, CACHE / digest)


def build(force: bool = False, say: Callable[[str], None] = print) -> Runtime:
    """The runtime for the current inputs, built unless a sound copy is cached."""
    runtime = plan()
    if not force and _sound(runtime):
        say(f"Pyodide runtime {runtime.folder}: cached in {_shown(runtime.path)}")
        return runtime
    started = time.monotonic()
    CACHE.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="build-", dir=CACHE))
    try:
        stage = tmp / "runtime"
        stage.mkdir()
        snapshot = _stage(stage, say)
        _write_manifest(stage, runtime, snapshot)
        if runtime.path.exists():
            shutil.rmtree(runtime.path)
        try:
            os.replace(stage, runtime.path)
        except OSError:
            if not _sound(runtime):  # not another build's, finished meanwhile
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    files = runtime.files()
    size = sum(f["size"] for f in files.values())
    say(f"Pyodide runtime {runtime.folder}: built in {time.monotonic() - started:.0f} s into "
        f"{_shown(runtime.path)} ({len(files)} files, {size / 1e6:.1f} MB)")
    return runtime


def _stage(stage: Path, say: Callable[[str], None]) -> dict:
    """The runtime's files in `stage`; what the packed snapshot unpacks to
    (its length and sha256, for the manifest: tests check the file against it)."""
    wheels = stage.parent / "wheels"
    wheels.mkdir()
    say("  building the calculators wheel")
    # setuptools copies the package into build/lib/ and keeps there what the
    # source no longer has: a module deleted or moved would go into the wheel
    shutil.rmtree(ROOT / "build", ignore_errors=True)
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
          "--disable-pip-version-check", "-w", str(wheels), str(ROOT)], "Building the calculators wheel")
    for wheel in wheels.glob("*.whl"):
        calculators_only(wheel)
    for wheel in [*WHEELS.glob("*.whl"), *wheels.glob("*.whl")]:
        shutil.copy2(wheel, stage)
    for name in RUNTIME_FILES:
        shutil.copy2(RUNTIME_NPM / name, stage)
    say("  writing pyodide-lock.json with " + ", ".join(sorted(p.name for p in stage.glob("*.whl"))))
    write_lock(stage, root="calculators")
    modules = minify({name: (HERE / name).read_text(encoding="utf-8") for name in SHIPPED if name.endswith(".mjs")})
    for name in SHIPPED:
        if name in modules:  # without comments (esbuild, runtime/minify.mjs)
            (stage / name).write_text(modules[name], encoding="utf-8")
        else:
            shutil.copy2(HERE / name, stage)
    shutil.copy2(ZSTD_DECODER, stage / "zstddec.mjs")
    wasm = (stage / "pyodide.asm.wasm").read_bytes()
    (stage / "pyodide.asm.wasm.zst").write_bytes(zstandard.ZstdCompressor(level=WASM_LEVEL).compress(wasm))
    say("  making the memory snapshot in Node (runtime/make-snapshot.mjs)")
    _run(["node", str(HERE / "make-snapshot.mjs"), str(stage)], "Making the Pyodide memory snapshot")
    raw = stage / "snapshot.raw"
    full = raw.read_bytes()
    initial = initial_memory((stage / "pyodide.asm.wasm").read_bytes())
    if initial is None:
        say("  pyodide.asm.wasm's data is not at fixed addresses (or it has a start function): "
            "the snapshot keeps the pages equal to its initial memory")
    packed = pack_snapshot(full, initial=initial, initial_offset=pyodide_memory_offset(full))
    (stage / "snapshot.bin.zst").write_bytes(packed)
    raw.unlink()
    say(f"  packed the snapshot: {len(full) / 1e6:.1f} MB of memory in {len(packed) / 1e6:.1f} MB")
    return {"length": len(full), "sha256": hashlib.sha256(full).hexdigest()}


def calculators_only(wheel: Path) -> None:
    """The project's wheel without its build-time packages (rulebook, runtime): the browser imports calculators
    alone, and every byte of the wheel is fetched before a first result. Its RECORD and top_level.txt follow."""
    with zipfile.ZipFile(wheel) as old:
        kept = [info for info in old.infolist() if _shipped(info.filename)]
        files = {info.filename: old.read(info) for info in kept}
    for name in files:
        if name.endswith(".dist-info/RECORD"):
            lines = files[name].decode().splitlines(keepends=True)
            files[name] = "".join(line for line in lines if _shipped(line.split(",", 1)[0])).encode()
        elif name.endswith(".dist-info/top_level.txt"):
            files[name] = b"calculators\n"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as new:
        for info in kept:
            new.writestr(info, files[info.filename])


def _shipped(name: str) -> bool:
    top = name.split("/", 1)[0]
    return top == "calculators" or top.endswith(".dist-info")


def write_lock(stage: Path, root: str) -> None:
    """The npm package's lock file plus the wheels in `stage`, keeping only
    `root` and what it needs: the browser reads the lock file before anything
    else, and the full one lists hundreds of packages this site does not ship."""
    from pyodide_lock import PyodideLockSpec
    from pyodide_lock.utils import add_wheels_to_spec

    spec = PyodideLockSpec.from_json(RUNTIME_NPM / "pyodide-lock.json")
    try:
        spec = add_wheels_to_spec(spec, sorted(stage.glob("*.whl")), base_path=stage)
    except RuntimeError as err:  # a requirement the lock file lacks
        raise BuildError(f"Adding the wheels to pyodide-lock.json failed: {err}") from err
    keep, todo = set(), [root]
    while todo:
        name = todo.pop()
        if name not in keep:
            keep.add(name)
            todo += spec.packages[name].depends
    spec.packages = {name: spec.packages[name] for name in sorted(keep)}
    spec.to_json(stage / "pyodide-lock.json", indent=1)


def _write_manifest(stage: Path, runtime: Runtime, snapshot: dict) -> None:
    files = {}
    for path in sorted(stage.iterdir()):
        data = path.read_bytes()
        files[path.name] = {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    manifest = {"pyodide": runtime.version, "digest": runtime.digest, "files": files, "snapshot": snapshot,
                "fallback": FALLBACK}
    (stage / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")


def _sound(runtime: Runtime) -> bool:
    """The cached copy is complete and every file is what its manifest says."""
    try:
        files = runtime.files()
    except (OSError, ValueError, KeyError):
        return False
    on_disk = {p.name for p in runtime.path.iterdir()} - {MANIFEST}
    if on_disk != set(files):
        return False
    for name, want in files.items():
        path = runtime.path / name
        if path.stat().st_size != want["size"] or hashlib.sha256(path.read_bytes()).hexdigest() != want["sha256"]:
            return False
    return True


# ---------------------------------------------------------------- helpers


def pack_snapshot(full: bytes, level: int = 19, initial: bytes | None = None, initial_offset: int = 0) -> bytes:
    """The memory snapshot as the browser gets it; runtime/sparse-snapshot.mjs
    reads it and documents the layout. Pages of zeros are left out (14 of
    31 MB), and so are the pages equal to `initial`, the memory
    pyodide.asm.wasm starts with (its data: 3.4 MB, 1 MB once compressed),
    which the browser copies from the memory it has just instantiated
    (`initial` starts at byte `initial_offset` of the snapshot, after
    Pyodide's own header). The rest is compressed with Zstandard: 4 MB, where
    gzip made 6.8 MB, and unpacked in a fraction of gzip's time. Shipped
    compressed, so it travels small even from a host that compresses nothing."""
    view = memoryview(full)
    zero = bytes(SNAPSHOT_PAGE)
    runs: list[list[int]] = []  # stored
    from_initial: list[list[int]] = []  # copied from the initial memory
    for start in range(0, len(full), SNAPSHOT_PAGE):
        page = view[start:start + SNAPSHOT_PAGE]
        if page == zero[:len(page)]:
            continue
        at = start - initial_offset
        same = initial is not None and at >= 0 and page == initial[at:at + len(page)].ljust(len(page), b"\0")
        kind = from_initial if same else runs
        if kind and sum(kind[-1]) == start:
            kind[-1][1] += len(page)
        else:
            kind.append([start, len(page)])
    digest = initial_digest(b"".join(view[offset:offset + length] for offset, length in from_initial))
    head = struct.pack("<4sIIIIII", b"SPSN", 3, len(full), len(runs), initial_offset, len(from_initial), digest)
    head += b"".join(struct.pack("<II", offset, length) for offset, length in runs + from_initial)
    data = b"".join(view[offset:offset + length] for offset, length in runs)
    return head + zstandard.ZstdCompressor(level=level).compress(data)


def initial_digest(data: bytes) -> int:
    """A 32-bit check of the bytes taken from the initial memory, as
    runtime/sparse-snapshot.mjs computes it (FNV-1a over little-endian 32-bit
    words, a last short word zero-padded): any single changed word changes it."""
    words = array.array("I", data[:len(data) // 4 * 4])
    if sys.byteorder != "little":
        words.byteswap()
    if len(data) % 4:
        words.append(int.from_bytes(data[len(data) // 4 * 4:], "little"))
    h = 0x811C9DC5
    for word in words:
        h = ((h ^ word) * 0x01000193) & 0xFFFFFFFF
    return h


def pyodide_memory_offset(full: bytes) -> int:
    """Where the memory starts in a Pyodide snapshot: after its header
    ("\\0snp", the header's length; API.restoreSnapshot in pyodide.asm.mjs
    copies the snapshot from there into memory at address 0)."""
    magic, length = struct.unpack_from("<4sI", full)
    if magic != b"\0snp" or not 8 <= length < len(full):
        raise BuildError("The memory snapshot does not start with Pyodide's header: "
                         "re-check runtime/pyodide-private.mjs.")
    return length


def initial_memory(wasm: bytes) -> bytes | None:
    """The memory instantiating `wasm` gives, up to its last data byte: its
    active data segments written over zeros. None when that cannot be known
    from the file alone: a segment placed by an imported global (0.29.5's
    __memory_base), or a start function, which runs before anyone sees the
    memory. The browser checks what it copies against the snapshot's digest
    of these bytes, so a mistake here costs a normal boot, never a wrong one."""
    memory = bytearray()
    at = 8
    while at < len(wasm):
        section = wasm[at]
        length, at = _leb(wasm, at + 1)
        end = at + length
        if section == 8:  # start
            return None
        if section == 11:  # data
            count, p = _leb(wasm, at)
            for _ in range(count):
                flags, p = _leb(wasm, p)
                if flags == 1:  # passive: not in memory until memory.init
                    n, p = _leb(wasm, p)
                    p += n
                    continue
                if flags == 2:
                    index, p = _leb(wasm, p)
                    if index:
                        return None
                if wasm[p] != 0x41:  # not i32.const
                    return None
                offset, p = _leb(wasm, p + 1, signed=True)
                if wasm[p] != 0x0B:
                    return None
                n, p = _leb(wasm, p + 1)
                if len(memory) < offset + n:
                    memory.extend(bytes(offset + n - len(memory)))
                memory[offset:offset + n] = wasm[p:p + n]
                p += n
        at = end
    return bytes(memory)


def _leb(buf: bytes, at: int, signed: bool = False) -> tuple[int, int]:
    """A LEB128 number at `at` (unsigned, or signed as a data segment's i32.const offset) and where it ends."""
    result = shift = 0
    while True:
        byte = buf[at]
        at += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            if signed and byte & 0x40:
                result -= 1 << shift
            return result, at


def checked_against() -> str:
    """The Pyodide version runtime/pyodide-private.mjs was checked against."""
    found = re.search(r'^export const CHECKED_AGAINST = "([^"]+)";', ADAPTER.read_text(), re.M)
    if not found:
        raise BuildError(f"{_shown(ADAPTER)} does not say which Pyodide version it was checked against.")
    return found.group(1)


def pyodide_version() -> str:
    package = RUNTIME_NPM / "package.json"
    if not package.exists():
        raise BuildError("The npm pyodide package is missing: run `make setup` (it runs `npm ci`).")
    version = json.loads(package.read_text())["version"]
    if version != checked_against():
        raise BuildError(
            f"Pyodide {version} is installed, but runtime/pyodide-private.mjs was checked against "
            f"{checked_against()}: check each private use listed there in the new version's source, "
            "then update CHECKED_AGAINST.")
    return version


def _inputs() -> list[Path]:
    code = sorted(p for p in (ROOT / "calculators").rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    wheels = sorted(WHEELS.glob("*.whl"))
    if not wheels:
        raise BuildError("No icepool wheel in .cache/wheels: run `make setup`.")
    web = sorted(p for p in HERE.iterdir() if p.is_file())
    if not ZSTD_DECODER.exists():
        raise BuildError("The npm zstddec package is missing: run `make setup` (it runs `npm ci`).")
    return [*code, *wheels, *web, ESBUILD, ROOT / "pyproject.toml", RUNTIME_NPM / "package.json", ZSTD_DECODER]


def _digest(version: str) -> str:
    h = hashlib.sha256(version.encode())
    for path in _inputs():
        h.update(path.relative_to(ROOT).as_posix().encode() + b"\0")
        h.update(path.read_bytes())
    return h.hexdigest()[:12]


def minify(texts: dict[str, str], readable: bool = False) -> dict[str, str]:
    """Each script or stylesheet (name -> text; a name ending in .css is a stylesheet) as esbuild writes it for the
    site (runtime/minify.mjs): without comments, its whitespace minified; `readable`, in esbuild's lines (the tests'
    reference: comments inside an expression stay there)."""
    if not texts:
        return {}
    node = shutil.which("node")
    if node is None:
        raise BuildError("Node.js is needed to write the site's scripts and stylesheets (esbuild): "
                         "install it, then `make setup`.")
    proc = subprocess.run([node, str(MINIFY), *(["--readable"] if readable else [])], cwd=ROOT, input=json.dumps(texts),
                          capture_output=True, text=True, encoding="utf-8")
    if proc.returncode:
        raise BuildError(f"esbuild could not write the site's scripts and stylesheets: {_tail(proc.stderr)}")
    return json.loads(proc.stdout)


def _run(cmd: list[str], what: str) -> None:
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if proc.returncode:
        raise BuildError(f"{what} failed:\n{_tail(proc.stdout)}\n{_tail(proc.stderr)}")


def _tail(output: str, lines: int = 30, width: int = 300) -> str:
    """The end of a command's output, without the megabyte-long lines of
    minified JavaScript that Node quotes around an error."""
    return "\n".join(line if len(line) <= width else line[:width] + " …" for line in output.splitlines()[-lines:])


def _shown(path: Path) -> str:
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the calculators' Pyodide runtime into .cache/pyodide/.")
    parser.add_argument("--force", action="store_true", help="build again even if a sound copy is cached")
    args = parser.parse_args(argv)
    try:
        runtime = build(force=args.force)
    except BuildError as err:
        print(err, file=sys.stderr)
        return 1
    print(runtime.path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
