"""The GM screens (calculators/<game>/gm_panels.py, rulebook/gm_screen.py, rulebook/site/gm_screens.py).

What a line says is what the build publishes for its rule (rules.json):
its first whole sentences, never cut short as a preview may be, those of a
ruling's **Ruling:** paragraph, or the whole text; a keyword its first
sentence; every line links its rule; the site's house rulings
are marked, with the site's choice where a table may choose; the tables are
the rules modules' numbers; axe finds nothing on the new pages, light and dark.
"""

from __future__ import annotations

import html
import json
import re

import pytest
from support.rulepages import DOCS

from calculators.tell_tale import combat
from rulebook import MarkupError, read_docs
from calculators.gm_panels import Line, Table
from rulebook.gm_screen import SCREENS
from rulebook.gm_screen import screen
from rulebook.site.gm_screens import LEFT, words
from rulebook.site.short_links import description

BOOK = read_docs(DOCS)
GAMES = {"tt": "tell-tale", "tal": "talislanta", "rpgdl": "rpgdl"}
LINE = re.compile(r'<li class="gm-line( gm-ruling)?">(.*?)</li>', re.S)


def test_every_panel_names_rules_of_its_game_and_each_ruling_once():
    for prefix, panels in SCREENS.items():
        lines = [item.rule for panel in panels() for item in panel.items if isinstance(item, Line)]
        assert lines and all(rid.startswith(prefix + ".") and rid in BOOK.rules for rid in lines), prefix
        rulings = [rid for rid in lines if BOOK.rules[rid].ruling]
        assert len(rulings) == len(set(rulings)), prefix


def test_the_attack_table_panel_is_the_rules_modules_numbers():
    table = next(i for i in SCREENS["tt"]()[0].items if isinstance(i, Table))
    assert [row[:2] for row in table.rows] == [(f"{lo}" if lo == hi else f"{lo}-{hi}", label) for lo, hi, _, label in combat.ATTACK_TABLE]
    assert table.rows[-1][2] == "5.0%" and table.source == "tt.combat.attack-table"


def test_a_ruling_line_says_the_ruling_and_a_rule_line_its_preview():
    ruling, rule = BOOK.rules["tt.ruling.advantage-and-disadvantage"], BOOK.rules["tt.combat.rounding"]
    ruling.text = "The text: it is silent. Ruling: they cancel out. Alternative: count them."
    rule.text = "Fractions are always rounded down."
    assert words(ruling, "ruling") == "they cancel out."
    assert words(rule, "short") == description(rule.text) and words(rule, "whole") == rule.text


def test_a_table_that_follows_house_rulings_carries_its_words_for_every_choice_in_each_cell_it_changes():
    """The Vote Pool's table follows two settings, each of its cells one: each cell carries that setting's values only."""
    from calculators.rpgdl.data import TRAINWRECK_LIMIT_MAX

    drawn = "".join(screen("rpgdl", BOOK, "rpgdl/gm-screen/", "rpgdl/gm-screen/", "rpgdl/gm-screen.md", 9, site_url="/", docs=DOCS))
    cells = re.findall(r'<span class="gm-follows" data-gm-follow="([^"]+)" data-gm-values="([^"]+)">([^<]*)<', drawn)
    follows: dict[str, list[tuple[dict[str, str], str]]] = {}
    for keys, values, shown in cells:
        follows.setdefault(keys, []).append((json.loads(html.unescape(values)), shown))
    assert set(follows) == {"rpgdl.trainwreck_limit", "rpgdl.generic_weight", "rpgdl.division_penalty"}
    assert follows["rpgdl.trainwreck_limit"] == [({str(n): str(n) for n in range(1, TRAINWRECK_LIMIT_MAX + 1)}, "3")]
    assert ({str(w): str(10 * w) for w in range(11)}, "10") in follows["rpgdl.generic_weight"]
    # A Light duelist in the Godlike slot: -2 flat (the site's), -6 at -2 per division; the cells that never change carry nothing.
    assert ({"flat": "-2", "per-division": "-6"}, "-2") in follows["rpgdl.division_penalty"]
    assert len(follows["rpgdl.division_penalty"]) == 3


