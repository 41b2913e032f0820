"""The command line (`python -m calculators`) run in the test's own process, as the process would run it: its
output, its errors and its exit code. A new interpreter costs its start and the imports of the calculators and
icepool, about half a CPU-second a run, and the tests of what is printed ran it 14 times. What only a process
shows (a reader that closed the pipe, the entry point itself) is tested as a process in test_cli.py."""

from __future__ import annotations

import contextlib
import io
import subprocess

from calculators.__main__ import main


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """What `python -m calculators *args` prints, to stdout and stderr, and its exit code."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as stop:  # argparse after --help or a usage error, as the process exits
            code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    return subprocess.CompletedProcess(["python", "-m", "calculators", *args], code, out.getvalue(), err.getvalue())
