"""The memory snapshot's file: what the build packs (pack_snapshot in
runtime/build.py) the browser gets back byte for byte
(runtime/sparse-snapshot.mjs), however the download is cut into chunks; a
damaged file is refused in words, never restored half-empty."""

from __future__ import annotations

import base64
import json
import shutil
import struct
import subprocess

import pytest
import zstandard
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ROOT, load_module
import itertools

pytestmark = pytest.mark.node
PAGE = 4096


pack_snapshot = load_module("runtime/build.py").pack_snapshot


def unpack_all(cases: list[tuple[bytes, list[int]]]) -> list[dict]:
    """Packed files and chunk sizes in; what the browser's code made of them out."""
    node = shutil.which("node")
    assert node, "Node.js is needed for the snapshot format tests (make setup installs it)"
    payload = [{"packed": base64.b64encode(packed).decode(), "chunks": chunks} for packed, chunks in cases]
    proc = subprocess.run([node, "tests/sparse_snapshot_runner.mjs"], input=json.dumps(payload),
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


def memory(pages: list[int], tail: int = 0) -> bytes:
    """Pages of zeros (0) or of a repeated non-zero byte, then a short last page."""
    return b"".join(bytes([p]) * PAGE for p in pages) + bytes([7]) * tail


@st.composite
def snapshots(draw):
    pages = draw(st.lists(st.sampled_from([0, 0, 1, 200]), max_size=12))
    data = bytearray(memory(pages, draw(st.integers(0, PAGE - 1))))
    for _ in range(draw(st.integers(0, 4))):  # a few stray bytes in otherwise empty pages
        if data:
            data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(1, 255))
    chunks = draw(st.lists(st.integers(1, 3 * PAGE), max_size=5))
    return bytes(data), chunks


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(snapshots(), min_size=1, max_size=8))
def test_unpack_gives_back_what_was_packed(batch):
    results = unpack_all([(pack_snapshot(data, level=3), chunks) for data, chunks in batch])
    for (data, _), result in zip(batch, results):
        assert result["ok"], result
        assert base64.b64decode(result["full"]) == data
        assert result["lengths"] == [len(data)]  # told once, from the header


def test_empty_pages_are_left_out_and_the_header_comes_first():
    data = memory([0, 0, 9, 0, 9, 9, 0, 0], tail=10)
    packed = pack_snapshot(data)
    runs = [(2 * PAGE, PAGE), (4 * PAGE, 2 * PAGE), (8 * PAGE, 10)]
    head = struct.pack("<4sIII", b"SPSN", 2, len(data), 3) + b"".join(struct.pack("<II", *r) for r in runs)
    assert packed.startswith(head)
    assert zstandard.ZstdDecompressor().decompress(packed[len(head):]) == bytes([9]) * (3 * PAGE) + bytes([7]) * 10
    [byte_by_byte] = unpack_all([(packed, [1])])
    assert base64.b64decode(byte_by_byte["full"]) == data


def test_a_damaged_file_is_refused_in_words():
    good = pack_snapshot(memory([0, 5, 5], tail=3))
    head = 16 + 8 * 1
    overlapping = bytearray(good)
    struct.pack_into("<II", overlapping, 16, 3 * PAGE, PAGE)  # a run past the end of memory
    cases = [
        (b"XXXX" + good[4:], []),
        (good[:4] + struct.pack("<I", 1) + good[8:], []),
        (good[:10], []),
        (good[:head], []),
        (good[:-5], [7]),
        (good[:head] + b"not zstd at all", []),
        (bytes(overlapping), []),
    ]
    results = unpack_all(cases)
    assert [r.get("error") for r in results] == [
        "the snapshot file is not in the expected format",
        "the snapshot file is not in the expected format",
        "the snapshot file is cut short",
        "the snapshot file is damaged or cut short",
        "the snapshot file is damaged or cut short",
        "the snapshot file is damaged or cut short",
        "the snapshot file is not in the expected format",
    ]
    assert results[4]["lengths"] == [3 * PAGE + 3]  # the header was read before the cut showed


def test_the_shipped_snapshot_is_a_packed_pyodide_snapshot(site):
    runtime = next((site / "pyodide").iterdir())
    packed = (runtime / "snapshot.bin.zst").read_bytes()
    magic, version, full_length, count = struct.unpack_from("<4sIII", packed)
    assert (magic, version) == (b"SPSN", 2)
    runs = [struct.unpack_from("<II", packed, 16 + 8 * i) for i in range(count)]
    data = zstandard.ZstdDecompressor().decompress(packed[16 + 8 * count:])
    assert len(data) == sum(length for _, length in runs)
    assert all(a + la < b for (a, la), (b, _) in itertools.pairwise(runs))  # in order, apart
    assert runs[0][0] == 0 and data[:4] == b"\0snp"  # Pyodide's own snapshot magic
    assert len(packed) < 0.2 * full_length  # 4 of 24 MB: the point of the format
