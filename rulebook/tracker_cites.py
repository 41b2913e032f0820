"""Which rules each tracker action can cite, read from the trackers' own code (issue 35's coverage page).

A tracker's `rules` lists every rule it may cite, so counting the whole list
as computed would count rules no action applies. Here each action is
followed from the tracker's `step`, without running it:

- every function the code names is followed, transitively, inside the
  `calculators` package (a name resolved in its module, `module.f`, or a
  method `x.f` of any class of the package of that name);
- the action picks its way: a branch `if action["do"] == "name"` is taken
  for that action only (its `else` for the others), and a handler looked up
  as `HANDLERS[action["do"]]` is that action's handler only;
- a rule is cited when a function on the way holds its ID as a whole string,
  names it in brackets in a sentence (a refusal, "it cannot attack
  (tt.keyword.defender).", or its docstring, "never below 0
  (tt.stats.power-minimum)"), forms it in an f-string from a word it holds
  (`f"tt.keyword.{kind}"`), or names a module-level constant (a tuple, a
  dict...) holding it; the tracker's own list of every rule it may cite
  names them all and is no citation, so it is skipped.

It can only say more than a run shows, never less: tests/test_coverage.py
steps random fights and a season and checks that every log entry's rules
are among its action's. No MkDocs in here.
"""

from __future__ import annotations

import ast
import inspect
import re
import sys
import textwrap
import types
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

PACKAGE = "calculators"
BRACKETS = re.compile(r"\(([^()]*)\)")


@dataclass
class _Walk:
    action: str
    known: frozenset[str]
    skip: tuple[str, ...]
    found: dict[str, None] = field(default_factory=dict)
    seen: set[int] = field(default_factory=set)


def action_rules(step: Callable[..., Any], actions: Iterable[str], known: Collection[str], every: Iterable[str] = ()) -> dict[str, tuple[str, ...]]:
    """Action name -> the rule IDs (of `known`) that `step` can cite for it, in the order first found.

    `every`: the tracker's list of every rule it may cite, skipped as a constant."""
    out: dict[str, tuple[str, ...]] = {}
    for action in actions:
        walk = _Walk(action, frozenset(known), tuple(every))
        _function(step, walk)
        out[action] = tuple(walk.found)
    return out


# ---------------------------------------------------------------- the walk


def _function(fn: Callable[..., Any], walk: _Walk) -> None:
    fn = inspect.unwrap(fn)
    if id(fn) in walk.seen or not _ours(fn):
        return
    walk.seen.add(id(fn))
    node = _source(fn)
    if node is not None:
        _node(node, node, sys.modules[fn.__module__], walk)


def _node(node: ast.AST, root: ast.AST, module: types.ModuleType, walk: _Walk) -> bool:
    """Everything `node` can cite for the walk's action (`root`: the function it is in); True when it is a
    statement after which nothing more runs for the action (a branch of its own that returns or raises)."""
    if isinstance(node, ast.If) and (name := _named(node.test)) is not None:
        return _block(node.body if name == walk.action else node.orelse, root, module, walk)
    if isinstance(node, ast.Subscript) and _is_do(node.slice) and isinstance(node.value, ast.Name):
        table = module.__dict__.get(node.value.id)
        if isinstance(table, dict):  # HANDLERS[action["do"]]: this action's handler only
            if walk.action in table:
                _value(table[walk.action], walk)
            return False
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        for rid in [node.value] if node.value in walk.known else _bracketed(node.value):
            if rid in walk.known:
                walk.found.setdefault(rid)
    elif isinstance(node, ast.JoinedStr):
        for rid in _formed(node, root, module, walk):
            walk.found.setdefault(rid)
    elif isinstance(node, ast.Name):
        _value(module.__dict__.get(node.id), walk)
    elif isinstance(node, ast.Attribute):
        base = module.__dict__.get(node.value.id) if isinstance(node.value, ast.Name) else None
        if isinstance(base, (types.ModuleType, type)):
            _value(getattr(base, node.attr, None), walk)
        else:  # a method of an object the code holds (act.cite, result.rules): any class of ours with it
            for method in _methods().get(node.attr, ()):
                _function(method, walk)
    for _field, value in ast.iter_fields(node):
        if isinstance(value, list) and value and all(isinstance(v, ast.stmt) for v in value):
            _block(value, root, module, walk)
        elif isinstance(value, list):
            for v in value:
                if isinstance(v, ast.AST):
                    _node(v, root, module, walk)
        elif isinstance(value, ast.AST):
            _node(value, root, module, walk)
    return False


