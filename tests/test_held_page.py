"""A page a module's tests share (support.browser.HeldPage: the rule search's home page, the phone the touch
search cases type into) is made again when its renderer or its browser died, so a crash costs the test it
happened in, not every later test of the module."""

from __future__ import annotations

import contextlib
import os
import signal

import pytest
from playwright.sync_api import expect
from support.browser import CHROMIUM_FLAGS, HeldPage, Relaunching, chromium_path, crash

pytestmark = pytest.mark.browser


@pytest.fixture
def own(chromium):
    """A Chromium of the test's own, whose renderers and whole browser the test may kill."""
    kind = chromium.live().browser_type
    browser = Relaunching(lambda: kind.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS))
    yield browser
    browser.close()


def kill_renderers(browser):
    """Kill every renderer process of `browser`, as the kernel kills one for its memory."""
    for process in browser.new_browser_cdp_session().send("SystemInfo.getProcessInfo")["processInfo"]:
        if process["type"] == "renderer":
            with contextlib.suppress(ProcessLookupError):
                os.kill(process["id"], signal.SIGKILL)


def drawn(page, text):
    page.set_content(f"<p>{text}</p>")
    expect(page.locator("p")).to_have_text(text)


def test_a_held_page_is_kept_while_it_lives_and_made_again_after_its_renderer_crashed(own):
    made = []

    def make():
        made.append(own.new_context().new_page())
        return made[-1]

    held = HeldPage(make)
    first = held.live()
    drawn(first, "one")
    assert held.live() is first and len(made) == 1  # a live page serves every case
    with first.expect_event("crash", timeout=30_000):
        kill_renderers(own.live())
    second = held.live()
    assert second is not first and len(made) == 2
    drawn(second, "two")
    second.close()
    third = held.live()  # a page some case closed
    assert third is not second
    drawn(third, "three")
    held.close()
    assert held.live() is not third  # closed by its module's end: a later use gets a new one
    held.close()


def test_a_held_page_whose_browser_died_is_made_again_in_a_new_browser(own):
    held = HeldPage(lambda: own.new_context().new_page())
    first = held.live()
    drawn(first, "one")
    crash(own.live())
    second = held.live()
    assert second is not first
    drawn(second, "two")
    held.close()
