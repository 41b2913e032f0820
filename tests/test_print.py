"""Pages on paper (issue 35; docs/assets/print.css): Chromium prints them to PDF and the tests read the PDF.

Each GM screen prints landscape on A4 and on US Letter in one to three
pages, every panel inside one page box (break-inside: avoid, and no panel
taller than a page); a rule page, a calculator page and the trackers with a
record print with no navigation, search, button, field or runtime status:
neither in the PDF's text nor visible under print media.
"""

from __future__ import annotations

import io
import json

import pytest
from pypdf import PdfReader

from conftest import BLANK

pytestmark = [pytest.mark.browser, pytest.mark.idle_runtime]
GAMES = ("tell-tale", "talislanta", "rpgdl")
PAPER = {"A4": (297, 210), "Letter": (279.4, 215.9)}  # landscape, mm
MM = 96 / 25.4  # CSS px per mm
GM_MARGIN = 8  # mm, print.css's @page gm-screen
# Words of the site's chrome and controls: none may reach paper.
CHROME = ("Skip to content", "Rules coverage", "Search", "Roll for me", "Copy link", "Copy the link",
          "Made with", "The calculator starts", "Back to top")
HIDDEN = (".md-header", ".md-tabs", ".md-sidebar--primary", ".md-sidebar--secondary", ".md-footer", ".rule-copy", ".md-search",
          "button", "input", "select", "textarea", ".calc-status", ".tracker-status")


def pdf_text(data: bytes) -> tuple[int, str]:
    reader = PdfReader(io.BytesIO(data))
    return len(reader.pages), "\n".join(page.extract_text() for page in reader.pages)


def visible(page, selectors) -> list[str]:
    return page.evaluate("""sels => sels.filter(s => [...document.querySelectorAll(s)].some(e => e.checkVisibility()))""", list(selectors))


@pytest.mark.parametrize("game", GAMES)
def test_a_gm_screen_prints_landscape_in_one_to_three_pages_each_panel_whole(page, base_url, game):
    page.route("**/pyodide/**", lambda route: route.abort())
    page.goto(base_url + f"{game}/gm-screen/")
    panels = page.locator(".gm-panel")
    titles = panels.locator("h2").all_text_contents()
    assert titles and page.locator(".gm-text:empty").count() == 0
    for paper in PAPER:
        count, text = pdf_text(page.pdf(format=paper, landscape=True))
        assert 1 <= count <= 3, f"{game} on {paper}: {count} pages"
        assert all(title in text for title in titles), paper
        assert not [w for w in CHROME if w in text], paper
    # Each panel whole on one page: never broken inside, and shorter than the page's box, laid out at its width
    # (last: a window resized changes what Material lays out for the prints after it).
    page.emulate_media(media="print")
    for paper, (width, height) in PAPER.items():
        page.set_viewport_size({"width": round((width - 2 * GM_MARGIN) * MM), "height": round((height - 2 * GM_MARGIN) * MM)})
        boxes = panels.evaluate_all("ps => ps.map(p => [p.id, getComputedStyle(p).breakInside, p.getBoundingClientRect().height])")
        box_height = (height - 2 * GM_MARGIN) * MM
        assert all(avoid == "avoid" for _, avoid, _ in boxes), boxes
        assert all(h < box_height for _, _, h in boxes), (paper, [(i, round(h)) for i, _, h in boxes], round(box_height))
        assert visible(page, HIDDEN) == [], paper
    page.emulate_media(media=None)
    # The footer: the screen's address and the date of the rules, in words.
    footer = page.locator(".gm-footer").inner_text()
    assert f"{game}/gm-screen/" in footer and "rules of 20" in footer


def test_a_rule_page_and_a_calculator_page_print_without_chrome_and_links_print_their_ids(page, base_url):
    page.route("**/pyodide/**", lambda route: route.abort())
    texts = {}
    for url in ("tell-tale/advantage/", "tell-tale/combat/"):  # the second has calculators
        page.goto(base_url + url)
        _, text = texts[url] = pdf_text(page.pdf(format="A4"))
        assert not [w for w in CHROME if w in text], url
        assert "tt.combat.attack-table" in text, url  # a rule's ID badge, or a link printed with its ID
        page.emulate_media(media="print")
        assert visible(page, (*HIDDEN, "form.calc", ".calc-heading")) == [], url
        page.emulate_media(media=None)
    assert "Attack table [tt.combat.attack-table]" in texts["tell-tale/advantage/"][1]  # [[tt.combat.attack-table]] on paper


def _season(page, base_url):
    from test_season_page import mid_season

    page.goto(base_url + BLANK)
    page.evaluate("s => localStorage.setItem('table-rules:rpgdl.season', s)", mid_season())
    page.goto(base_url + "rpgdl/season-tracker/")
    page.locator(".season[data-loaded]").wait_for(timeout=120_000)
    return ("Ana", "Benedetta")


def _fight(page, base_url):
    from calculators.tell_tale import run_script
    from helpers_encounter import FIGHT

    state = run_script(FIGHT[:12])
    page.goto(base_url + BLANK)
    page.evaluate("s => localStorage.setItem('table-rules:tell_tale.encounter', s)", json.dumps(state))
    page.goto(base_url + "tell-tale/encounter/")
    page.locator(".tracker-status", has_text="Ready").wait_for(timeout=120_000)
    return tuple(c["name"] for c in state["combatants"][:2])


@pytest.mark.parametrize("open_record", [_season, _fight], ids=["season", "fight"])
def test_a_tracker_prints_its_record_not_its_controls(browser, base_url, open_record):
    context = browser.new_context(service_workers="allow")  # the real runtime: the record is drawn from Python's answer
    try:
        page = context.new_page()
        names = open_record(page, base_url)
        _, text = pdf_text(page.pdf(format="A4"))
        assert all(name in text for name in names), text[:400]
        assert not [w for w in CHROME if w in text]
        page.emulate_media(media="print")
        assert visible(page, HIDDEN) == []
    finally:
        context.close()


def test_a_gm_screen_shows_the_tables_own_ruling(browser, base_url):
    """A ruling this device's table chose differently is marked on the GM screen too (table.js's ruling marks)."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.route("**/pyodide/**", lambda route: route.abort())
        page.goto(base_url + BLANK)
        page.evaluate("localStorage.setItem('table-rules:settings', JSON.stringify({'tell_tale.both': 'count'}))")
        page.goto(base_url + "tell-tale/gm-screen/")
        mark = page.locator("#gm-advantage .ts-yours")
        mark.wait_for(timeout=30_000)
        assert "More sources wins" in mark.inner_text()
        assert page.locator(".ts-yours").count() == 1
    finally:
        context.close()