def test_a_line_says_whole_sentences_never_one_cut_short():
    """A preview cuts a long first sentence with "…"; a GM screen keeps it whole, leaves out a table's cells read as
    words after the last sentence, and takes a second sentence after a first of a few words (a ruling's answer)."""
    rule = BOOK.rules["rpgdl.worth.modified"]
    rule.text = ("A duelist's modified Worth in a duel is its printed Worth, plus 1 for each vote spent on it, plus or minus the effects of "
                 "cards and abilities, minus 2 if it plays up in a higher slot, as the improper division penalty says. Then more.")
    assert description(rule.text).endswith("…") and words(rule, "short") == rule.text.removesuffix(" Then more.")
    rule.text = "From highest to lowest they are Godlike, Heavy, Middle and Light. Rank Division 1 (highest) Godlike 2 Heavy"
    assert words(rule, "short") == "From highest to lowest they are Godlike, Heavy, Middle and Light."
    rule.text = 'It is not affected by "Destroy ..." effects. Nor by exile.'
    assert words(rule, "gist") == 'It is not affected by "Destroy ..." effects.'
    ruling = BOOK.rules["tt.ruling.prone-attacker"]
    ruling.text = "The text: silent. Ruling: disadvantage. " + "A tapped character attacks with disadvantage, " * 5 + "always. Alternative: none."
    assert words(ruling, "ruling") == "disadvantage. " + "A tapped character attacks with disadvantage, " * 5 + "always."


def test_an_unknown_game_fails_with_its_page_and_line():
    with pytest.raises(MarkupError, match=re.escape("tell-tale/gm-screen.md:9: gm-screen needs one of")):
        screen("xx", BOOK, "tell-tale/gm-screen/", "tell-tale/gm-screen/", "tell-tale/gm-screen.md", 9, site_url="/", docs=DOCS)


@pytest.mark.site
@pytest.mark.parametrize("prefix", GAMES)
def test_each_line_of_a_built_screen_is_its_rules_published_words(site, prefix):
    folder = GAMES[prefix]
    page = (site / folder / "gm-screen" / "index.html").read_text(encoding="utf-8")
    texts = {r["id"]: r["text"] for r in json.loads((site / "rules.json").read_text(encoding="utf-8"))}
    found = LINE.findall(page)
    assert found and not LEFT.search(page)  # every placeholder filled (a cell's data-gm-follow stays, for the page script)
    for ruling, body in found:
        rid = re.search(r'<a class="gm-id" href="[^"]*#([^"]+)">', body).group(1)
        said = html.unescape(re.search(r'<span class="gm-text">(.*?)</span>', body, re.S).group(1))
        assert rid.startswith(prefix + "."), rid
        # Whole sentences from the start of the rule's words (of a ruling's Ruling: paragraph), never a preview's cut.
        text = " ".join(texts[rid].split("Ruling:", 1)[1].split("Alternative:")[0].split() if ruling else texts[rid].split())
        assert ("House ruling" in body) == bool(ruling), rid
        assert said == text or (text.startswith(said) and said.endswith((".", "!", "?", ".)"))), rid
    if prefix == "tt":  # a setting: the site's choice and the table's others
        assert "Site: Cancel: one d20 (ruling); a table may choose: More sources wins." in page
        assert page.count('class="gm-tracked"') == 14  # the encounter tracker's keywords
        # Each keyword with its effect, the first sentence of its words; those that only work as in Magic on one line.
        terms = re.findall(r'<li class="gm-term">.*?#([^"]+)">.*?<span class="gm-text">(.*?)</span></li>', page)
        assert len(terms) > 20 and all(said and texts[rid].startswith(html.unescape(said)) for rid, said in terms), terms
        together = re.search(r'<li class="gm-term gm-term-group">(.*?)</li>', page).group(1)
        assert "Attach</a>, " in together and "Wither<" not in together  # Wither says more: a line of its own
        assert {rid for rid, _ in terms} | set(re.findall(r'#(tt\.keyword\.[^"]+)"', together)) == {
            r for r in texts if r.startswith("tt.keyword.")}
    assert "<svg" in page and "rules of <time" in page


