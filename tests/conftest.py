"""Shared fixtures: the built site, a loopback server for it, and Chromium;
the markers that sort tests by what they need; the Hypothesis profiles."""

from __future__ import annotations

import contextlib
import functools
import http.server
import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import ClassVar

import pytest
from hypothesis import settings

from helpers import idle_runtime

ROOT = Path(__file__).resolve().parent.parent
# SITE_DIR lets parallel work test its own build (mkdocs build -d DIR).
SITE = Path(os.environ.get("SITE_DIR") or ROOT / "site").resolve()


def load_module(relative_path: str):
    """A hook or benchmark module, loaded from its file (neither is a package)."""
    path = ROOT / relative_path
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------- markers and profiles

# What a test needs, read from the fixtures it uses, so no test can leave its
# marker out: `make check` runs `-m "not browser and not node and not site"`.
NEEDS = {
    "browser": {"chromium", "browser", "context", "page", "base_url"},  # Chromium (and the built site it serves)
    "site": {"site"},  # the built site: building it runs Node when the calculators changed
}

# `make check` runs `--hypothesis-profile=fast`: few examples per property,
# those with a count of their own included. `make test` keeps the counts.
FAST_EXAMPLES = 10
settings.register_profile("fast", max_examples=FAST_EXAMPLES, deadline=None)
# No deadline in any run: a deadline is a timed assertion, and on a shared
# machine under load it failed correct properties (DeadlineExceeded in
# test_talislanta.py at load 20). Speed is the benchmarks' business; a
# parser that stalls is caught by the CPU-time checks in test_robustness.py.
settings.register_profile("full", deadline=None)
settings.load_profile("full")


def pytest_collection_modifyitems(config, items):
    fast = settings.get_current_profile_name() == "fast"
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        for marker, fixtures in NEEDS.items():
            if used & fixtures and not item.get_closest_marker(marker):
                item.add_marker(marker)
        if item.get_closest_marker("browser") and not item.get_closest_marker("site"):
            item.add_marker("site")  # a browser test opens the built site
        test = getattr(item, "obj", None)
        if fast and getattr(test, "is_hypothesis_test", False):
            # A test's own @settings(max_examples=...) outranks any profile: cap it here.
            own = test._hypothesis_internal_use_settings
            if own.max_examples > FAST_EXAMPLES:
                test._hypothesis_internal_use_settings = settings(own, max_examples=FAST_EXAMPLES)


def made_once(tmp_path_factory, name: str, make):
    """make()'s JSON-ready result, made by one pytest-xdist process and read by the others.

    For a slow module fixture (Material's search worker over every rule ID,
    Pyodide under Node): each process ran it again. The processes share the
    parent of their temporary folders; the first to take the lock makes the
    result there, the others wait for it and read it."""
    import fcntl
    import json

    shared = tmp_path_factory.getbasetemp().parent if os.environ.get("PYTEST_XDIST_WORKER") else tmp_path_factory.getbasetemp()
    path = shared / f"made-once-{name}.json"
    with open(shared / f"made-once-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if path.exists():
            return json.loads(path.read_text(encoding="utf-8"))
        result = make()
        path.write_text(json.dumps(result), encoding="utf-8")
        return result


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
TEST_ONLY_FLAGS = ["--js-flags=--liftoff-only"]


@pytest.fixture(scope="session")
def site() -> Path:
    """The built site. `make test` builds it first; a bare pytest builds it here."""
    if not (SITE / "rules.json").exists():
        env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
        subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(SITE)], cwd=ROOT, check=True, env=env)
    return SITE


# An empty page at the site's origin, served by the tests' server: a test
# puts things in the site's storage there before it opens the page under
# test. A page of the site would load Material and, on a calculator page,
# start the runtime only to be left: about 2 s of CPU.
BLANK = "__blank__.html"


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """A static host as the README asks for: right MIME types, no caching games."""

    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".json": "application/json",
        ".webmanifest": "application/manifest+json",
    }

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def send_head(self):
        """Serve sitemap.xml as if the site had been built for this address,
        and BLANK, an empty page at the site's origin.

        Material's instant navigation only takes links that are in the
        sitemap, and it compares ports: a deployment sets SITE_URL to its own
        address; this server plays that deployment on a random port."""
        if self.path.split("?")[0] == "/" + BLANK:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return io.BytesIO(b"")
        if self.path.split("?")[0].endswith("/sitemap.xml"):
            path = Path(self.translate_path(self.path))
            here = f"http://127.0.0.1:{self.server.server_address[1]}/"
            body = re.sub(r"<loc>https?://[^/<]+/", f"<loc>{here}", path.read_text()).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/xml")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            return io.BytesIO(body)
        return super().send_head()

    def log_message(self, *args):  # keep test output readable
        pass


class QuietServer(http.server.ThreadingHTTPServer):
    """A browser that closes a connection mid-answer (a page left, a request
    aborted on purpose) is no fault of the site: not printed as a traceback."""

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


def serve(directory: Path, handler=SiteHandler):
    server = QuietServer(("127.0.0.1", 0), functools.partial(handler, directory=str(directory)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


@pytest.fixture(scope="session")
def base_url(site):
    server, url = serve(site)
    yield url
    server.shutdown()
    server.server_close()


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


@pytest.fixture(scope="session")
def chromium():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS + TEST_ONLY_FLAGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def empty_search_index(site) -> str:
    """The site's search index with no pages in it (its config kept)."""
    config = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))["config"]
    return json.dumps({"config": config, "docs": []})


@pytest.fixture
def browser(chromium, request, empty_search_index):
    return Browser(chromium, None if request.node.get_closest_marker("search_index") else empty_search_index,
                   idle_runtime=request.node.get_closest_marker("idle_runtime") is not None)


@pytest.fixture
def context(browser):
    context = browser.new_context()
    yield context
    context.close()


@pytest.fixture
def page(context):
    """A page that records console errors and uncaught exceptions."""
    page = context.new_page()
    page.errors = []
    page.on("console", lambda m: m.type == "error" and page.errors.append(m.text))
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page
