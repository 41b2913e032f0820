"""The sparse memory snapshot (runtime/sparse-snapshot.mjs): what the build
packs, the browser gets back byte for byte, however the download is cut into
chunks; a damaged file is refused in words, never restored half-empty."""

from __future__ import annotations

import base64
import json
import shutil
import struct
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.node
PAGE = 4096


def run_cases(cases: list[dict]) -> list[dict]:
    node = shutil.which("node")
    assert node, "Node.js is needed for the snapshot format tests (make setup installs it)"
    proc = subprocess.run([node, "tests/sparse_snapshot_runner.mjs"], input=json.dumps(cases),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def memory(pages: list[int], tail: int = 0) -> bytes:
    """Pages of zeros (0) or of a repeated non-zero byte, then a short last page."""
    body = b"".join(bytes([p]) * PAGE for p in pages)
    return body + bytes([7]) * tail


@st.composite
def snapshots(draw):
    pages = draw(st.lists(st.sampled_from([0, 0, 1, 200]), max_size=12))
    tail = draw(st.integers(0, PAGE - 1))
    data = bytearray(memory(pages, tail))
    for _ in range(draw(st.integers(0, 4))):  # a few stray bytes in otherwise empty pages
        if data:
            data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(1, 255))
    chunks = draw(st.lists(st.integers(1, 3 * PAGE), max_size=5))
    return bytes(data), chunks


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(snapshots(), min_size=1, max_size=8))
def test_unpack_gives_back_what_was_packed(batch):
    results = run_cases([{"full": b64(data), "chunks": chunks} for data, chunks in batch])
    for (data, _), result in zip(batch, results):
        assert result["ok"], result
        assert base64.b64decode(result["full"]) == data
        assert result["lengths"] == [len(data)]  # told once, from the header


def test_empty_pages_are_left_out_and_the_header_comes_first():
    data = memory([0, 0, 9, 0, 9, 9, 0, 0], tail=10)
    [whole, byte_by_byte] = run_cases([{"full": b64(data), "chunks": []}, {"full": b64(data), "chunks": [1]}])
    non_zero = 3 * PAGE + 10
    runs = 3  # page 2, pages 4-5, the tail
    assert whole["packedLength"] == 16 + 8 * runs + non_zero
    assert base64.b64decode(byte_by_byte["full"]) == data


def sparse(full_length: int, runs: list[tuple[int, int]], body: bytes, magic: bytes = b"SPSN", version: int = 1) -> str:
    head = magic + struct.pack("<III", version, full_length, len(runs))
    head += b"".join(struct.pack("<II", offset, length) for offset, length in runs)
    return b64(head + body)


def test_a_damaged_file_is_refused_in_words():
    cases = [
        {"sparse": sparse(8, [(0, 4)], b"abcd", magic=b"XXXX"), "chunks": []},
        {"sparse": sparse(8, [(0, 4)], b"abcd", version=2), "chunks": []},
        {"sparse": sparse(8, [(0, 4)], b"ab"), "chunks": []},
        {"sparse": sparse(8, [(0, 4)], b"abcdef"), "chunks": []},
        {"sparse": b64(b"SPSN"), "chunks": []},
    ]
    errors = [r.get("error") for r in run_cases(cases)]
    assert errors == [
        "the snapshot file is not in the expected format",
        "the snapshot file is not in the expected format",
        "the snapshot file is cut short",
        "the snapshot file is longer than it says",
        "the snapshot file is cut short",
    ]


def test_the_shipped_snapshot_unpacks_to_a_pyodide_snapshot(site):
    import gzip

    runtime = next((site / "pyodide").iterdir())
    packed = gzip.decompress((runtime / "snapshot.bin.gz").read_bytes())
    magic, version, full_length, count = struct.unpack_from("<4sIII", packed)
    assert (magic, version) == (b"SPSN", 1)
    runs = [struct.unpack_from("<II", packed, 16 + 8 * i) for i in range(count)]
    assert sum(length for _, length in runs) == len(packed) - 16 - 8 * count
    assert all(a + la < b for (a, la), (b, _) in zip(runs, runs[1:]))  # ordered, apart
    # Pyodide's own snapshot starts with its magic at offset 0.
    assert runs[0][0] == 0 and packed[16 + 8 * count:][:4] == b"\0snp"
    assert len(packed) < 0.8 * full_length  # the point of the format
