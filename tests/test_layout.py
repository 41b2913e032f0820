"""The calculators package shows its architecture: game packages, no import circle, small files.

Each game is a package whose rules, reports and registry entries live apart;
the games import the registry, the registry finds the games' packages in
their records (calculators/games.py) when first asked, so importing it
imports no game.
"""

from __future__ import annotations

import ast
import functools
import subprocess
import sys
from pathlib import Path

import pytest

from calculators.games import GAMES as RECORDS

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "calculators"
GAMES = tuple(g.key for g in RECORDS)
MAX_LINES = 500


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(source: str, name: str, is_package: bool) -> set[str]:
    """The calculators modules a module's source imports anywhere: at its top, under `if TYPE_CHECKING:`, inside
    functions, and `importlib.import_module("...")` with a literal name (a lazy re-export hid a circle)."""
    package = name if is_package else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("calculators")}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base_parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            if base.startswith("calculators"):
                found.add(base)
                found |= {f"{base}.{a.name}" for a in node.names}  # `from . import fmt` imports a module
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "import_module"
              and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            target = node.args[0].value
            if target.startswith("."):
                level = len(target) - len(target.lstrip("."))
                base_parts = package.split(".")[: len(package.split(".")) - level + 1]
                target = ".".join(base_parts + ([target.lstrip(".")] if target.lstrip(".") else []))
            found.add(target)
    return found


@functools.cache
def _graph() -> dict[str, set[str]]:
    """Each calculators module's imports of the others: read once per process (0.4 CPU-s a reading), asked by ten tests."""
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    return {name: {m for m in _imports(path.read_text(encoding="utf-8"), name, path.name == "__init__.py") if m in modules} - {name}
            for name, path in modules.items()}


def _circle(graph: dict[str, set[str]]) -> list[str] | None:
    """An import circle in `graph`, as the names round it, or None."""
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> list[str] | None:
        if name in path:
            return path[path.index(name):] + [name]
        if name in done:
            return None
        for imported in sorted(graph.get(name, ())):
            if imported != "calculators":  # a package's __init__ runs first anyway; no edge of its own
                found = visit(imported, path + [name])
                if found:
                    return found
        done.add(name)
        return None

    for name in sorted(graph):
        found = visit(name, [])
        if found:
            return found
    return None


def test_no_import_circle():
    graph = _graph()
    assert len(graph) > 10, "the scan found the modules"
    circle = _circle(graph)
    assert circle is None, "import circle: " + " -> ".join(circle or [])


OLD_SHIM = {  # a registry that re-exports run and track lazily from the runner, which imports the registry
    "calculators.registry": ("import importlib\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .runner import run\n"
                             "def __getattr__(name):\n    return getattr(importlib.import_module('calculators.runner'), name)\n"),
    "calculators.runner": "from .registry import Report, get\n",
}


@pytest.mark.parametrize("hidden", ["type-checking", "importlib", "function"])
def test_the_circle_check_sees_the_old_registry_shim(hidden):
    """The check cannot go blind: the old registry <-> runner circle is found through each way it hid."""
    registry_source = {
        "type-checking": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .runner import run\n",
        "importlib": "import importlib\ndef __getattr__(name):\n    return getattr(importlib.import_module('calculators.runner'), name)\n",
        "function": "def run(*a):\n    from .runner import run\n    return run(*a)\n",
    }[hidden]
    graph = {name: _imports(source, name, False) for name, source in {**OLD_SHIM, "calculators.registry": registry_source}.items()}
    assert _circle(graph) in (["calculators.registry", "calculators.runner", "calculators.registry"],
                              ["calculators.runner", "calculators.registry", "calculators.runner"])
    assert _circle({"calculators.runner": graph["calculators.runner"], "calculators.registry": set()}) is None


