"""The calculators package shows its architecture: game packages, no import circle, small files.

Each game is a package whose rules, reports and registry entries live apart;
the games import the registry, the registry finds the games by name when
first asked (registry.GAMES), so importing it imports no game.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from calculators import registry

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "calculators"
GAMES = ("tell_tale", "talislanta", "rpgdl")
MAX_LINES = 500


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _top_level_imports(path: Path) -> set[str]:
    """The calculators modules `path` imports at its top (not inside functions)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
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
    return found


def _graph() -> dict[str, set[str]]:
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    return {name: {m for m in _top_level_imports(path) if m in modules} - {name} for name, path in modules.items()}


def test_no_import_circle():
    graph = _graph()
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            cycle = path[path.index(name):] + [name]
            pytest.fail("import circle: " + " -> ".join(cycle))
        if name in done:
            return
        for imported in sorted(graph[name]):
            if imported != "calculators":  # a package's __init__ runs first anyway; no edge of its own
                visit(imported, path + [name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])
    assert len(graph) > 10, "the scan found the modules"


def test_the_registry_imports_no_game_at_its_top():
    games = tuple(f"calculators.{g}" for g in GAMES)
    assert not {m for m in _graph()["calculators.registry"] if m.startswith(games)}
    assert tuple(f"calculators.{g}" for g in GAMES) == registry.GAMES


def test_importing_the_registry_alone_imports_no_game():
    code = "import sys, calculators.registry; print(sorted(m for m in sys.modules if m.startswith('calculators')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    loaded = set(eval(out))  # a printed list of names
    assert loaded == {"calculators", "calculators.registry", "calculators.checks"}, loaded  # fmt went with the runners


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
