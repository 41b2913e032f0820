"""Pages on paper (docs/assets/print.css): Chromium prints them to PDF and the tests read the PDF.

Each GM screen prints landscape on A4 and on US Letter in one to three
pages, its words 8.5 pt or more and never cut short, its panels flowing
from column to column with no line, table or title cut; a rule page, a calculator page and the trackers with a
record print with no navigation, search, button, field or runtime status:
neither in the PDF's text nor visible under print media.
"""

from __future__ import annotations

import io
import json
import re

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader
from support import storage
from support.server import BLANK

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


def smallest_sizes(data: bytes) -> dict[str, float]:
    """Each font of a PDF and the smallest size, in points, any words are drawn in it (its matrices applied)."""
    found: dict[str, float] = {}

    def seen(text, cm, tm, font, size):
        if text.strip() and font:
            scale = (tm[2] ** 2 + tm[3] ** 2) ** 0.5 * (cm[2] ** 2 + cm[3] ** 2) ** 0.5
            name = str(font.get("/BaseFont", "")).split("+")[-1]
            found[name] = min(found.get(name, 99.0), round(size * scale, 2))

    for page in PdfReader(io.BytesIO(data)).pages:
        page.extract_text(visitor_text=seen)
    return found


# Laid out for paper: what may break across columns and pages (a panel may go on in the next column; none of its
# lines, tables or its title is cut, and a title stays with what follows it), and a table wider than its panel.
PAPER_LAYOUT = """() => {
  const found = [];
  for (const e of document.querySelectorAll('.gm-lines > li, .gm-terms > li, .gm-table-wrap, .gm-footer')) {
    if (getComputedStyle(e).breakInside !== 'avoid') found.push(['cut', e.textContent.slice(0, 40)]);
  }
  for (const h of document.querySelectorAll('.gm-panel h2')) if (getComputedStyle(h).breakAfter !== 'avoid') found.push(['alone', h.textContent]);
  for (const t of document.querySelectorAll('.gm-panel table')) {
    const panel = t.closest('.gm-panel').getBoundingClientRect();
    if (t.getBoundingClientRect().right > panel.right + 0.5) found.push(['wide', t.caption?.textContent ?? '']);
  }
  return found;
}"""
MIN_PT = 8.5  # the smallest words on a GM screen's paper, but its rule IDs (monospace, small on purpose)


@pytest.mark.parametrize("game", GAMES)
def test_a_gm_screen_prints_landscape_in_one_to_three_pages_every_word_whole_and_large(page, base_url, game):
    """Each line's words end a sentence (a preview's "…" never reaches paper), every word but the rule IDs is
    8.5 pt or more, measured in the PDF, and no line, table or title is cut between columns or pages."""
    page.route("**/pyodide/**", lambda route: route.abort())
    page.goto(base_url + f"{game}/gm-screen/")
    panels = page.locator(".gm-panel")
    titles = panels.locator("h2").all_text_contents()
    assert titles
    expect(page.locator(".gm-text:empty")).to_have_count(0)
    for paper in PAPER:
        data = page.pdf(format=paper, landscape=True)
        count, text = pdf_text(data)
        assert 1 <= count <= 3, f"{game} on {paper}: {count} pages"
        assert all(title in text for title in titles), paper
        assert not [w for w in CHROME if w in text], paper
        assert "…" not in text, (paper, [line for line in text.splitlines() if "…" in line])
        sizes = smallest_sizes(data)
        assert [f for f in sizes if "Mono" in f], sizes  # the rule IDs
        assert {f: pt for f, pt in sizes.items() if pt < MIN_PT and "Mono" not in f} == {}, paper
    # Laid out at each paper's width (last: a window resized changes what Material lays out for the prints after it).
    page.emulate_media(media="print")
    for paper, (width, height) in PAPER.items():
        page.set_viewport_size({"width": round((width - 2 * GM_MARGIN) * MM), "height": round((height - 2 * GM_MARGIN) * MM)})
        assert page.evaluate(PAPER_LAYOUT) == [], paper
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
        assert visible(page, (*HIDDEN, "form.calc")) == [], url
        page.emulate_media(media=None)
        footer(text, url)
    assert "Attack table [tt.combat.attack-table]" in texts["tell-tale/advantage/"][1]  # [[tt.combat.attack-table]] on paper


