"""Read the rule pages with markdown-it-py, independently of the MkDocs hook."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from markdown_it import MarkdownIt

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
# The source texts are not part of the project: tests that compare with them
# read them from RULEBOOKS and are skipped, with the reason, where it is absent.
RULEBOOKS = Path(os.environ.get("RULEBOOKS") or ROOT.parent / "shared" / "rulebooks")
NO_RULEBOOKS = (
    f"the source rulebooks are not at {RULEBOOKS}: set RULEBOOKS to their folder "
    "(a checkout beside ../shared has them) to compare the pages with the texts"
)
MARKER = re.compile(r"^(r|ruling)\[([^\]]+)\][ \t]+(.+)$")
XREF = re.compile(r"\[\[([^\]|]+?)(?:\|[^\]]+)?\]\]")
GAME_DIRS = {"tt": "tell-tale", "tal": "talislanta", "rpgdl": "rpgdl"}
VALID_ID = re.compile(r"^(tt|tal|rpgdl)(\.[a-z0-9][a-z0-9-]*)+$")


@dataclass
class PageRule:
    id: str
    title: str
    ruling: bool
    page: Path
    line: int
    body: str  # the Markdown source of the rule, marker excluded


def parse(page: Path):
    return MarkdownIt("commonmark").enable("table").parse(page.read_text(encoding="utf-8"))


def rule_pages() -> list[Path]:
    return sorted(p for d in GAME_DIRS.values() for p in (DOCS / d).rglob("*.md"))


def rules_in(page: Path) -> list[PageRule]:
    """Every rule in a page, with the source lines up to the next rule or heading."""
    lines = page.read_text(encoding="utf-8").split("\n")
    starts = []
    for token in parse(page):
        if token.type == "inline" and token.map:
            m = MARKER.match(token.content.split("\n", 1)[0])
            if m:
                starts.append((token.map[0], m))
    ends = [t.map[0] for t in parse(page) if t.type == "heading_open" and t.map]
    rules = []
    for i, (start, m) in enumerate(starts):
        stops = [s for s, _ in starts[i + 1:]] + [e for e in ends if e > start] + [len(lines)]
        body = "\n".join(lines[start:min(stops)])
        body = body.split("\n", 1)[1] if "\n" in body else ""
        kind, rid, title = m.groups()
        rules.append(PageRule(rid, title.split("|")[0].strip(), kind == "ruling", page, start + 1, body))
    return rules


def all_rules() -> list[PageRule]:
    return [r for p in rule_pages() for r in rules_in(p)]


def tables_after(page: Path, rule_id: str) -> list[list[list[str]]]:
    """The tables (rows of cell texts, header first) inside one rule's body."""
    tokens = parse(page)
    inside, tables, rows, row, cell = False, [], None, None, None
    for token in tokens:
        if token.type == "inline" and MARKER.match(token.content.split("\n", 1)[0]):
            inside = MARKER.match(token.content.split("\n", 1)[0]).group(2) == rule_id
        elif token.type == "heading_open":
            inside = False
        if not inside:
            continue
        if token.type == "table_open":
            rows = []
        elif token.type == "tr_open":
            row = []
        elif token.type == "inline" and row is not None:
            row.append(token.content.strip())
        elif token.type == "tr_close":
            rows.append(row)
            row = None
        elif token.type == "table_close":
            tables.append(rows)
    return tables
