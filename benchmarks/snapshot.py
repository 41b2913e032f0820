"""What the memory snapshot is made of, for `make bench`.

The packed file (runtime/build.py `pack_snapshot`, read by
runtime/sparse-snapshot.mjs) is unpacked and its 4 KiB pages sorted into
zero pages (not shipped), pages equal to the wasm's initial memory (its
active data segments, which the browser already has once pyodide.asm.wasm is
instantiated: not shipped either), and the rest.
`python -m benchmarks.snapshot SITE_DIR` also prints the packed size for
other zstd levels and windows, and with the pages equal to the initial
memory shipped: the ways to make it smaller, measured.
"""

from __future__ import annotations

import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

import zstandard

from runtime import build

PAGE = 4096
FIXED = 28  # the file's header before its runs (runtime/sparse-snapshot.mjs)


def unpack(packed: bytes, wasm: bytes) -> bytes:
    """The full snapshot: the stored runs, and the initial runs from `wasm`'s data."""
    magic, version, full_length, count, offset, initial_count, _ = struct.unpack_from("<4sIIIIII", packed)
    if magic != b"SPSN" or version != 3:
        raise ValueError("not a version 3 sparse snapshot")
    runs = [struct.unpack_from("<II", packed, FIXED + 8 * i) for i in range(count + initial_count)]
    data = zstandard.ZstdDecompressor().decompress(packed[FIXED + 8 * len(runs):], max_output_size=full_length)
    full = bytearray(full_length)
    at = 0
    for start, length in runs[:count]:
        full[start:start + length] = data[at:at + length]
        at += length
    if initial_count:
        initial = build.initial_memory(wasm)
        for start, length in runs[count:]:
            full[start:start + length] = initial[start - offset:start - offset + length].ljust(length, b"\0")
    return bytes(full)


def make_up(runtime_dir: Path) -> dict:
    """Sizes of the snapshot in `runtime_dir` and its pages by kind."""
    packed = (runtime_dir / "snapshot.bin.zst").read_bytes()
    wasm = (runtime_dir / "pyodide.asm.wasm").read_bytes()
    full = unpack(packed, wasm)
    head = build.pyodide_memory_offset(full)
    memory = build.initial_memory(wasm) or b""
    init = bytes(head) + memory + bytes(max(0, len(full) - head - len(memory)))
    zero = bytes(PAGE)
    kinds = {"zero": 0, "initial": 0, "rest": 0}
    for at in range(0, len(full), PAGE):
        page = full[at:at + PAGE]
        initial = at >= head and page == init[at:at + len(page)]
        kind = "zero" if page == zero[:len(page)] else "initial" if initial else "rest"
        kinds[kind] += len(page)
    return {"raw": len(full), "packed": len(packed), **kinds, "full": full, "init": init}


def floor(runtime_dir: Path) -> int:
    """The packed size of a snapshot of Pyodide alone (runtime/make-snapshot.mjs
    --bare: no wheel installed, nothing of the calculators imported), packed as
    the build packs ours: what no change to our code can take off."""
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"):
            shutil.copy2(runtime_dir / name, tmp)
        script = Path(__file__).resolve().parent.parent / "runtime" / "make-snapshot.mjs"
        subprocess.run(["node", str(script), tmp, "--bare"], check=True, capture_output=True, timeout=300)
        full = (Path(tmp) / "snapshot.raw").read_bytes()
        initial = build.initial_memory((runtime_dir / "pyodide.asm.wasm").read_bytes())
        return len(build.pack_snapshot(full, initial=initial, initial_offset=build.pyodide_memory_offset(full)))


def declared_memory(wasm: bytes) -> int:
    """The bytes of memory `wasm` declares in its memory section (its initial pages): what Pyodide 314
    restores a snapshot into unless runtime/pyodide-private.mjs `growTo` grows it first. Read with
    runtime/build.py's own LEB128 reader."""
    leb = build._leb
    at = 8
    while at < len(wasm):
        section = wasm[at]
        size, at = leb(wasm, at + 1)
        if section == 5:  # memory: count, then flags and the initial pages of the first
            _, at = leb(wasm, at)
            _, at = leb(wasm, at)
            return leb(wasm, at)[0] * 65536
        at += size
    raise ValueError("the wasm declares no memory")


def pack(full: bytes, skip_initial: bytes | None = None, level: int = 19, window_log: int | None = None) -> int:
    """The packed size pack_snapshot() would give, leaving out zero pages and,
    with `skip_initial`, pages equal to it; a different level or window."""
    zero = bytes(PAGE)
    kept = bytearray()
    runs = 0
    last_end = -1
    for at in range(0, len(full), PAGE):
        page = full[at:at + PAGE]
        if page == zero[:len(page)] or (skip_initial is not None and page == skip_initial[at:at + len(page)]):
            continue
        runs += at != last_end
        last_end = at + len(page)
        kept += page
    params = zstandard.ZstdCompressionParameters.from_level(level, window_log=window_log) if window_log else None
    compressor = (zstandard.ZstdCompressor(compression_params=params) if params
                  else zstandard.ZstdCompressor(level=level))
    return FIXED + 8 * runs + len(compressor.compress(bytes(kept)))


def main(site: Path) -> None:
    runtime = next((site / "pyodide").iterdir())
    m = make_up(runtime)
    print(f"snapshot {m['raw'] / 1e6:.2f} MB raw, {m['packed'] / 1e6:.2f} MB packed; "
          f"zero pages {m['zero'] / 1e6:.2f} MB, equal to the initial memory {m['initial'] / 1e6:.2f} MB, "
          f"the rest {m['rest'] / 1e6:.2f} MB")
    print(f"  with the pages equal to the initial memory shipped: {pack(m['full']) / 1e6:.3f} MB")
    for level, window in ((19, None), (19, 23), (19, 24), (22, None), (22, 25), (12, None), (3, None)):
        size = pack(m['full'], m['init'], level=level, window_log=window)
        print(f"  zstd level {level}, window {window or 'default'}: {size / 1e6:.3f} MB")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "site")
