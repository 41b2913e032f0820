"""The rule pages as the `rulebook` package reads them (the same parser as
the build), plus where the tests find the source texts."""

from __future__ import annotations

import os
import re
from pathlib import Path

from markdown_it import MarkdownIt

from rulebook import GAMES, Rule, read_page
from rulebook import VALID_ID as ID

from . import ROOT

DOCS = ROOT / "docs"
# The source texts are not part of the project: tests that compare with them
# read them from RULEBOOKS and are skipped, with the reason, where it is absent.
RULEBOOKS = Path(os.environ.get("RULEBOOKS") or ROOT.parent / "shared" / "rulebooks")
NO_RULEBOOKS = (
    f"the source rulebooks are not at {RULEBOOKS}: set RULEBOOKS to their folder "
    "(a checkout beside ../shared has them) to compare the pages with the texts"
)
GAME_DIRS = GAMES
VALID_ID = re.compile(rf"(?:{ID.pattern})$")


def rule_pages() -> list[Path]:
    return sorted(p for d in GAME_DIRS.values() for p in (DOCS / d).rglob("*.md"))


def read(page: Path):
    """A page as the rulebook reads it (raises MarkupError, with file and line, on a mistake)."""
    return read_page(page.read_text(encoding="utf-8"), page.relative_to(DOCS).as_posix(), page)


def rules_in(page: Path) -> list[Rule]:
    """Every rule in a page: ID, title, ruling, line, and its Markdown body."""
    return read(page).rules


def all_rules() -> list[Rule]:
    return [r for p in rule_pages() for r in rules_in(p)]


def tables_after(page: Path, rule_id: str) -> list[list[list[str]]]:
    """The tables (rows of cell texts, header first) inside one rule's body."""
    rule = next(r for r in rules_in(page) if r.id == rule_id)
    tables, rows, row = [], None, None
    inside = False
    for token in MarkdownIt("commonmark").enable("table").parse(page.read_text(encoding="utf-8")):
        if token.type == "table_open":
            inside = rule.line <= token.map[0] < rule.end  # the body: after the marker, to the rule's end
            rows = []
        if not inside:
            continue
        if token.type == "tr_open":
            row = []
        elif token.type == "inline" and row is not None:
            row.append(token.content.strip())
        elif token.type == "tr_close":
            rows.append(row)
            row = None
        elif token.type == "table_close":
            tables.append(rows)
    return tables
