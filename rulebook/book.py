"""Every rule of a site: the pages read, the rules by ID, the retired IDs.

`read_docs` is the one reading of a site's pages: each read once by
markdown-it (rulebook/pages.py `read_page`) into one checked `Book`. The
Markdown extension renders every page from it (rulebook/extension.py
`BookBuild`), the finishing step takes the same object under MkDocs and
reads its own after another generator; the tests and scripts/publish-rule-ids
read it too.
"""

from __future__ import annotations

import datetime
import functools
import json
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from .examples import check_examples
from .markup import GAMES, MarkupError, Page, Rule
from .pages import read_page

REDIRECTS = "rule-redirects.json"  # in docs/: {"old.id": "new.id"}


@dataclass
class Book:
    """The rules of a site, checked: IDs unique and in their game's folder,
    every link and redirect pointing at a rule."""

    redirects: dict[str, str] = field(default_factory=dict)  # retired ID -> the ID that replaced it
    rules: dict[str, Rule] = field(default_factory=dict)  # ID -> rule, pages in the order added
    pages: dict[str, Page] = field(default_factory=dict)  # src -> page
    order: list[str] = field(default_factory=list)  # page srcs in reading order (the nav)
    redirect_lines: dict[str, int] = field(default_factory=dict)  # retired ID -> its line in REDIRECTS

    def load_redirects(self, path: Path) -> None:
        if not path.exists():
            return
        text = path.read_text(encoding="utf-8")
        self.redirects = json.loads(text)
        lines = text.split("\n")
        self.redirect_lines = {old: next((n for n, line in enumerate(lines, 1) if f'"{old}"' in line), 0)
                               for old in self.redirects}

    def add(self, page: Page, url: str = "") -> Page:
        """Take in a page's rules; its URL (MkDocs's `file.url`) goes to each."""
        for rule in page.rules:
            if rule.id in self.rules:
                first = self.rules[rule.id]
                here = first.src == rule.src
                where = f"on this page, at lines {first.line} and {rule.line}" if here else f"also at {first.where}"
                raise MarkupError(rule.src, rule.line, f"rule ID {rule.id} is used twice: {where}")
            folder = GAMES[rule.id.split(".")[0]]
            if not rule.src.startswith(folder + "/"):
                prefix = rule.id.split(".")[0]
                raise MarkupError(rule.src, rule.line, f"rule ID {rule.id}: a {prefix}. rule lives in docs/{folder}/")
            rule.url = url
            self.rules[rule.id] = rule
        page.url = url
        self.pages[page.src] = page
        return page

    def check(self) -> None:
        """Every link reaches a rule; every redirect leaves a gone ID for a live one."""
        for page in self.pages.values():
            for link in page.links:
                if self.redirects.get(link.id, link.id) not in self.rules:
                    raise MarkupError(page.src, link.line, f"link to unknown rule ID {link.id}")
        for old, new in self.redirects.items():
            if old in self.rules or new not in self.rules:
                raise MarkupError(REDIRECTS, self.redirect_lines.get(old),
                                  f"redirect {old} -> {new}: the old ID must be gone and the new one must exist")

    def resolve(self, rule_id: str) -> Rule:
        """The rule an ID names, through the redirects."""
        return self.rules[self.redirects.get(rule_id, rule_id)]

    def terms(self, game: str) -> list[Rule]:
        """The rules defining terms in a game (its folder name)."""
        return [r for r in self.rules.values() if r.is_term and r.game == game]


def read_docs(docs: Path, folders: tuple[str, ...] | None = None) -> Book:
    """The pages under `docs` (all of them, or those in `folders`), each read once, and checked."""
    book = Book()
    book.load_redirects(docs / REDIRECTS)
    paths = docs.rglob("*.md") if folders is None else (p for folder in folders for p in (docs / folder).rglob("*.md"))
    # In the order generators list them (a folder's index first): rules.json keeps it.
    for path in sorted(paths, key=lambda p: (p.parent.relative_to(docs).parts, p.name != "index.md", p.name)):
        src = path.relative_to(docs).as_posix()
        text = path.read_text(encoding="utf-8")
        check_examples(text, src)  # at the line as written
        book.add(read_page(text, src, path), url=directory_url(src))
    book.check()
    return book


def directory_url(src: str) -> str:
    """The page's address relative to the site root, as generators with directory URLs write it:
    `tell-tale/combat.md` -> `tell-tale/combat/`, `tell-tale/index.md` -> `tell-tale/`, `index.md` -> ``."""
    stem = src.removesuffix(".md")
    if stem == "index" or stem.endswith("/index"):
        return stem.removesuffix("index")
    return stem + "/"


@functools.lru_cache(maxsize=8)
def rules_date(docs: Path, folder: str) -> str:
    """The date of a game's rules: the last commit to its pages, else the newest of its files (YYYY-MM-DD)."""
    pages = docs / folder
    try:
        out = subprocess.run(["git", "log", "-1", "--format=%cs", "--", "."], cwd=pages, capture_output=True,
                             text=True, timeout=30)
        if out.returncode == 0 and re.fullmatch(r"\d{4}-\d{2}-\d{2}", out.stdout.strip()):
            return out.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    newest = max((p.stat().st_mtime for p in pages.rglob("*.md")), default=0.0)
    return datetime.datetime.fromtimestamp(newest, datetime.UTC).date().isoformat()
