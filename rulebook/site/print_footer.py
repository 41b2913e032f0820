"""Every printed page's footer: the site's address of the page and the date of its rules.

A page on paper has lost its address bar, so the finishing step ends each
built page's article with a line naming the page's address on the deployed
site and the date of the rules it states: its game's (rulebook/book.py
`rules_date`: the last commit to the game's pages), or the newest of the games' on a page
of no game (the home page, the calculators, the coverage page). The screen
never shows it (`hidden`); docs/assets/print.css prints it. A GM screen has a
footer of its own (rulebook/gm_screen.py) and gets none. The words go in
escaped; a page without an article is left as it is. The article's end is
where the page's one reading found it (built.py); the site's address is
known only to the finishing step's command, so the footer is written here.
"""

from __future__ import annotations

from pathlib import Path

from ..book import rules_date
from ..markup import address
from ..templating import macro
from .built import Edit, Page


def add(page: Page, site_url: str, site_name: str, docs: Path, folders: tuple[str, ...]) -> list[Edit]:
    """The print footer of the built page `page`, before its article's end (none for a GM screen)."""
    if page.gm_footer or page.article_end < 0:
        return []
    folder = page.url.split("/", 1)[0]
    dates = [rules_date(docs, f) for f in ((folder,) if folder in folders else folders)]
    if not dates:
        return []
    line = macro("site_fill.html", "print_footer", site_name, address(site_url, page.url), max(dates))
    return [(page.article_end, page.article_end, line)]


__all__ = ["add"]
