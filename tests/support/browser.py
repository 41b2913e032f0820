"""Chromium for the tests and the benchmarks: its flags, where it is, and the
wrapper the `browser` fixture hands out."""

from __future__ import annotations

import contextlib
import os
import shutil
import time

from .helpers import idle_runtime

CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# The tests' browser only: WebAssembly compiled by the baseline compiler
# (Liftoff) and never recompiled by the optimising one. In each fresh context
# V8 otherwise spends about 1.2 s of CPU recompiling the 9.6 MB
# pyodide.asm.wasm in the background, which pays off only over minutes of
# use; a browser test lives seconds. The answers are the same; make bench
# and Lighthouse keep V8's defaults, as a reader's browser has them.
#
# And no site isolation: every page the tests open is of one site
# (127.0.0.1, whatever the port), so isolating sites splits nothing, but
# Chromium still starts a spare renderer process for each new page: about a
# tenth of a page's CPU (0.94 against 0.85 CPU-s for a rule page, 2.42
# against 2.17 for a calculator's share link, medians of 10 on 2 cores).
TEST_ONLY_FLAGS = ["--js-flags=--liftoff-only", "--disable-features=site-per-process", "--disable-site-isolation-trials"]


def chromium_path() -> str | None:
    """CHROMIUM, else a chromium on PATH; None lets Playwright use its own."""
    return os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


def answer_with(body: str):
    """A route handler that answers with this JSON. A context closed while
    it answers is no fault of the test that follows (Playwright would raise
    the error in whatever that test calls next)."""
    from playwright.sync_api import Error

    def answer(route):
        with contextlib.suppress(Error):
            route.fulfill(status=200, content_type="application/json", body=body)

    return answer


def crash(browser) -> None:
    """Crash `browser` (Chromium's own Browser.crash) and wait until Playwright sees it gone."""
    with contextlib.suppress(Exception):  # the answer never comes: the browser is gone
        browser.new_browser_cdp_session().send("Browser.crash")
    deadline = time.monotonic() + 30
    while browser.is_connected() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not browser.is_connected(), "the browser outlived its crash"


class Relaunching:
    """A browser that is launched again when the last one is gone (crashed, or killed for its memory): what is
    asked of it goes to a live one. Contexts opened before the crash die with it."""

    def __init__(self, launch):
        self._launch = launch
        self._browser = launch()

    def live(self):
        if not self._browser.is_connected():
            with contextlib.suppress(Exception):
                self._browser.close()
            self._browser = self._launch()
        return self._browser

    def __getattr__(self, name):
        return getattr(self.live(), name)


class HeldPage:
    """A page a module's tests share (one page load and one search index for many cases), made again by `make()`
    when it, its renderer or its browser died: a crash costs the test it happened in, not the rest of the module.
    `live()` gives the page to use; `close()` closes its context."""

    def __init__(self, make):
        self._make = make
        self._page = None
        self._crashed = False

    def _dead(self) -> bool:
        page = self._page
        return page is None or self._crashed or page.is_closed() or not page.context.browser.is_connected()

    def live(self):
        if self._dead():
            self.close()
            self._crashed = False
            self._page = self._make()
            self._page.on("crash", lambda _page: setattr(self, "_crashed", True))
        return self._page

    def close(self):
        if self._page is not None:
            with contextlib.suppress(Exception):  # a dead browser's context cannot be closed: it is gone already
                self._page.context.close()
            self._page = None


class Browser:
    """Playwright's browser, whose new contexts leave out two things the
    pages do on every load that a test rarely looks at, unless the test asks:

    - the site's service worker (service_workers="allow" keeps it): in a fresh
      context it precaches every page of the site (539 files, 3.3 MB) and, on
      a calculator page, the whole runtime (18 MB);
    - Material's search index (the `search_index` marker keeps it): each page
      load builds it again in Material's search worker, about 0.5 s of CPU,
      a fifth of a plain page's cost. Elsewhere the index has no pages.

    The tests of offline use, of the caches and of search ask for them.

    A test marked `idle_runtime` computes nothing: its contexts get the
    calculators' idle stand-in worker (helpers.IDLE_WORKER), so a calculator
    page it opens (a rule page, for a rule search or a preview) does not start
    Python, about 1.3 s of CPU a page. A context that lets the service worker
    in keeps the real runtime: the worker's caches take it whole."""

    def __init__(self, browser, empty_index: str | None, idle_runtime: bool = False):
        self._browser = browser
        self._empty_index = empty_index  # the index's text, or None to serve the site's own
        self._idle_runtime = idle_runtime

    def __getattr__(self, name):
        return getattr(self._browser, name)

    def new_context(self, **options):
        options.setdefault("service_workers", "block")
        context = self._browser.new_context(**options)
        if self._empty_index is not None:
            context.route("**/search/search_index.json", answer_with(self._empty_index))
        if self._idle_runtime and options["service_workers"] == "block":
            context.route("**/pyodide/**", idle_runtime)
        return context
