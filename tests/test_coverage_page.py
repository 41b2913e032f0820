"""The rules coverage page read on a phone: each rule's row stacked, its cells full width under the
column's name; on a desktop the same rows stay a table of four columns."""

from __future__ import annotations

import pytest
from support.helpers import DESKTOP, PHONE

pytestmark = pytest.mark.browser

ROW = "table.coverage:not(.coverage-counts) tbody tr"
CELLS = f"() => [...document.querySelector('{ROW}').cells].map((c) => [c.getBoundingClientRect().width, getComputedStyle(c, '::before').content])"


def _cells(browser, base_url, size):
    context = browser.new_context(**size)
    page = context.new_page()
    page.goto(base_url + "rules-coverage/")
    page.locator(ROW).first.wait_for()
    cells = page.evaluate(CELLS)
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    context.close()
    return cells, wide


def test_on_a_phone_each_rules_row_is_stacked_and_its_cells_named(browser, base_url):
    cells, wide = _cells(browser, base_url, PHONE)
    assert wide <= 360
    assert len(cells) == 4 and all(width > 300 for width, _ in cells)  # each as wide as the page's text, not a quarter of it
    assert [label for _, label in cells] == ["none", '"Computed by: "', '"Tests: "', '"Rulings: "']


def test_on_a_desktop_the_rules_rows_stay_a_table(browser, base_url):
    cells, _ = _cells(browser, base_url, DESKTOP)
    assert len(cells) == 4 and sum(width for width, _ in cells) < 1280 and all(label == "none" for _, label in cells)
