"""Every printed page's footer: the site's address of the page and the date of its rules.

A page on paper has lost its address bar, so the finishing step ends each
built page's article with a line naming the page's address on the deployed
site and the date of the rules it states: its game's (gm_screens.rules_date:
the last commit to the game's pages), or the newest of the games' on a page
of no game (the home page, the calculators, the coverage page). The screen
never shows it (`hidden`); docs/assets/print.css prints it. A GM screen has a
footer of its own (rulebook/gm_screen.py) and gets none. The words go in
escaped; a page without an article is left as it is.
"""

from __future__ import annotations

from pathlib import Path

from ..templating import macro

from .gm_screens import address, rules_date

ARTICLE_END = "</article>"
GM_FOOTER = 'class="gm-footer"'


def add(page: str, url: str, site_url: str, site_name: str, docs: Path, folders: tuple[str, ...]) -> str:
    """The built page `page` (at `url`, relative to the site) with its print footer before its article's end."""
    if GM_FOOTER in page or ARTICLE_END not in page:
        return page
    folder = url.split("/", 1)[0]
    dates = [rules_date(docs, f) for f in ((folder,) if folder in folders else folders)]
    if not dates:
        return page
    where = address(site_url, url)
    line = macro("site_fill.html", "print_footer", site_name, where, max(dates))
    at = page.rindex(ARTICLE_END)
    return page[:at] + line + page[at:]


__all__ = ["add"]