def test_the_registry_imports_no_game_at_its_top():
    games = tuple(g.package for g in RECORDS)
    assert not {m for m in _graph()["calculators.registry"] if m.startswith(games)}
    assert all(g.package == f"calculators.{g.key}" and (PACKAGE / g.key / "__init__.py").is_file() for g in RECORDS)


def test_the_games_records_import_nothing():
    """The registry and the rule markup (rulebook: no MkDocs, no game modules) both read the records."""
    tree = ast.parse((PACKAGE / "games.py").read_text(encoding="utf-8"))
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module or "." for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert imported <= {"__future__", "dataclasses"}, imported


def test_importing_the_registry_alone_imports_no_game():
    code = "import sys, calculators.registry; print(sorted(m for m in sys.modules if m.startswith('calculators')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    loaded = set(eval(out))  # a printed list of names
    assert loaded == {"calculators", "calculators.registry", "calculators.checks", "calculators.games", "calculators.types"}, loaded  # fmt went with the runners


def test_the_types_import_only_the_checks():
    """Param, Report, Calculator, Tracker live apart from the registry's lookup: the games, the runner
    and the table's rulings import them from calculators.types, which imports no registry, runner or game."""
    assert _graph()["calculators.types"] == {"calculators.checks"}


@pytest.mark.parametrize("game", GAMES)
def test_no_game_imports_the_registry(game):
    """The registry finds the games; a game declares its entries with calculators.types, never through the registry."""
    graph = _graph()
    assert not {m for m in graph if m.startswith(f"calculators.{game}") and "calculators.registry" in graph[m]}


@pytest.mark.parametrize("game", GAMES)
def test_each_game_keeps_rules_reports_and_entries_apart(game):
    graph = _graph()
    modules = {m for m in graph if m.startswith(f"calculators.{game}.")}
    assert {f"calculators.{game}.reports", f"calculators.{game}.entries"} <= modules
    rules = modules - {f"calculators.{game}.reports", f"calculators.{game}.entries"}
    assert rules, "rules modules"
    for module in rules:  # the rules know nothing of forms, reports or the registry
        assert not {m for m in graph[module] if m.endswith((".reports", ".entries", ".registry", ".dice"))}, module
    assert not {m for m in graph[f"calculators.{game}.reports"] if m.endswith(".entries")}


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_file_over_500_lines(path):
    assert len(path.read_text(encoding="utf-8").splitlines()) <= MAX_LINES


# ---------------------------------------------------------------- the page scripts

ASSETS = ROOT / "docs" / "assets"
# Page scripts still over the cap, each to be split along its features; the test below fails once one is
# under it, so the list cannot go stale (encounter.js was split into encounter-form, -roster and -add).
OVER_CAP_UNTIL_SPLIT: set[str] = set()


