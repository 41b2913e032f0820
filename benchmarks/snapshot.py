"""What the memory snapshot is made of, for `make bench` (issue 14.2).

The packed file (runtime/build.py `pack_snapshot`, read by
runtime/sparse-snapshot.mjs) is unpacked and its 4 KiB pages sorted into
zero pages (not shipped), pages equal to the wasm's initial memory (its
active data segments, which the browser already has once pyodide.asm.wasm is
instantiated), and the rest. `python -m benchmarks.snapshot SITE_DIR` also
prints the packed size for other zstd levels and windows, and without the
pages equal to the initial memory: the directions the issue lists, measured.
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

import zstandard

PAGE = 4096
MEMORY_BASE = 1024  # 0.29.5's pyodide.asm.js: new WebAssembly.Global({value:"i32",mutable:false},1024); 314's wasm gives constant offsets


def unpack(packed: bytes) -> bytes:
    magic, version, full_length, count = struct.unpack_from("<4sIII", packed)
    if magic != b"SPSN" or version != 2:
        raise ValueError("not a version 2 sparse snapshot")
    runs = [struct.unpack_from("<II", packed, 16 + 8 * i) for i in range(count)]
    data = zstandard.ZstdDecompressor().decompress(packed[16 + 8 * count:], max_output_size=full_length)
    full = bytearray(full_length)
    at = 0
    for offset, length in runs:
        full[offset:offset + length] = data[at:at + length]
        at += length
    return bytes(full)


def _leb(buf: bytes, at: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        byte = buf[at]
        at += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return result, at


def _sleb(buf: bytes, at: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        byte = buf[at]
        at += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            if byte & 0x40:
                result -= 1 << shift
            return result, at


def initial_memory(wasm: bytes, size: int) -> bytes:
    """Memory 0 as instantiating `wasm` leaves it: its active data segments
    (offsets given as i32.const) written over zeros."""
    memory = bytearray(size)
    at = 8
    while at < len(wasm):
        section = wasm[at]
        length, at = _leb(wasm, at + 1)
        end = at + length
        if section == 11:  # data
            count, p = _leb(wasm, at)
            for _ in range(count):
                flags, p = _leb(wasm, p)
                if flags == 1:  # passive: not in memory until memory.init
                    n, p = _leb(wasm, p)
                    p += n
                    continue
                if flags == 2:
                    _, p = _leb(wasm, p)  # memory index
                if wasm[p] == 0x41:  # i32.const
                    offset, p = _sleb(wasm, p + 1)
                elif wasm[p] == 0x23:  # global.get: __memory_base, the only import of a main module's data
                    _, p = _leb(wasm, p + 1)
                    offset = MEMORY_BASE
                else:
                    raise ValueError("a data segment whose offset is neither a constant nor __memory_base")
                assert wasm[p] == 0x0B
                n, p = _leb(wasm, p + 1)
                memory[offset:offset + n] = wasm[p:p + n]
                p += n
        at = end
    return bytes(memory)


def make_up(runtime_dir: Path) -> dict:
    """Sizes of the snapshot in `runtime_dir` and its pages by kind."""
    packed = (runtime_dir / "snapshot.bin.zst").read_bytes()
    full = unpack(packed)
    # Pyodide's own header ("\0snp", its length at byte 4) comes before the memory.
    head = struct.unpack_from("<I", full, 4)[0] if full[:4] == b"\0snp" else 0
    init = bytes(head) + initial_memory((runtime_dir / "pyodide.asm.wasm").read_bytes(), len(full) - head)
    zero = bytes(PAGE)
    kinds = {"zero": 0, "initial": 0, "rest": 0}
    for at in range(0, len(full), PAGE):
        page = full[at:at + PAGE]
        kind = "zero" if page == zero[:len(page)] else "initial" if page == init[at:at + len(page)] else "rest"
        kinds[kind] += len(page)
    return {"raw": len(full), "packed": len(packed), **kinds, "full": full, "init": init}


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
    compressor = zstandard.ZstdCompressor(compression_params=params) if params else zstandard.ZstdCompressor(level=level)
    return 16 + 8 * runs + len(compressor.compress(bytes(kept)))


def main(site: Path) -> None:
    runtime = next((site / "pyodide").iterdir())
    m = make_up(runtime)
    print(f"snapshot {m['raw'] / 1e6:.2f} MB raw, {m['packed'] / 1e6:.2f} MB packed; zero pages {m['zero'] / 1e6:.2f} MB, "
          f"equal to the initial memory {m['initial'] / 1e6:.2f} MB, the rest {m['rest'] / 1e6:.2f} MB")
    print(f"  without the pages equal to the initial memory: {pack(m['full'], m['init']) / 1e6:.3f} MB")
    for level, window in ((19, None), (19, 23), (19, 24), (22, None), (22, 25), (12, None), (3, None)):
        print(f"  zstd level {level}, window {window or 'default'}: {pack(m['full'], level=level, window_log=window) / 1e6:.3f} MB")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "site")
