"""The rules coverage page read on a phone: the counts fit 360 px, every column in view, and each game is a fold,
closed, so the page is a screen or two tall; opened, a game lists its rules with their titles."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from support.helpers import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.idle_runtime]

TALLEST = 2_000  # px: the page on a 360 px phone, its folds closed (each rule's row in a table made it about 73,500)


def test_on_a_phone_the_counts_fit_and_the_page_is_short_until_a_game_is_opened(browser, base_url):
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.route("**/pyodide/**", lambda route: route.abort())
        page.goto(base_url + "rules-coverage/")
        counts = page.locator("table.coverage-counts")
        expect(counts.locator("thead th")).to_have_text(["Game", "Rules", "Worked out", "Stated", "Rulings"])
        # Every column inside the page's width: nothing scrolls or is cut off.
        right = counts.evaluate("t => Math.max(...[...t.querySelectorAll('th, td')].map((c) => c.getBoundingClientRect().right))")
        assert right <= 360 and page.evaluate("document.documentElement.scrollWidth") <= 360
        assert page.evaluate("document.documentElement.scrollHeight") < TALLEST
        games = page.locator("details.coverage-game")
        expect(games).to_have_count(3)
        games.first.locator("summary").click()
        expect(games.first.locator(".coverage-title").first).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    finally:
        context.close()
