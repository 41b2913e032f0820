"""A result's link on a phone goes to the system share sheet, Copy where there is none, in Chromium.

The page's navigator.share is stood in for before the site's scripts run (the tests' Chromium has none): it
records what it was handed, or closes unshared, or fails. With none, or on a desktop, the button copies.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect
from support.helpers import BOOT, DESKTOP, PHONE, calculator_pages

pytestmark = pytest.mark.browser
ATTACK = "tell_tale.resolve_attack"
SHARE_SHEET = """(how) => {
  window.shared = [];
  navigator.share = async (data) => {
    window.shared.push(data);
    if (how === "closed") throw new DOMException("Share canceled", "AbortError");
    if (how === "fails") throw new DOMException("Not allowed", "NotAllowedError");
  };
}"""


@pytest.fixture(scope="module")
def pages_of(site):
    return calculator_pages(site)


def result_page(browser, base_url, pages_of, size, sheet=None):
    context = browser.new_context(**size)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    if sheet:
        context.add_init_script(f"({SHARE_SHEET})({json.dumps(sheet)})")
    page = context.new_page()
    page.goto(base_url + pages_of[ATTACK])
    form = page.locator(f'form[data-calculator="{ATTACK}"]')
    form.locator("[name=power]").fill("5")
    form.locator("[name=d20]").fill("17")
    form.locator('.calc-result[data-outcome="full"]').wait_for(timeout=BOOT)
    return context, page, form


def copied(page):
    return page.evaluate("navigator.clipboard.readText()")


def test_on_a_phone_the_result_link_goes_to_the_share_sheet(browser, base_url, pages_of):
    context, page, form = result_page(browser, base_url, pages_of, PHONE, "shares")
    try:
        share = form.locator("[data-action=share]")
        expect(share).to_have_text("Share link", use_inner_text=True)
        page.evaluate("navigator.clipboard.writeText('untouched')")
        share.tap()
        page.wait_for_function("window.shared.length === 1", timeout=BOOT)
        data = page.evaluate("window.shared[0]")
        assert f"calc={ATTACK}" in data["url"] and "power=5" in data["url"] and "d20=17" in data["url"], data
        assert data["url"].startswith(base_url) and data["title"]
        assert copied(page) == "untouched"  # the sheet shares it: nothing copied behind the player's back
    finally:
        context.close()


@pytest.mark.parametrize("sheet,copies", [("closed", False), ("fails", True)])
def test_a_share_sheet_closed_copies_nothing_and_one_that_fails_copies(browser, base_url, pages_of, sheet, copies):
    context, page, form = result_page(browser, base_url, pages_of, PHONE, sheet)
    try:
        page.evaluate("navigator.clipboard.writeText('untouched')")
        form.locator("[data-action=share]").tap()
        page.wait_for_function("window.shared.length === 1", timeout=BOOT)
        if copies:
            form.locator("[data-action=share][data-copied]").wait_for(timeout=5000)
            assert "power=5" in copied(page)
        else:
            page.wait_for_timeout(300)
            assert copied(page) == "untouched"
    finally:
        context.close()


@pytest.mark.parametrize("size,sheet", [(PHONE, None), (DESKTOP, "shares")], ids=["phone-without-sheet", "desktop"])
def test_without_a_share_sheet_or_on_a_desktop_the_link_is_copied(browser, base_url, pages_of, size, sheet):
    context, page, form = result_page(browser, base_url, pages_of, size, sheet)
    try:
        share = form.locator("[data-action=share]")
        expect(share).to_have_text("Copy link", use_inner_text=True)
        share.click()
        form.locator("[data-action=share][data-copied]").wait_for(timeout=5000)
        expect(share).to_have_text("Link copied", use_inner_text=True)
        link = copied(page)
        assert f"calc={ATTACK}" in link and "power=5" in link and "d20=17" in link
        if sheet:
            assert page.evaluate("window.shared") == []
    finally:
        context.close()