# Each word of the screens' tables and rule IDs (and the coverage page's) that the page draws on two lines or
# more: a table squeezed to a phone's width once read "Norm al", "Advant age" and "25.0 %". An ID may wrap after
# a dot (<wbr>), so its parts are words here. A visually hidden table head (1 px wide) is not drawn.
SPLIT_WORDS = """() => {
  const split = [];
  for (const root of document.querySelectorAll('.gm-screen table.gm-table, .gm-screen .gm-id, table.coverage')) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node; (node = walker.nextNode());) {
      if (node.parentElement.closest('thead')?.getBoundingClientRect().width <= 1) continue;
      if (node.parentElement.closest('code')) continue;  // a test's name in the coverage tables wraps anywhere
      for (const word of node.data.matchAll(/[^\\s-]+-?/g)) {  // a line may end after a hyphen
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.bottom)));
        if (lines.size > 1) split.push(word[0]);
      }
    }
  }
  return split;
}"""


@pytest.mark.browser
@pytest.mark.idle_runtime
@pytest.mark.parametrize("profile", ["phone-dark", "desktop-light"])
def test_axe_finds_nothing_on_the_gm_screens_and_the_coverage_page(browser, base_url, profile):
    """The two ways of seeing these pages that test_accessibility's pass over every page (phone light, desktop
    dark) leaves out: a GM screen is read in a dark room on a phone, and on a laptop in daylight."""
    from support.axe import AXE, axe_violations
    from support.helpers import DESKTOP, PHONE

    size, scheme = {"phone": PHONE, "desktop": DESKTOP}[profile.split("-")[0]], profile.split("-")[1]
    failures = {}
    context = browser.new_context(**size, color_scheme=scheme, bypass_csp=True)
    context.add_init_script(path=AXE)
    page = context.new_page()
    page.route("**/pyodide/**", lambda route: route.abort())
    for url in (*(f"{folder}/gm-screen/" for folder in GAMES.values()), "rules-coverage/"):
        page.goto(base_url + url)
        found = axe_violations(page)
        if size is PHONE and (wide := page.evaluate("document.documentElement.scrollWidth")) > 360:
            found.append(f"{wide}px wide")
        if size is PHONE and (split := page.evaluate(SPLIT_WORDS)):
            found.append(f"words split inside: {split[:8]}")
        if found:
            failures[url] = found
    context.close()
    assert not failures, failures


def test_a_screens_qr_code_draws_segnos_modules_of_its_address():
    """The footer's code is drawn from segno's modules (error correction M), one 1x1 run per dark stretch of a row,
    inside a white border; a bare path has none."""
    import segno

    from rulebook.gm_screen import QR_BORDER, qr_code

    url = "https://example.org/tell-tale/gm-screen/"
    drawn = str(qr_code(url, "assets/lean-qr/index.mjs"))
    path = re.search(r' d="([^"]+)"', drawn).group(1)
    dark = {(x + dx - QR_BORDER, y - QR_BORDER) for x, y, n in
            ((int(a), int(b), int(c)) for a, b, c in re.findall(r"M(\d+) (\d+)h(\d+)v1h-\3z", path)) for dx in range(n)}
    matrix = segno.make(url, error="m").matrix
    assert dark == {(x, y) for y, row in enumerate(matrix) for x, on in enumerate(row) if on}
    assert f'data-modules="{len(matrix)}"' in drawn and f'aria-label="QR code of {url}"' in drawn
    assert str(qr_code("/tell-tale/gm-screen/")) == ""
