"""The fixtures: the built site, a loopback server for it, and Chromium;
the markers that sort tests by what they need; the Hypothesis profiles.
What the fixtures stand on, and what tests share, is the `support` package."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings
from support import FAST_EXAMPLES, ROOT, SETTLED_EXAMPLES, SITE
from support.browser import CHROMIUM_FLAGS, TEST_ONLY_FLAGS, Browser, Relaunching, chromium_path
from support.server import empty_search_index as empty_index
from support.server import serve

# ---------------------------------------------------------------- markers and profiles

# What a test needs, read from the fixtures it uses, so no test can leave its
# marker out: `make check` runs `-m "not browser and not node and not site"`.
NEEDS = {
    "browser": {"chromium", "browser", "context", "page", "base_url"},  # Chromium (and the built site it serves)
    "site": {"site"},  # the built site: building it runs Node when the calculators changed
}

# `make check` runs `--hypothesis-profile=fast`: few examples per property,
# those with a count of their own included. `make test` keeps the counts.
settings.register_profile("fast", max_examples=FAST_EXAMPLES, deadline=None)
# No deadline in any run: a deadline is a timed assertion, and on a shared
# machine under load it failed correct properties (DeadlineExceeded in
# test_talislanta.py at load 20). Speed is the benchmarks' business; a
# parser that stalls is caught by the CPU-time checks in test_robustness.py.
settings.register_profile("full", deadline=None)
settings.load_profile("full")
# A property marked `settled` is unchanged for four days or more and has run at its full count (60 to 150)
# in every make test since, hundreds of commits: thousands of examples in all. make test runs it at
# SETTLED_EXAMPLES, as many as the cheaper properties beside it have; the 120 random fights were the suite's
# costliest property (30 to 75 s). A new or changed property keeps its own count until it has run as long.


# The order the two pytest-xdist processes are handed the tests in: the
# modules that hold a test of 15 s or more first, then the other browser and
# site tests, the quick Python tests last. Handed out in file order, the
# longest tests came last (test_zensical.py, 33 s) and one process sat idle
# while the other finished them. Only the order changes, never a test. The
# phones' two-phone fight (about 2 minutes on a loaded machine) and the engine
# set (WebKit and Firefox starts, quiet times of 4 and 10 s) come early, so
# their waits overlap the other process's work rather than end the run.
LONGEST_FIRST = ("test_zensical.py", "test_phones.py", "test_engines.py", "test_finish.py", "test_reliability.py", "test_encounter_page.py", "test_accessibility.py",
                 "test_snapshot_headroom.py", "test_season_page.py", "test_table_use.py", "test_rule_search.py",
                 "test_calc_reading.py")


def _heavy_first(items) -> dict[str, tuple[int, int]]:
    """Each module's place (a module stays whole, so its module fixtures are made once)."""
    heavy = {i.path.name for i in items if i.get_closest_marker("site") or i.get_closest_marker("node")}
    return {i.path.name: (0, LONGEST_FIRST.index(i.path.name)) if i.path.name in LONGEST_FIRST else (1 if i.path.name in heavy else 2, 0)
            for i in items}


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
        if getattr(test, "is_hypothesis_test", False):
            # A test's own @settings(max_examples=...) outranks any profile: cap it here.
            cap = FAST_EXAMPLES if fast else SETTLED_EXAMPLES if item.get_closest_marker("settled") else None
            own = test._hypothesis_internal_use_settings
            if cap is not None and own.max_examples > cap:
                test._hypothesis_internal_use_settings = settings(own, max_examples=cap)
    place = _heavy_first(items)
    items.sort(key=lambda i: place[i.path.name])  # stable: within a group, the files' own order


@pytest.fixture(scope="session")
def site() -> Path:
    """The built site. `make test` builds it first; a bare pytest builds it here."""
    if not (SITE / "rules.json").exists():
        env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
        subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(SITE)], cwd=ROOT, check=True, env=env)
    return SITE


@pytest.fixture(scope="session")
def base_url(site):
    server, url = serve(site)
    yield url
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def chromium():
    """The process's Chromium, started again when the last one died: a crashed browser costs the test it crashed in,
    not every later test of the process."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = Relaunching(lambda: p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS + TEST_ONLY_FLAGS))
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def empty_search_index(site) -> str:
    """The site's search index with no pages in it (its config kept)."""
    return empty_index(site / "search" / "search_index.json").decode()


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
