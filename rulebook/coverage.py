"""Which rules the site computes and which tests guard them ; the page `{{ rules-coverage }}` tells a GM
which rules the site works out, which it only states and which are its house rulings.

For every rule of every game, from the sources themselves at build time:

- what computes it: each calculator whose registry entry cites it
  (`Calculator.rules`) and each tracker action whose declaration lists it
  (`ActionSpec.rules`, with the tracker's `step_rules` that every recorded
  step applies; tests/test_coverage.py checks that a step cites no rule,
  in its report or in a refusal's words, beyond its action's);
- the tests that cite it: every string in tests/*.py that is exactly a rule
  ID (three parts or more), found with `ast`, by module and test function;
- the rulings it follows: the rulings written right after it on its page
  (before the next rule), and every ruling that links to it.

A rule nothing computes is "stated only" (narrated): the site states it, a
GM applies it. tests/test_coverage.py fails when a rule a calculator cites has
no test citing it, and when a test cites an ID that is no rule (the modules
in FIXTURE_MODULES write rule pages of their own, with IDs made up for the
case). No MkDocs in here.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from calculators.registry import all_calculators, all_trackers

from .book import Book, directory_url
from .forms import anchor
from .markup import GAME_NAMES, GAMES, VALID_ID, Rule, relative_url
from .templating import Markup, macro

TESTS = Path(__file__).resolve().parent.parent / "tests"
# Test modules whose rule IDs are those of the mini sites they build (not the site's rules).
FIXTURE_MODULES = ("test_rulebook.py", "test_hooks.py", "test_rule_search.py")
SELF = "test_coverage.py"  # the checks of this page cite IDs to check them, not to test a rule
TEMPLATE = "coverage.html"  # the page's markup (templates/coverage.html, autoescaped)
SHOWN_TESTS = 3  # test functions named per rule; the rest are counted


@dataclass(frozen=True)
class Citation:
    module: str  # test_tell_tale.py
    where: str  # the test function (or the module-level name) the ID is written in
    line: int

    @property
    def label(self) -> str:
        return f"{self.module}::{self.where}" if self.where else self.module


@dataclass
class Row:
    rule: Rule
    # (calculator or tracker, its title, its registry name, a tracker's actions that can cite the rule, or "")
    computed: list[tuple[str, str, str, str]] = field(default_factory=list)
    tests: list[Citation] = field(default_factory=list)
    rulings: list[str] = field(default_factory=list)


@dataclass
class Coverage:
    rows: dict[str, Row]
    unknown: dict[str, list[Citation]]  # IDs the tests cite that are no rule (fixture modules left out)

    def game(self, folder: str) -> list[Row]:
        return [r for r in self.rows.values() if r.rule.game == folder]

    def kinds(self, folder: str) -> dict[str, int]:
        """How many rules of the game the page lists as worked out, stated only and house rulings, and in all."""
        rows = self.game(folder)
        return {"rules": len(rows),
                **{kind: sum(_kind(r) == kind for r in rows) for kind in ("computed", "stated", "ruling")}}

    def counts(self, folder: str) -> dict[str, int]:
        rows = self.game(folder)
        return {"rules": len(rows), "computed": sum(bool(r.computed) for r in rows),
                "tested": sum(bool(r.tests) for r in rows), "narrated": sum(not r.computed for r in rows),
                "computed-untested": sum(bool(r.computed) and not r.tests for r in rows)}


def citations(tests: Path = TESTS) -> dict[str, list[Citation]]:
    """Every rule-ID-shaped string in the test modules and what they share (tests/support: the scripted fight,
    hostile states), this page's own checks left out, by ID."""
    found: dict[str, list[Citation]] = {}
    for path in sorted([*tests.glob("*.py"), *tests.glob("support/*.py")]):
        if path.name == SELF:
            continue
        module = path.relative_to(tests).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for where, node in _scopes(tree):
            for const in ast.walk(node):
                if isinstance(const, ast.Constant) and isinstance(const.value, str) and _is_id(const.value):
                    found.setdefault(const.value, []).append(Citation(module, where, const.lineno))
    return found


def coverage(book: Book, tests: Path = TESTS) -> Coverage:
    rows = {rid: Row(rule) for rid, rule in book.rules.items()}
    for name, calc in all_calculators().items():
        for rid in dict.fromkeys(calc.rules):
            if rid in rows:
                rows[rid].computed.append(("calculator", calc.title, name, ""))
    for name, tracker in all_trackers().items():
        for rid, labels in tracker_actions(name, set(rows)).items():
            rows[rid].computed.append(("tracker", tracker.title, name, ", ".join(labels)))
    unknown: dict[str, list[Citation]] = {}
    for rid, cited in citations(tests).items():
        target = book.redirects.get(rid, rid)
        if target in rows:
            rows[target].tests += cited
        else:
            kept = [c for c in cited if c.module not in FIXTURE_MODULES]
            if kept:
                unknown[rid] = kept
    for rid, rulings in rulings_followed(book).items():
        rows[rid].rulings = rulings
    return Coverage(rows, unknown)


