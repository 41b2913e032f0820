"""A snapshot grown by several MB still restores on the pinned Pyodide:
https://github.com/pyodide/pyodide/issues/6254 reports that on 314.0.6 a snapshot larger than
the 30 MB initial heap failed to restore with a RangeError. The shipped one
holds 31.5 MB, so a heap that grows with the calculators is found here, not by
players: the snapshot is made as the build makes it, with 12 MB more of live
memory (8 MB more memory at least), packed by the build's own packer and restored as the browser restores
it (tests/pyodide_runner.mjs), and the calculators answer from it."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from support import ROOT

from calculators.runner import run
from runtime import build

pytestmark = pytest.mark.node

GROWN_MB = 12  # of live bytes; the heap had free room, so the memory grows by less
GROWN_AT_LEAST = 8_000_000  # bytes more memory than the shipped snapshot's
CASES = [["tell_tale.resolve_attack", {"power": "5", "d20": "17"}, None],
         ["talislanta.resolve_action", {"rating": "4", "d20": "11"}, None]]


def test_a_snapshot_grown_by_several_mb_restores_and_computes(site, tmp_path):
    node = shutil.which("node")
    assert node, "Node.js is needed for the Pyodide tests (make setup installs the npm runtime)"
    shipped = next((site / "pyodide").iterdir())
    runtime = tmp_path / "runtime"
    shutil.copytree(shipped, runtime)
    raw = tmp_path / "grown.raw"
    proc = subprocess.run([node, "tests/snapshot_grown_runner.mjs", str(runtime), str(GROWN_MB), str(raw)],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    full = raw.read_bytes()
    shipped_length = json.loads((shipped / "manifest.json").read_text())["snapshot"]["length"]
    assert len(full) >= shipped_length + GROWN_AT_LEAST, (len(full), shipped_length)
    initial = build.initial_memory((runtime / "pyodide.asm.wasm").read_bytes())
    # The build's packer and format; Zstandard's level 3, not the build's 19: the same bytes come out, and the
    # 25 MB pack in a tenth of a second instead of ten (16 s of the test before).
    packed = build.pack_snapshot(full, level=3, initial=initial, initial_offset=build.pyodide_memory_offset(full))
    (runtime / "snapshot.bin.zst").write_bytes(packed)
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps({"doctests": {}, "cases": CASES}))
    proc = subprocess.run([node, "tests/pyodide_runner.mjs", str(runtime), str(cases), "snapshot"],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["grown"] == GROWN_MB * 1_000_000  # the grown memory came back, not a fresh interpreter's
    assert report["cases"] == [run(name, params, seed) for name, params, seed in CASES]
