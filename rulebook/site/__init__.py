"""The site finished in one step, after any generator: `python -m rulebook.site finish site/`.

A generator (MkDocs, ProperDocs, Zensical) writes the pages from docs/; this
step, run on the folder it wrote, adds everything made from the whole site.
It takes one `Build` and does, in the order of `finish` below:

1. the book: every rule, as the pages were rendered from it (`Build.book`,
   which hooks/finish.py hands over) or read from docs/ (rulebook.read_docs)
   after a generator that runs no hooks; then every built page read once
   (built.py), which gives each rule its words as the page shows them;
2. checks of the built pages, before anything is written: every tracker on
   a page, each game's table settings at the address the page scripts read
   (built.py), every page without a policy yet (a site is finished once);
3. the Pyodide runtime folder, which every page that starts it must name
   (runtime.py);
4. the data files: rules.json, rule-redirects.json, rule-lookup.json,
   rule-previews.json, table-settings.json, the search index tuned (data.py);
5. Material's search worker put off until the page has done its first
   work (search_later.py); each page's GM screen lines' words (gm_screens.py) and its print
   footer (print_footer.py), written where the page's reading found their places (built.py
   `apply`); the scripts and stylesheets addressed by their content,
   and the pages pointed at those addresses (assets.py), then the content security policy
   and the asset build, in every page, and the policy in `_headers` (csp.py): each page is written once;
6. the short links `r/<id>/`, which carry a policy of their own
   (short_links.py);
7. last, the service worker `sw.js`: it lists and hashes every file the
   steps before wrote (offline.py), under the addresses assets.py gives.

No MkDocs in here: hooks/finish.py calls `finish` at the end of MkDocs's
build; after another generator, the command does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from calculators import games
from calculators.registry import all_trackers
from calculators.house_rules import settings_with_calculators

from ..book import Book, read_docs
from ..markup import GAMES, MarkupError
from . import built, csp, data, gm_screens, offline, print_footer, qr_library, runtime, search_later, short_links
from .assets import version_page, versioned
from .errors import SiteError

__all__ = ["Build", "SiteError", "finish"]

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Build:
    """One finishing of one built site."""

    site: Path  # the folder the generator wrote
    site_url: str  # the address the site is deployed to (canonical links, the header file's paths)
    site_name: str
    docs: Path = ROOT / "docs"
    serving: bool = False  # a live-reload server's pages: their inline script changes on every request
    calculators: bool = True  # False: a site without them (the bench's plain site): no runtime, no service worker
    say: Callable[[str], None] = field(default=lambda text: None)
    book: Book | None = None  # the book the pages were rendered from; None: read from `docs`


def finish(build: Build) -> None:
    site = build.site
    try:
        book = build.book if build.book is not None else read_docs(build.docs)
    except MarkupError as err:
        raise SiteError(str(err)) from err
    pages = built.pages(site, book.rules) if site.is_dir() else []
    if not pages:
        raise SiteError(f"{site} holds no built page: build the site first.")
    by_url = {page.url: page for page in pages}
    for url in sorted({rule.url for rule in book.rules.values()}):
        if url not in by_url:
            raise SiteError(f"The page {url} of the rules is not in {site}: was it built from {build.docs}?")
        for rid, text in by_url[url].texts.items():
            book.rules[rid].text = text
    _check_trackers(pages)
    settings = _settings_pages(pages)
    assets = versioned(build.docs)
    policy = csp.CspState(serving=build.serving)
    late_search = search_later.write(site)  # Material's search worker, started once the page is done with the cores
    for page in pages:  # every page read and checked before anything is written
        page.html = built.apply(page.html, [
            *search_later.point(page, late_search),
            *gm_screens.fill(page, book),
            *print_footer.add(page, build.site_url, build.site_name, build.docs, _game_folders(build.docs)),
        ])
        page.html = version_page(page.html, page.url, assets, urlsplit(build.site_url or "/").path)
        csp.collect(page, policy)  # the scripts as read: the steps above change none

    folder = runtime.copy(site, build.say) if build.calculators else None
    for page in pages:
        for named in sorted(page.runtimes - {folder}):
            raise SiteError(f"{page.rel} starts the runtime {named}, but this build's is {folder or 'none'}: build the pages again.")

    data.write_rules(site, book)
    try:
        data.write_settings(site, settings)
    except RuntimeError as err:  # one param name, two different settings
        raise SiteError(str(err)) from None

    for rel, text in assets.contents.items():  # the modules with their imports versioned
        if (site / rel).is_file():
            (site / rel).write_bytes(text.encode("utf-8"))  # the very bytes the digest is of
    csp.write(site, pages, policy, build.site_url, assets.build)

    short_links.write_all(site, build.site_url or "/", build.site_name, book)
    qr_library.copy(site)  # before the service worker lists the files to keep
    if folder is not None:  # the service worker exists to keep the runtime offline
        offline.write_worker(site, folder, assets.urls)


def _game_folders(docs: Path) -> tuple[str, ...]:
    return tuple(folder for folder in GAMES.values() if (docs / folder).is_dir())


def _check_trackers(pages: list[built.Page]) -> None:
    """Each tracker has one page, and a site with trackers has them all."""
    homes: dict[str, str] = {}
    for page in pages:
        for name in page.trackers:
            if name in homes:
                raise SiteError(f"Tracker {name} is on {homes[name]} and {page.rel}; a tracker has one home.")
            homes[name] = page.rel
    missing = sorted(set(all_trackers()) - set(homes))
    if missing and homes:
        raise SiteError(f"Trackers on no page: {', '.join(missing)}; add {{{{ tracker <name> }}}} to one.")


def _settings_pages(pages: list[built.Page]) -> dict[str, str]:
    """Game package -> the page of its table settings form, each where the page scripts look for it
    (its record's settings_page), and one for every game with a calculator on some page."""
    found = {game: page.url for page in pages for game in page.settings}
    expected = {g.key: g.settings_page for g in games.GAMES}
    wrong = {game: url for game, url in found.items() if expected.get(game) != url}
    with_forms = {name.split(".")[0] for page in pages for name in page.calculators}
    try:
        ruled = set(settings_with_calculators())  # the games with house rulings
    except RuntimeError as err:  # one param name, two different settings
        raise SiteError(str(err)) from None
    missing = sorted((with_forms & ruled) - set(found))
    if missing or wrong:
        raise SiteError(f"Table settings pages: each game's {{{{ table-settings <prefix> }}}} lives at "
                        f"{expected}; missing: {missing}, elsewhere: {wrong}.")
    return found