def footer(text: str, url: str) -> None:
    """The page's address and the date of its rules, at the end of its text (rulebook/site/print_footer.py)."""
    assert re.search(rf"Table Rules · \S*/{re.escape(url)} · rules of \d{{4}}-\d{{2}}-\d{{2}}", " ".join(text.split())), (url, text[-300:])


@pytest.mark.parametrize("url", ["tell-tale/combat/", "talislanta/action-table/", "rpgdl/weekend/"])
def test_a_calculator_with_nothing_typed_prints_its_odds_for_typical_inputs(page, base_url, url):
    """Not an empty form: the odds its first example with odds gives (calc_print.typical), heading and all."""
    from calculators.registry import all_calculators
    from rulebook.calc_print import inputs_line, typical
    from rulebook.forms import anchor

    page.route("**/pyodide/**", lambda route: route.abort())
    page.goto(base_url + url)
    names = page.locator("form.calc").evaluate_all("fs => fs.map(f => f.dataset.calculator)")
    printed = [n for n in names if typical(n) is not None]
    assert printed, url
    _, text = pdf_text(page.pdf(format="A4"))
    flat = " ".join(text.split())
    for name in printed:
        inputs, report = typical(name)
        assert f"Calculator: {all_calculators()[name].title}" in flat, name
        assert " ".join(report.odds_title.split()) in flat, name
        for label, p in report.odds:
            assert f"{label} {p.numerator}/{p.denominator}" in flat, (name, label)
        assert " ".join(inputs_line(all_calculators()[name], inputs).split()) in flat, name
    assert not [w for w in CHROME if w in text] and ">>>" not in text  # nor the checked examples' Python
    page.emulate_media(media="print")
    assert visible(page, (*HIDDEN, "form.calc", ".calc-field", ".calc-actions")) == []
    assert page.locator(".calc-print").evaluate_all("ps => ps.map(p => p.checkVisibility())") == [True] * len(printed)
    headings = {n: page.locator(f"#{anchor(n)}").evaluate("h => h.checkVisibility()") for n in names}
    assert headings == {n: n in printed for n in names}  # a calculator with no odds prints nothing, not even its heading
    page.emulate_media(media="screen")
    assert page.locator(".calc-print").evaluate_all("ps => ps.some(p => p.checkVisibility())") is False  # never on screen


def _season(page, base_url):
    from support.season import mid_season

    state = json.loads(mid_season())  # two weeks played
    page.goto(base_url + BLANK)
    storage.put(page, storage.SEASON, json.dumps(state))
    page.goto(base_url + "rpgdl/season-tracker/")
    page.locator(".season[data-loaded]").wait_for(timeout=120_000)
    page.locator(".season-headline", has_text="Benedetta").wait_for(timeout=120_000)
    # The standings and the weeks: each player's name, each week played and each log line.
    words = ["Ana", "Benedetta", "Standings", *(e["headline"] for e in state["log"])]
    # Not the next Weekend's form, keeping and sharing, or any fold's arrow.
    gone = (".season-section[data-section=week]", ".season-section[data-section=keep]", ".season-form", ".tracker-keep")
    return words, gone, "rpgdl/season-tracker/"