def tracker_actions(name: str, known: set[str]) -> dict[str, list[str]]:
    """Rule ID (of `known`) -> the labels of tracker `name`'s actions whose declarations list it (Tracker.rules_of);
    taking back, doing again and showing are not recorded steps and apply no rule of their own."""
    tracker = all_trackers()[name]
    out: dict[str, list[str]] = {}
    for spec in tracker.specs:
        for rid in tracker.rules_of(spec.name):
            if rid in known:
                out.setdefault(rid, []).append(spec.label)
    return out


def rulings_followed(book: Book) -> dict[str, list[str]]:
    """Rule ID -> the rulings on it: those written right after it on its page, and those that link to it."""
    out: dict[str, list[str]] = {}
    for page in book.pages.values():
        last: Rule | None = None
        for rule in page.rules:
            if not rule.ruling:
                last = rule
            elif last is not None:
                out.setdefault(last.id, []).append(rule.id)
        for link in page.links:
            ruling = next((r for r in page.rules if r.ruling and r.line < link.line <= r.end), None)
            target = book.redirects.get(link.id, link.id)
            if ruling is not None and target != ruling.id and ruling.id not in out.get(target, []):
                out.setdefault(target, []).append(ruling.id)
    return out


# ---------------------------------------------------------------- the page


def page(book: Book, homes: dict[str, str], trackers: dict[str, str], src: str, links_from: str,
         tests: Path = TESTS) -> list[str]:
    """The coverage page's Markdown, written for a GM: per game, how many rules the site works out, how many it only
    states and how many are its house rulings; then each game in a fold of its own (short on a phone), its rules in
    those three lists, each with its ID, its title and, for one the site works out, the calculators and trackers
    that do."""
    found = coverage(book, tests)
    out = [macro(TEMPLATE, "counts_open"), macro(TEMPLATE, "counts_caption"), macro(TEMPLATE, "counts_head")]
    for folder in GAMES.values():
        out.append(macro(TEMPLATE, "counts_row", GAME_NAMES[folder], found.kinds(folder)))
    out += [macro(TEMPLATE, "counts_close"), ""]
    for prefix, folder in GAMES.items():
        rows = found.game(folder)
        kinds = found.kinds(folder)
        out.append(macro(TEMPLATE, "game_open", prefix, GAME_NAMES[folder], kinds))
        for kind, (heading, empty) in KINDS.items():
            listed = [r for r in rows if _kind(r) == kind]
            out.append(macro(TEMPLATE, "list_open", prefix, kind, heading, len(listed)))
            out += [macro(TEMPLATE, "rule", _rule_link(r.rule, links_from), r.rule.title,
                          _computed(r, homes, trackers, links_from))
                    for r in listed] or [macro(TEMPLATE, "nothing", empty)]
            out.append(macro(TEMPLATE, "list_close"))
        out += [macro(TEMPLATE, "game_close"), ""]
    return out


# What the page sorts each rule into: a house ruling, a rule the site works out, or one it only states (a ruling the
# site also works out is listed with the rulings, with what works it out).
KINDS = {
    "computed": ("Worked out for you", "None: the site states each rule, the table applies it."),
    "stated": ("Stated only: the table applies them", "None: the site works out every rule."),
    "ruling": ("House rulings: where the text is silent", "None."),
}


def _kind(row: Row) -> str:
    return "ruling" if row.rule.ruling else "computed" if row.computed else "stated"


def _computed(row: Row, homes: dict[str, str], trackers: dict[str, str],
              links_from: str) -> list[tuple[str, str, str, str]]:
    """Each calculator (with the address of its form) and tracker (of its page) that computes the rule: (kind, title,
    href, actions)."""
    parts = []
    for kind, title, name, actions in row.computed:
        src = homes.get(name) if kind == "calculator" else trackers.get(name)
        to_form = "#" + anchor(name) if kind == "calculator" else ""
        href = relative_url(directory_url(src), links_from) + to_form if src else ""
        parts.append((kind, title, href, actions))
    return parts


def _rule_link(rule: Rule, links_from: str) -> Markup:
    """The rule's ID as a link to it: HTML already, so the macros it goes into take it whole."""
    return Markup(macro(TEMPLATE, "link", relative_url(rule.url, links_from) + "#" + rule.id, rule.id))


def _scopes(tree: ast.Module) -> Iterable[tuple[str, ast.AST]]:
    """Each top-level statement with the name it defines (a test function, a class's methods, a constant)."""
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node.name, node
        elif isinstance(node, ast.ClassDef):
            for inner in node.body:
                yield (f"{node.name}::{inner.name}" if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef))
                       else node.name), inner
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            yield ", ".join(t.id for t in targets if isinstance(t, ast.Name)), node
        else:
            yield "", node


def _is_id(text: str) -> bool:
    return text.count(".") >= 2 and VALID_ID.fullmatch(text) is not None


__all__ = ["FIXTURE_MODULES", "Citation", "Coverage", "Row", "citations", "coverage", "page", "rulings_followed",
           "tracker_actions"]