def _block(stmts: list[ast.stmt], root: ast.AST, module: types.ModuleType, walk: _Walk) -> bool:
    """The statements in order, up to one that ends the action's way (a return or raise on its own branch)."""
    for stmt in stmts:
        ends = _node(stmt, root, module, walk)
        if ends or isinstance(stmt, (ast.Return, ast.Raise)):
            return True
    return False


def _value(value: object, walk: _Walk) -> None:
    """A name the code uses: a function of ours is followed; a constant gives the rule IDs it holds."""
    if isinstance(value, (types.FunctionType, types.MethodType)):
        _function(value, walk)
    elif isinstance(value, (str, tuple, list, frozenset, set, dict)) and id(value) not in walk.seen:
        if _is_every(value, walk):
            return
        walk.seen.add(id(value))
        for s in _strings(value):
            if s in walk.known:
                walk.found.setdefault(s)


def _formed(node: ast.JoinedStr, root: ast.AST, module: types.ModuleType, walk: _Walk) -> list[str]:
    """The known IDs an f-string of one formatted value can give: its text around every word that the
    function holds as a string or names in a module-level constant."""
    parts = node.values
    if sum(isinstance(p, ast.FormattedValue) for p in parts) != 1 or not all(isinstance(p, (ast.Constant, ast.FormattedValue)) for p in parts):
        return []
    at = next(i for i, p in enumerate(parts) if isinstance(p, ast.FormattedValue))
    head = "".join(str(p.value) for p in parts[:at] if isinstance(p, ast.Constant))
    tail = "".join(str(p.value) for p in parts[at + 1:] if isinstance(p, ast.Constant))
    if not head:
        return []
    return sorted(head + w + tail for w in _words(root, module, walk.skip) if head + w + tail in walk.known)


@cache
def _words(root: ast.AST, module: types.ModuleType, skip: tuple[str, ...]) -> frozenset[str]:
    """Every string the function holds or names in a module-level constant (but the tracker's list of every
    rule), read once per function: a function's f-strings, and each action's walk, ask again (`_source`
    keeps each function's tree, so the same tree comes back)."""
    words: set[str] = set()
    for sub in ast.walk(root):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            words.add(sub.value)
        elif isinstance(sub, ast.Name):
            value = module.__dict__.get(sub.id)
            if isinstance(value, (tuple, list, frozenset, set, dict)) and not (skip and isinstance(value, (tuple, list)) and tuple(value) == skip):
                words.update(_strings(value))
    return frozenset(words)


def _bracketed(text: str) -> list[str]:
    """The words in brackets in a sentence, "(tt.keyword.defender)" or "(see tt.a.b, tt.c.d)", that may be rule IDs."""
    return [w for inner in BRACKETS.findall(text) for w in re.split(r"[\s,;]+", inner) if w.count(".") >= 2]


def _is_every(value: object, walk: _Walk) -> bool:
    return bool(walk.skip) and isinstance(value, (tuple, list)) and tuple(value) == walk.skip


def _strings(value: object, depth: int = 0) -> Iterable[str]:
    if depth > 4:
        return
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k, depth + 1)
            yield from _strings(v, depth + 1)
    elif isinstance(value, (tuple, list, frozenset, set)):
        for v in value:
            yield from _strings(v, depth + 1)


def _is_do(node: ast.expr) -> bool:
    """Whether `node` is `x["do"]` or `x.get("do")`."""
    return (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value == "do") or (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
        and bool(node.args) and isinstance(node.args[0], ast.Constant) and node.args[0].value == "do")


def _named(test: ast.expr) -> str | None:
    """'name' of a test `x["do"] == "name"` (or `x.get("do") == "name"`), else None."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return None
    right = test.comparators[0]
    return right.value if _is_do(test.left) and isinstance(right, ast.Constant) and isinstance(right.value, str) else None


def _ours(fn: object) -> bool:
    return (getattr(fn, "__module__", None) or "").split(".")[0] == PACKAGE


@cache
def _source(fn: Callable[..., Any]) -> ast.AST | None:
    try:
        return ast.parse(textwrap.dedent(inspect.getsource(fn))).body[0]
    except (OSError, TypeError, SyntaxError, IndexError):
        return None


@cache
def _methods() -> dict[str, tuple[Callable[..., Any], ...]]:
    """Every method of every class defined in the package's imported modules, by name."""
    out: dict[str, list[Callable[..., Any]]] = {}
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] != PACKAGE or module is None:
            continue
        for cls in vars(module).values():
            if isinstance(cls, type) and cls.__module__ == name:
                for attr, fn in vars(cls).items():
                    f = fn.fget if isinstance(fn, property) else getattr(fn, "__func__", fn)
                    if isinstance(f, types.FunctionType):
                        out.setdefault(attr, []).append(f)
    return {k: tuple(v) for k, v in out.items()}


__all__ = ["action_rules"]
