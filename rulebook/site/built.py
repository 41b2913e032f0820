"""What the generator wrote: its pages, and what each holds that the finishing step checks.

A page is every `.html` file of the site outside the runtime folder and the
short links (the finishing step writes those). For each, in one read: the
trackers, the calculators and table settings forms it carries, and the
runtime folders it names.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

NOT_PAGES = ("pyodide/", "r/")  # the runtime, the short links: not the generator's


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


def pages(site: Path) -> list[Page]:
    found = []
    for path in sorted(site.rglob("*.html")):
        rel = path.relative_to(site).as_posix()
        if rel.startswith(NOT_PAGES):
            continue
        url = rel.removesuffix("index.html") if rel == "index.html" or rel.endswith("/index.html") else rel
        page = Page(path, rel, url, path.read_text(encoding="utf-8"))
        _Reader(page).read()
        found.append(page)
    return found


class _Reader(HTMLParser):
    def __init__(self, page: Page) -> None:
        super().__init__(convert_charrefs=True)
        self.page = page

    def read(self) -> None:
        self.feed(self.page.html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        page = self.page
        if values.get("data-tracker"):
            page.trackers.append(values["data-tracker"] or "")
        if values.get("data-calculator") and tag == "form":
            page.calculators.append(values["data-calculator"] or "")
        if tag == "form" and "table-settings" in (values.get("class") or "").split() and values.get("data-game"):
            page.settings.append(values["data-game"] or "")
        if values.get("data-runtime"):
            base = page.url if page.url.endswith("/") else posixpath.dirname(page.url)
            page.runtimes.add(posixpath.normpath(posixpath.join(base, values["data-runtime"] or "")).strip("/") + "/")
