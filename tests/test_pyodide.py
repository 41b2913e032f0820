"""The calculators proven on Pyodide's own Python, under Node, from the very
runtime folder the site ships: every doctest of the rule pages and every
registry example, compared with CPython's answers."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from support import ROOT, made_once
from support.helpers import PAGES_WITH_EXAMPLES, examples

from calculators.registry import all_calculators
from calculators.runner import run

pytestmark = pytest.mark.node


def cases():
    out = []
    for name, calc in all_calculators().items():
        for example in calc.examples:
            params = {k: v for k, v in example.items() if k != "seed"}
            out.append([name, params, example.get("seed")])
    # Bad input must give the same sentence on both Pythons.
    out += [["tell_tale.resolve_attack", {"power": "5", "d20": "23"}, None],
            ["tell_tale.resolve_attack", {"power": "lots", "d20": "3"}, None]]
    return out


def under_node(site, folder, how: str) -> dict:
    """The Node runner's report for one way of starting ("boot", "snapshot")."""
    node = shutil.which("node")
    assert node, "Node.js is needed for the Pyodide tests (make setup installs the npm runtime)"
    runtime = next((site / "pyodide").iterdir())
    data = {
        "doctests": {str(p.relative_to(p.parents[1])): examples(p) for p in PAGES_WITH_EXAMPLES},
        "cases": cases(),
    }
    path = folder / f"cases-{how}.json"
    path.write_text(json.dumps(data))
    proc = subprocess.run([node, "tests/pyodide_runner.mjs", str(runtime), str(path), how],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def pyodide_reports(site, tmp_path_factory):
    """Each way of starting run once under Node, when a test first asks for it, for every pytest process
    (support.made_once): a parametrized module fixture was made again each time the order of the tests
    switched between the two, and once more in each process."""
    made: dict[str, dict] = {}
    folder = tmp_path_factory.mktemp("pyodide")

    def report(how: str) -> dict:
        if how not in made:
            made[how] = made_once(tmp_path_factory, f"pyodide-{how}", lambda: under_node(site, folder, how))
        return made[how]

    return report


@pytest.fixture(params=["boot", "snapshot"])
def pyodide_report(request, pyodide_reports):
    return pyodide_reports(request.param)


def test_it_really_is_pyodide(pyodide_report):
    assert pyodide_report["platform"] == "emscripten"


def test_both_ways_of_starting_run_python_without_docstrings_or_columns(pyodide_report):
    """The snapshot is made with -OO and -X no_debug_ranges (runtime/pyodide-private.mjs PYTHON_ARGS: 0.29 and
    0.36 MB less to download), and a page that boots without it starts Python the same way, so the two
    interpreters run the same code: no docstrings, and code objects with lines but no columns, in the
    standard library and in ours."""
    assert (pyodide_report["optimize"], pyodide_report["docstrings"], pyodide_report["columns"]) == (2, False, False)


def test_the_command_line_is_left_out_of_the_snapshot(pyodide_report):
    """runtime/warm-up.py imports every module a page may need, but not the command line's (it brings argparse)
    nor the build's house rulings: 85 kB less in the packed snapshot. Every example below then runs without them."""
    assert pyodide_report["cliModules"] == []


def test_doctests_of_every_page_pass_in_pyodide(pyodide_report):
    assert len(pyodide_report["doctests"]) == len(PAGES_WITH_EXAMPLES)
    for page in pyodide_report["doctests"]:
        assert page["attempted"] > 0, page["page"]
        assert page["failed"] == 0, page["output"]


def test_every_example_gives_the_same_answer_as_cpython(pyodide_report):
    expected = [run(name, params, seed) for name, params, seed in cases()]
    assert pyodide_report["cases"] == expected


def test_the_standard_library_can_come_after_the_snapshot(pyodide_report):
    """The browser restores the snapshot with an empty standard library and
    installs the real one after (runtime/late-stdlib.mjs): every example above
    ran before it was in, and a module no calculator imports loads once it is."""
    if pyodide_report["mode"] == "snapshot":
        assert (pyodide_report["stdlibBefore"], pyodide_report["stdlibAfter"]) == (False, True)
    else:
        assert (pyodide_report["stdlibBefore"], pyodide_report["stdlibAfter"]) == (True, True)
