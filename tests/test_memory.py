"""One lifetime per page: a long visit by instant navigation keeps no page it left.

On a phone, 100 pages followed by link (Material swaps each in without a
reload), the trackers and calculators among them: after a forced garbage
collection, the DOM nodes and JS event listeners alive after page 100 are
within a tenth of those after page 10. Before each page's code hung on one
lifetime (dom.js's pageSignal) and Material's media-query listeners were
ended (material-media.js), every page stayed: about 1,650 nodes and 20
listeners more with each page.
"""

from __future__ import annotations

import time

import pytest
from support.helpers import PHONE
from support.memory import alive, walk

pytestmark = pytest.mark.browser

PAGES = 100
EARLY = 10  # the same page of the walk as PAGES
SLACK = 0.10
SETTLE_S = 30  # what a page just left still holds (a copy button's 1.5 s label) lets go within this


def test_a_hundred_pages_keep_no_more_alive_than_ten(browser, base_url):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    counts = walk(page, base_url, PAGES, {EARLY, PAGES})
    early, late = counts[EARLY], counts[PAGES]
    # Counted again until the figures hold or SETTLE_S pass: a timer of the last page may still run.
    cdp = context.new_cdp_session(page)
    deadline = time.monotonic() + SETTLE_S
    while not (late.nodes <= early.nodes * (1 + SLACK) and late.listeners <= early.listeners * (1 + SLACK)):
        if time.monotonic() > deadline:
            break
        page.wait_for_timeout(500)
        late = alive(cdp)
    context.close()
    assert late.nodes <= early.nodes * (1 + SLACK), f"DOM nodes: {early.nodes:,} after page {EARLY}, {late.nodes:,} after page {PAGES}"
    assert late.listeners <= early.listeners * (1 + SLACK), \
        f"JS event listeners: {early.listeners:,} after page {EARLY}, {late.listeners:,} after page {PAGES}"
    assert late.nodes >= early.nodes * (1 - SLACK) and late.listeners >= early.listeners * (1 - SLACK), (early, late)
    assert not errors