def _fight(page, base_url):
    from support.encounter import FIGHT

    from calculators.tell_tale import run_script

    state = run_script(FIGHT[:12])  # in round 1, a combatant poisoned, one hurt
    page.goto(base_url + BLANK)
    storage.put(page, storage.ENCOUNTER, json.dumps(state))
    page.goto(base_url + "tell-tale/encounter/")
    page.locator(".tracker-status", has_text="Ready").wait_for(timeout=120_000)
    # The turn, each combatant's card open (its numbers, keywords, statuses), the log's lines, the rulings line.
    shown = page.locator(".enc-card-body .enc-keywords, .enc-card .enc-flags, .enc-banner .enc-turn, .enc-rulings > summary").evaluate_all("es => es.map(e => e.textContent)")
    words = [*(c["name"] for c in state["combatants"]), *shown, *(e["text"] for e in state["log"])]
    assert any("poisoned" in w for w in shown) and len(shown) > len(state["combatants"])
    # Not the action form, the add form, keeping and sharing, the control bar, a card's editor, the screen's hints.
    gone = ("[data-enc=act-section]", "[data-enc=add-section]", ".enc-keep", ".enc-bar", ".enc-banner .enc-note", ".enc-edit", "form")
    return words, gone, "tell-tale/encounter/"


@pytest.mark.parametrize("open_record", [_season, _fight], ids=["season", "fight"])
def test_a_tracker_prints_its_record_not_its_controls(browser, base_url, open_record):
    context = browser.new_context(service_workers="allow")  # the real runtime: the record is drawn from Python's answer
    try:
        page = context.new_page()
        words, gone, url = open_record(page, base_url)
        _, text = pdf_text(page.pdf(format="A4"))
        flat = " ".join(text.split())
        assert [w for w in words if " ".join(w.split()) not in flat] == [], text[:600]
        assert not [w for w in CHROME if w in text]
        footer(text, url)
        page.emulate_media(media="print")
        assert visible(page, (*HIDDEN, *gone)) == []
        assert visible(page, (".enc-card-body",) if "encounter" in url else (".season-section[data-section=standings] table",)) != []
        # No fold's arrow: summaries print as plain lines.
        arrows = page.evaluate("""() => [...document.querySelectorAll('.tracker summary')].filter(s => s.checkVisibility())
            .map(s => [getComputedStyle(s, '::after').content, getComputedStyle(s, '::before').content, getComputedStyle(s).listStyleType])
            .filter(([a, b, l]) => (a !== 'none' && a !== 'normal') || (b !== 'none' && b !== 'normal') || l !== 'none')""")
        assert arrows == []
    finally:
        context.close()


def test_the_home_page_and_the_coverage_page_print_their_address_and_a_gm_screen_its_own_footer(page, base_url):
    page.route("**/pyodide/**", lambda route: route.abort())
    for url in ("", "rules-coverage/"):
        page.goto(base_url + url)
        footer(pdf_text(page.pdf(format="A4"))[1], url)
    page.goto(base_url + "rpgdl/gm-screen/")
    expect(page.locator(".print-footer")).to_have_count(0)
    expect(page.locator(".gm-footer")).to_have_count(1)


