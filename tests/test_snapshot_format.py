"""The memory snapshot's file: what the build packs (pack_snapshot in
runtime/build.py) the browser gets back byte for byte
(runtime/sparse-snapshot.mjs), however the download is cut into chunks; a
damaged file is refused in words, never restored half-empty."""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
import shutil
import struct
import subprocess

import pytest
import zstandard
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import ROOT

from runtime import build

pytestmark = pytest.mark.node
PAGE = 4096


pack_snapshot = build.pack_snapshot
FIXED = 28  # the header before the runs: magic, version, length, runs, initial offset, initial runs, digest


class Runner:
    """tests/sparse_snapshot_runner.mjs, one Node for the module's tests: a list of cases per line in, a line out."""

    def __init__(self):
        self.proc = None

    def ask(self, payload: list[dict]) -> list[dict]:
        if self.proc is None:
            node = shutil.which("node")
            assert node, "Node.js is needed for the snapshot format tests (make setup installs it)"
            self.proc = subprocess.Popen([node, "tests/sparse_snapshot_runner.mjs"], cwd=ROOT, text=True,
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.proc.stdin.write(json.dumps(payload) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:  # Node ended: say why
            raise AssertionError(self.close()[-3000:])
        return json.loads(line)

    def close(self) -> str:
        """End Node; what it wrote to stderr."""
        proc, self.proc = self.proc, None
        if proc is None:
            return ""
        proc.stdin.close()
        why = proc.stderr.read()
        proc.wait(timeout=30)
        proc.stdout.close()
        proc.stderr.close()
        return why


RUNNER = Runner()


@pytest.fixture(autouse=True, scope="module")
def _runner():
    yield
    RUNNER.close()


def unpack_all(cases: list[tuple]) -> list[dict]:
    """Packed files and chunk sizes in (and, when given, the wasm's initial
    memory the browser copies the left-out pages from, or other flags); what
    the browser's code made of them out."""
    payload = []
    for packed, chunks, *rest in cases:
        case = {"packed": base64.b64encode(packed).decode(), "chunks": chunks}
        if rest and rest[0] is not None:
            case["initial"] = base64.b64encode(rest[0]).decode()
        case.update(rest[1] if len(rest) > 1 else {})
        payload.append(case)
    return RUNNER.ask(payload)


def memory(pages: list[int], tail: int = 0) -> bytes:
    """Pages of zeros (0) or of a repeated non-zero byte, then a short last page."""
    return b"".join(bytes([p]) * PAGE for p in pages) + bytes([7]) * tail


def wasm_memory(initial: bytes, data: bytes) -> bytes:
    """The memory an instance of the wasm has: its data, then zeros (at least
    as far as the snapshot goes)."""
    return initial + bytes(len(data))


@st.composite
def snapshots(draw):
    """A snapshot (a header of `offset` bytes, then memory that starts as
    `initial` and was partly written over) and the initial memory."""
    offset = draw(st.integers(0, 300))
    initial = bytearray(memory(draw(st.lists(st.sampled_from([0, 3, 4]), max_size=6)), draw(st.integers(0, PAGE - 1))))
    for _ in range(draw(st.integers(0, 3))):  # a few odd bytes in the wasm's data
        if initial:
            initial[draw(st.integers(0, len(initial) - 1))] = draw(st.integers(0, 255))
    mem = bytearray(initial) + bytes(draw(st.integers(0, 2 * PAGE)))
    for _ in range(draw(st.integers(0, 3))):  # stretches written over, with zeros or not
        if mem:
            at = draw(st.integers(0, len(mem) - 1))
            n = draw(st.integers(1, 2 * PAGE))
            mem[at:at + n] = bytes([draw(st.sampled_from([0, 1, 200]))]) * len(mem[at:at + n])
    for _ in range(draw(st.integers(0, 4))):  # a few stray bytes
        if mem:
            mem[draw(st.integers(0, len(mem) - 1))] = draw(st.integers(0, 255))
    data = bytes([9]) * offset + bytes(mem)
    chunks = draw(st.lists(st.integers(1, 3 * PAGE), max_size=5))
    return data, chunks, bytes(initial), offset


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(snapshots(), min_size=1, max_size=8))
def test_unpack_gives_back_what_was_packed(batch):
    cases = [(pack_snapshot(data, level=3, initial=initial, initial_offset=offset), chunks, wasm_memory(initial, data))
             for data, chunks, initial, offset in batch]
    results = unpack_all(cases)
    for (data, *_), result in zip(batch, results):
        assert result["ok"], result
        assert base64.b64decode(result["full"]) == data
        assert result["lengths"] == [len(data)]  # told once, from the header


def test_empty_pages_and_pages_of_the_initial_memory_are_left_out_and_the_header_comes_first():
    offset = 100  # Pyodide's header: the memory starts there, not at a page of the file
    initial = memory([0, 4, 4, 0, 4])
    mem = bytearray(initial + memory([0, 0], tail=10))
    mem[2 * PAGE + 5] = 1  # the wasm's data, written over at one byte
    data = bytes([1]) * offset + bytes(mem)
    packed = pack_snapshot(data, initial=initial, initial_offset=offset)
    # File page 0 holds the header: kept. 1 is the initial memory's zeros and
    # 4s: left out. 2 holds the changed byte: kept. 3, 4 and 5 are as the
    # initial memory left them (5 partly past its end: zeros there): left out.
    # 6 is zeros; the short page 7 ends with 7s: kept.
    runs = [(0, PAGE), (2 * PAGE, PAGE), (7 * PAGE, len(data) - 7 * PAGE)]
    from_initial = [(PAGE, PAGE), (3 * PAGE, 3 * PAGE)]
    digest = build.initial_digest(data[PAGE:2 * PAGE] + data[3 * PAGE:6 * PAGE])
    head = struct.pack("<4sIIIIII", b"SPSN", 3, len(data), 3, offset, 2, digest)
    head += b"".join(struct.pack("<II", *r) for r in runs + from_initial)
    assert packed.startswith(head)
    assert zstandard.ZstdDecompressor().decompress(packed[len(head):]) == b"".join(data[a:a + n] for a, n in runs)
    [byte_by_byte] = unpack_all([(packed, [1], wasm_memory(initial, data))])
    assert base64.b64decode(byte_by_byte["full"]) == data
    # Without the initial memory, only the zero pages are left out.
    plain = pack_snapshot(data)
    assert struct.unpack_from("<IIII", plain, 12) == (2, 0, 0, build.initial_digest(b""))  # pages 0-5 and 7


def test_the_digest_is_fnv1a_over_little_endian_words():
    assert build.initial_digest(b"") == 0x811C9DC5
    assert build.initial_digest(b"\x01\0\0\0") == ((0x811C9DC5 ^ 1) * 0x01000193) & 0xFFFFFFFF
    assert build.initial_digest(b"\x01") == build.initial_digest(b"\x01\0\0\0")  # a short last word is padded


def test_initial_memory_that_differs_from_the_snapshots_is_refused():
    """One changed byte in a page taken from the wasm's memory, or a memory too
    short, and the browser refuses the snapshot instead of restoring it wrong
    (it then boots normally); a change where no page is taken from is no matter."""
    offset = 8
    initial = memory([5, 5, 5, 0, 6], tail=100)
    data = bytes([1]) * offset + initial + bytes(PAGE)
    packed = pack_snapshot(data, initial=initial, initial_offset=offset)
    assert len(packed) < 2 * PAGE  # the pages of 5s and 6s are not in the file
    one_off = [bytearray(initial) for _ in range(3)]
    one_off[0][PAGE + 77] ^= 1  # in a page taken from it
    one_off[1][4 * PAGE + 3] ^= 0x80  # the last page taken from it
    one_off[2][10] ^= 1  # in the first memory page, which shares a file page with the header: stored
    results = unpack_all([(packed, [], wasm_memory(bytes(b), data)) for b in one_off] + [(packed, [], initial[:-200])])
    refused = "the snapshot does not match this pyodide.asm.wasm"
    assert [r.get("error") for r in results] == [refused, refused, None, refused]
    assert base64.b64decode(results[2]["full"]) == data


def test_a_restore_with_the_wrong_initial_memory_fails_before_pyodide_reads_it():
    """restoreOptions (runtime/pyodide-private.mjs) as loadPyodide drives it: with
    the right memory the buffer Pyodide restores is the snapshot; with one
    byte wrong it has no Pyodide header (so Pyodide refuses it) and failure()
    says why."""
    offset = 16
    initial = memory([3, 3, 0, 3])
    data = b"\0snp" + bytes([offset]) + bytes(offset - 5) + initial + memory([0, 8])
    packed = pack_snapshot(data, initial=initial, initial_offset=offset)
    wrong = bytearray(initial)
    wrong[3 * PAGE + 1] = 0
    right, bad = unpack_all([(packed, [5], initial, {"restore": True}), (packed, [], bytes(wrong), {"restore": True})])
    assert right["ok"] and base64.b64decode(right["full"]) == data
    assert not bad["ok"] and bad["failure"] == "the snapshot does not match this pyodide.asm.wasm"
    assert base64.b64decode(bad["full"])[:4] == bytes(4)


def test_a_damaged_file_is_refused_in_words():
    good = pack_snapshot(memory([0, 5, 5], tail=3))
    head = FIXED + 8 * 1
    overlapping = bytearray(good)
    struct.pack_into("<II", overlapping, FIXED, 3 * PAGE, PAGE)  # a run past the end of memory
    cases = [
        (b"XXXX" + good[4:], []),
        (good[:4] + struct.pack("<I", 2) + good[8:], []),  # the format before the initial memory's pages
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


def test_a_file_refused_by_its_header_is_not_downloaded_further():
    """A wrong header is known from the first bytes: the rest of the 10 MB
    download is cancelled, not left running beside the normal boot."""
    good = pack_snapshot(memory([0, 5, 5, 6, 7], tail=3))
    wrong_magic, overlapping = b"XXXX" + good[4:], bytearray(good)
    struct.pack_into("<II", overlapping, FIXED, 9 * PAGE, PAGE)  # a run past the end of memory
    results = unpack_all([(wrong_magic, [16]), (bytes(overlapping), [64]), (good[:-5], [64])])
    assert [(r["error"], r["cancelled"]) for r in results] == [
        ("the snapshot file is not in the expected format", True),
        ("the snapshot file is not in the expected format", True),
        ("the snapshot file is damaged or cut short", False),  # read to its end: nothing left to stop
    ]


def test_the_shipped_snapshot_is_a_packed_pyodide_snapshot(site):
    """The file the site ships, rebuilt by the browser's code from it and
    pyodide.asm.wasm's data, is byte for byte the snapshot the build made
    (its sha256 in the runtime's manifest): any page that differed fails."""
    runtime = next((site / "pyodide").iterdir())
    packed = (runtime / "snapshot.bin.zst").read_bytes()
    magic, version, full_length, count, offset, initial_count, digest = struct.unpack_from("<4sIIIIII", packed)
    assert (magic, version) == (b"SPSN", 3)
    runs = [struct.unpack_from("<II", packed, FIXED + 8 * i) for i in range(count)]
    from_initial = [struct.unpack_from("<II", packed, FIXED + 8 * (count + i)) for i in range(initial_count)]
    data = zstandard.ZstdDecompressor().decompress(packed[FIXED + 8 * (count + initial_count):])
    assert len(data) == sum(length for _, length in runs)
    for kind in runs, from_initial:
        assert all(a + la < b for (a, la), (b, _) in itertools.pairwise(kind))  # in order, apart
    assert runs[0][0] == 0 and data[:4] == b"\0snp"  # Pyodide's own snapshot magic
    assert offset == struct.unpack_from("<I", data, 4)[0]  # the memory starts after Pyodide's header
    assert sum(length for _, length in from_initial) > 3_000_000  # the wasm's data, not shipped
    assert len(packed) < 0.15 * full_length  # 4 of 31 MB: the point of the format
    wasm_data = build.initial_memory((runtime / "pyodide.asm.wasm").read_bytes())
    expected = json.loads((runtime / "manifest.json").read_text())["snapshot"]
    assert expected["length"] == full_length
    full = bytearray(full_length)
    at = 0
    for start, length in runs:
        full[start:start + length] = data[at:at + length]
        at += length
    for start, length in from_initial:
        full[start:start + length] = wasm_data[start - offset:start - offset + length].ljust(length, b"\0")
    assert build.initial_digest(b"".join(full[a:a + n] for a, n in from_initial)) == digest
    assert hashlib.sha256(full).hexdigest() == expected["sha256"]
    [in_node] = unpack_all([(packed, [65536], wasm_data.ljust(from_initial[-1][0] + from_initial[-1][1] - offset, b"\0"),
                             {"sha256": True})])
    assert in_node == {"ok": True, "sha256": expected["sha256"], "lengths": [full_length]}
