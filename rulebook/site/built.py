"""What the generator wrote: its pages, and what each holds that the finishing step reads.

A page is every `.html` file of the site outside the runtime folder and the
short links (the finishing step writes those). Each is read once, with
html.parser (rulebook/terms.py `Pieces`), and from that one reading come: the
trackers, the calculators and table settings forms it carries, the runtime
folders it names, the text of each inline script that runs (the content
security policy hashes them: csp.py) and where the policy goes, the words of
each rule on it (what rules.json lists), and the places the finishing step
writes into: the end of its article (print_footer.py), each GM screen line's
empty words (gm_screens.py) and Material's config (search_later.py). Those
writes are `Edit`s at the reading's offsets, all made in one `apply`.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..markup import Rule
from ..terms import Pieces, rule_texts
from .errors import SiteError

NOT_PAGES = ("pyodide/", "r/")  # the runtime, the short links: not the generator's
# Types of <script> that run (an empty type is JavaScript); data blocks such
# as Material's application/json config do not, and need no hash.
RUNNING = {"", "text/javascript", "application/javascript", "module", "importmap"}
CONFIG = "__config"  # the id of Material's config, a JSON data block
Edit = tuple[int, int, str]  # what replaces page.html[start:end], at the offsets of the page's reading


@dataclass
class Page:
    path: Path
    rel: str  # relative to the site root: tell-tale/combat/index.html
    url: str  # as a link names it: tell-tale/combat/
    html: str
    trackers: list[str] = field(default_factory=list)  # data-tracker
    calculators: list[str] = field(default_factory=list)  # data-calculator
    settings: list[str] = field(default_factory=list)  # the games of its table settings forms
    runtimes: set[str] = field(default_factory=set)  # data-runtime, relative to the site root
    scripts: list[str] = field(default_factory=list)  # the text of each inline script that runs, exactly as written
    texts: dict[str, str] = field(default_factory=dict)  # rule ID -> its words, for the rules on this page
    charset: str = ""  # its <meta charset> tag as written, after which the finishing step writes the policy (csp.py)
    policy: bool = False  # it has a content security policy already (a finished page)
    article_end: int = -1  # where its last article's end tag starts (-1: it has none)
    gm_footer: bool = False  # it holds a GM screen, whose footer is its own
    gm_texts: list[tuple[int, int, str, str]] = field(default_factory=list)  # (start, end, rule ID, form) of each
    # GM screen line's empty words element (rulebook/gm_screen.py)
    config: tuple[int, int] | None = None  # where the text of Material's config is


def pages(site: Path, rules: Mapping[str, Rule]) -> list[Page]:
    """The generator's pages, each read once; `rules`, the book's, whose words are read from their pages."""
    homes = {rule.url for rule in rules.values()}
    found = []
    for path in sorted(site.rglob("*.html")):
        rel = path.relative_to(site).as_posix()
        if rel.startswith(NOT_PAGES):
            continue
        url = rel.removesuffix("index.html") if rel == "index.html" or rel.endswith("/index.html") else rel
        page = Page(path, rel, url, path.read_text(encoding="utf-8"))
        read(page, rules if url in homes else {})
        found.append(page)
    return found


def read(page: Page, rules: Mapping[str, Rule]) -> None:
    """What `page` holds, from one reading of its HTML."""
    html = page.html
    pieces = Pieces(html).pieces
    ends = [offset for offset, *_ in pieces[1:]] + [len(html)]
    script: int | None = None  # where the text of the running inline script being read starts
    config: int | None = None  # where the text of Material's config starts, while it is read
    words: tuple[int, str, str] | None = None  # a GM screen line's words element just opened: its start, ID, form
    for (offset, kind, tag, values), end in zip(pieces, ends):
        if words is not None:
            if kind != "end" or tag != "span":
                raise SiteError(f"{page.rel}: the GM screen's line of {words[1]} has words already: "
                                "is it written as rulebook/gm_screen.py writes it?")
            page.gm_texts.append((words[0], end, words[1], words[2]))
            words = None
        if kind == "start" and tag == "script":
            runs = (values.get("type") or "").strip().lower() in RUNNING
            script = end if runs and "src" not in values else None
            config = end if values.get("id") == CONFIG else None
        elif kind == "end" and tag == "script" and script is not None:
            page.scripts.append(html[script:offset])
            script = None
        elif kind == "end" and tag == "script" and config is not None:
            page.config, config = (config, offset), None
        elif kind == "end" and tag == "article":
            page.article_end = offset
        if kind == "start" and tag == "span" and values.get("data-gm-text"):
            words = (offset, values["data-gm-text"] or "", values.get("data-gm-form") or "")
        if kind in ("start", "void"):
            _attributes(page, tag, values)
            if tag == "meta" and "charset" in values and not page.charset:
                page.charset = html[offset:end]
            if tag == "meta" and (values.get("http-equiv") or "").lower() == "content-security-policy":
                page.policy = True
    if rules:
        page.texts = rule_texts(html, rules, pieces)


def page_of(html: str, rel: str = "", rules: Mapping[str, Rule] | None = None) -> Page:
    """A page read from its HTML alone (at `rel`, relative to the site root)."""
    page = Page(Path(rel), rel, rel.removesuffix("index.html"), html)
    read(page, rules or {})
    return page


def inline_scripts(html: str) -> list[str]:
    """The text of every inline script of a page that runs, exactly as written."""
    return page_of(html).scripts


def apply(html: str, edits: list[Edit]) -> str:
    """`html` with each edit made, last first, so that each offset of the reading still holds."""
    for start, end, text in sorted(edits, key=lambda edit: edit[:2], reverse=True):
        html = html[:start] + text + html[end:]
    return html


def _attributes(page: Page, tag: str, values: dict[str, str | None]) -> None:
    if values.get("data-tracker"):
        page.trackers.append(values["data-tracker"] or "")
    if values.get("data-calculator") and tag == "form":
        page.calculators.append(values["data-calculator"] or "")
    if tag == "footer" and "gm-footer" in (values.get("class") or "").split():
        page.gm_footer = True
    if tag == "form" and "table-settings" in (values.get("class") or "").split() and values.get("data-game"):
        page.settings.append(values["data-game"] or "")
    if values.get("data-runtime"):
        base = page.url if page.url.endswith("/") else posixpath.dirname(page.url)
        page.runtimes.add(posixpath.normpath(posixpath.join(base, values["data-runtime"] or "")).strip("/") + "/")