def test_a_gm_screen_shows_the_tables_own_ruling(browser, base_url):
    """A ruling this device's table chose differently is marked on the GM screen too (house-rules.js's ruling marks)."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.route("**/pyodide/**", lambda route: route.abort())
        page.goto(base_url + BLANK)
        storage.put(page, storage.SETTINGS, json.dumps({"tell_tale.both": "count"}))
        page.goto(base_url + "tell-tale/gm-screen/")
        mark = page.locator("#gm-advantage .ts-yours")
        mark.wait_for(timeout=30_000)
        expect(mark).to_contain_text("More sources wins", use_inner_text=True)
        expect(page.locator(".ts-yours")).to_have_count(1)
    finally:
        context.close()


def test_a_gm_screens_numbers_follow_the_tables_rulings_on_screen_and_on_paper(browser, base_url):
    """The numbers a house ruling changes are the table's own, as Python computed them for that choice (gm_panels'
    tables drawn with the chosen values); a ruling's mark prints without its "change" link, and leaves no "; " behind."""
    from playwright.sync_api import expect

    from calculators.gm_panels import Follows
    from rulebook.gm_screen import SCREENS

    follows = {item.settings: item.make for prefix in ("tt", "rpgdl") for panel in SCREENS[prefix]() for item in panel.items
               if isinstance(item, Follows)}
    chosen = {"rpgdl.trainwreck_limit": "4", "rpgdl.generic_weight": "2", "rpgdl.division_penalty": "per-division", "tell_tale.tie": "effect"}
    votes = follows[("generic_weight", "trainwreck_limit")](generic_weight=2, trainwreck_limit=4)
    slots, saves = follows[("division_penalty",)](division_penalty="per-division"), follows[("tie",)](tie="effect")
    site = [make().rows for make in follows.values()]
    assert not [t for t in (votes, slots, saves) if t.rows in site]  # each choice changes a number
    context = browser.new_context()
    try:
        page = context.new_page()
        page.route("**/pyodide/**", lambda route: route.abort())
        page.goto(base_url + BLANK)
        storage.put(page, storage.SETTINGS, json.dumps(chosen))
        for url, table, want in (("rpgdl/gm-screen/", "#gm-votes", votes), ("rpgdl/gm-screen/", "#gm-divisions", slots),
                                 ("tell-tale/gm-screen/", "#gm-saves", saves)):
            if not page.url.endswith(url):
                page.goto(base_url + url)
            rows = page.locator(f"{table} table.gm-table tbody tr")
            for n, row in enumerate(want.rows):
                cells = rows.nth(n).locator("th, td:not([data-label=Rule])")
                expect(cells).to_have_text(list(row), use_inner_text=True, timeout=30_000)
            if table == "#gm-divisions":
                continue  # the same page's PDF follows
            flat = " ".join(pdf_text(page.pdf(format="A4", landscape=True))[1].split())
            for row in want.rows:  # a row's cells in order (paper prints a row's rule ID under its header)
                assert re.search(".{0,60}?".join(map(re.escape, row)), flat), (url, row)
            assert "(a house ruling)." in flat and "(a house ruling; )" not in flat, url
            if url.startswith("rpgdl"):
                for row in slots.rows:
                    assert re.search(".{0,60}?".join(map(re.escape, row)), flat), row
    finally:
        context.close()


def test_a_page_printed_from_another_address_prints_that_address_and_its_qr_code(page, base_url):
    """The site is built for SITE_URL (127.0.0.1:8000) and served here at another port, and under another host name
    (localhost): the printed footers say the address the page was printed from, and the GM screen's QR code is
    drawn again for it (the build's said SITE_URL)."""
    import segno
    from playwright.sync_api import expect

    from rulebook.gm_screen import qr_code

    elsewhere = base_url.replace("127.0.0.1", "localhost")
    assert elsewhere != base_url and "127.0.0.1:8000" not in elsewhere
    page.route("**/pyodide/**", lambda route: route.abort())
    for url in ("tell-tale/combat/", "rpgdl/gm-screen/"):
        page.goto(elsewhere + url)
        if "gm-screen" in url:
            built = page.locator(".gm-qr").get_attribute("data-qr-for")
            assert built == "http://127.0.0.1:8000/rpgdl/gm-screen/" and qr_code(built) != ""
            # The QR library is asked for as the page opens, so that it is there when the page prints.
            expect(page.locator(".gm-qr[data-qr-ready]")).to_have_count(1, timeout=30_000)
        text = "".join(pdf_text(page.pdf(format="A4", landscape="gm-screen" in url))[1].split())
        assert elsewhere + url in text and "127.0.0.1:8000" not in text, (url, text[-300:])
    qr = page.locator(".gm-qr")
    expect_label = f"QR code of {elsewhere}rpgdl/gm-screen/"
    expect(qr).to_have_attribute("data-qr-for", elsewhere + "rpgdl/gm-screen/")
    expect(qr).to_have_attribute("aria-label", expect_label)
    # A code of the same size as segno's for that address (error correction M): drawn by the QR library, for it.
    modules = qr.locator("svg").get_attribute("data-modules")
    assert modules and int(modules) == segno.make(elsewhere + "rpgdl/gm-screen/", error="m").symbol_size(border=0)[0]