@pytest.mark.parametrize("path", sorted(ASSETS.glob("*.js")), ids=lambda p: p.name)
def test_no_page_script_over_500_lines(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    if path.name in OVER_CAP_UNTIL_SPLIT:
        assert lines > MAX_LINES, f"{path.name} is {lines} lines now: take it off OVER_CAP_UNTIL_SPLIT"
    else:
        assert lines <= MAX_LINES, f"{path.name} is {lines} lines: split it along its features"


def _script_graph(sources: dict[str, str]) -> dict[str, set[str]]:
    """Each script's static and dynamic imports of its siblings, as the finishing step reads them (rulebook/site/assets.py,
    which tests/test_offline.py holds to TypeScript's own parse)."""
    from rulebook.site import assets

    return {name: {m["spec"].removeprefix("./") for m in assets.imports(text) if m["spec"].startswith("./")} - {name} for name, text in sources.items()}


def test_no_page_script_in_an_import_circle():
    graph = _script_graph({p.name: p.read_text(encoding="utf-8") for p in ASSETS.glob("*.js")})
    assert len(graph) > 10 and any(graph.values()), "the scan found the scripts and their imports"
    circle = _circle(graph)
    assert circle is None, "import circle: " + " -> ".join(circle or [])


def test_the_script_circle_check_finds_a_circle():
    graph = _script_graph({"a.js": 'import { b } from "./b.js";\n', "b.js": 'export const b = 1;\nconst later = () => import("./a.js");\n'})
    assert _circle(graph) in (["a.js", "b.js", "a.js"], ["b.js", "a.js", "b.js"])


# dom.js holds each helper once (a copy of `el` elsewhere is refused below); tracker-kit.js and tracker-shell.js
# only export some again.
DOM_HELPERS = ("el", "button", "plural", "count", "read", "write", "siteJson")


def _helpers_written(sources: dict[str, str]) -> dict[str, list[str]]:
    """Each script's own definitions of a DOM helper (a function, or a function kept in a variable), and its own
    fetches of one of the site's JSON files, comments left out."""
    import re

    from rulebook.site import assets

    names = "|".join(DOM_HELPERS)
    helper = re.compile(rf"\bfunction\s+({names})\s*\(|\b(?:const|let)\s+({names})\s*=\s*(?:async\s*)?(?:function\b|\([^()]*\)\s*=>|\w+\s*=>)")
    fetch = re.compile(r"""fetch\(\s*new URL\(\s*["'][\w-]+\.json["']""")
    found = {}
    for name, text in sources.items():
        code = assets.COMMENT.sub("", text)
        written = [m.group(1) or m.group(2) for m in helper.finditer(code)] + [m.group(0) for m in fetch.finditer(code)]
        if written:
            found[name] = written
    return found


def test_each_dom_helper_is_written_once_in_dom_js():
    scripts = {p.name: p.read_text(encoding="utf-8") for p in ASSETS.glob("*.js")}
    assert {"encounter.js", "encounter-form.js", "season.js", "house-rules.js"} <= set(scripts), "every page script is read"
    found = _helpers_written(scripts)
    assert sorted(found.pop("dom.js")) == sorted(DOM_HELPERS)
    assert found == {}, "a DOM helper written again outside dom.js: import it from there"


def test_the_dom_helper_check_finds_a_copy():
    copy = 'const el = (tag) => document.createElement(tag);\nfunction plural(n, word) {}\nfetch(new URL("rules.json", base));\n'
    assert _helpers_written({"x.js": copy, "y.js": 'const count = el("p");\n// function el(tag) {}\n'}) == {
        "x.js": ["el", "plural", 'fetch(new URL("rules.json"']}


# ---------------------------------------------------------------- the tests' own shape

TESTS = ROOT / "tests"


def _test_imports(path: Path) -> set[str]:
    """The top names of every module `path` imports, wherever the import stands (in a function too)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def _borrowed(paths, root: Path = ROOT) -> dict[str, set[str]]:
    """Each file's imports of a test module or of conftest: what belongs in tests/support instead."""
    found = {}
    for path in paths:
        wrong = {m for m in _test_imports(path) if m.startswith("test_") or m in ("conftest", "helpers", "helpers_encounter", "rulepages")}
        if wrong:
            found[path.relative_to(root).as_posix()] = wrong
    return found


def test_no_test_module_imports_another_and_what_they_share_is_tests_support():
    paths = [*TESTS.glob("*.py"), *(TESTS / "support").glob("*.py"), *(ROOT / "benchmarks").glob("*.py")]
    assert len(paths) > 60 and (TESTS / "support" / "server.py") in paths
    assert _borrowed(paths) == {}, "import what tests share from tests/support (support.*, or tests.support.* in the benchmarks)"


def test_the_borrowing_check_finds_a_test_module_imported(tmp_path):
    (tmp_path / "a.py").write_text("def f():\n    from test_encounter_page import open_page\n")
    (tmp_path / "b.py").write_text("from conftest import BLANK\nimport support.server\n")
    assert _borrowed([tmp_path / "a.py", tmp_path / "b.py"], tmp_path) == {"a.py": {"test_encounter_page"}, "b.py": {"conftest"}}
