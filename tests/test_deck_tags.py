"""Tell-Tale's deck check reads what a player knows of a card from tags on its line:
colors against the PC's color identity, [legendary] against the ban, [land] against the level."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from hypothesis import given
from hypothesis import strategies as st

from calculators import runner
from calculators.tell_tale import check_deck, parse_identity, parse_tagged_decklist, split_tags
from calculators.tell_tale.deck_tags import MAX_TAGS, CardTags

FILLER = "\n".join(f"4 Filler {n} [C]" for n in range(10))  # 40 colorless cards: a legal deck on its own


def test_cards_outside_the_color_identity_are_problems_and_colorless_always_fits():
    """tt.deck.color-identity: every card, lands included, matches the PC's colors; colorless is always allowed."""
    r = check_deck(FILLER + "\n4 Llanowar Elves [G]\n2 Forest [land G]\n1 Plains [land W]\n2 Boros Charm [RW]", identity="W")
    assert r.problems == (
        "Llanowar Elves is green, outside the PC's color identity (white).",
        "Forest is green, outside the PC's color identity (white).",
        "Boros Charm is white and red, outside the PC's color identity (white).",
    )
    assert check_deck(FILLER + "\n4 Llanowar Elves [G]\n2 Boros Charm [RW]", identity="GWR").legal
    assert check_deck(FILLER, identity="C").legal  # a colorless PC takes colorless cards


def test_without_an_identity_colors_are_not_checked_and_the_result_says_so():
    """tt.deck.color-identity needs the PC's colors: left empty, nothing is refused and the check says what it skipped."""
    r = check_deck(FILLER + "\n4 Llanowar Elves [G]")
    assert r.legal
    assert r.unchecked[0] == "Color identity: give the PC's colors to check the cards tagged with colors."
    r = check_deck(FILLER + "\n4 Llanowar Elves\n3 Shock", identity="G")
    assert r.legal and r.unchecked[0] == "Color identity: 7 cards carry no color tag, so their colors are not checked."


def test_a_card_tagged_legendary_is_banned_from_the_deck():
    """tt.deck.legendary: no legendary creature or planeswalker in the deck but the PC."""
    r = check_deck(FILLER + "\n1 Ajani Goldmane [legendary W]\n1 Liliana [planeswalker]", identity="WB")
    assert r.problems == (
        "Ajani Goldmane is tagged [legendary]: the deck holds no legendary creature or planeswalker but the PC.",
        "Liliana is tagged [legendary]: the deck holds no legendary creature or planeswalker but the PC.",
    )
    assert not check_deck(FILLER + "\n1 Ajani Goldmane [W]", identity="W").problems


def test_lands_are_a_stack_apart_and_number_as_many_as_the_level():
    """tt.deck.land-stack and tt.ruling.deck-limits: lands are not deck cards and have no 4-copy limit;
    tt.deck.lands-match-level and tt.levels.lands: as many lands as the PC's level."""
    lands = "\n7 Forest [land G]\n1 Breeding Pool [land GU]"
    r = check_deck(FILLER + lands, identity="GU", level=8)
    assert (r.size, r.land_count, r.legal) == (40, 8, True)
    assert r.lands == (("Forest", 7), ("Breeding Pool", 1))
    assert check_deck(FILLER + lands, identity="GU", level=3).problems == (
        "8 lands for a level 3 PC: a PC has as many lands as their level.",)
    assert check_deck(FILLER + "\n1 Forest [land]", level=3).problems == ("1 land for a level 3 PC: a PC has as many lands as their level.",)
    assert "Lands: no line is tagged [land], so the lands are not counted against the level." in check_deck(FILLER, level=3).unchecked


def test_a_level_below_the_start_is_refused_naming_the_field():
    """tt.levels.starting-level: a PC is level 3 or more."""
    answer = runner.run("tell_tale.check_deck", {"decklist": FILLER, "level": "2"})
    assert answer["ok"] is False and answer["field"] == "level"


@pytest.mark.parametrize("hybrid, legal", [("every", False), ("any", True)])
def test_a_hybrid_card_follows_the_ruling_or_the_tables_choice(hybrid, legal):
    """tt.ruling.hybrid-identity: [W/U] needs white and blue by the ruling, either under the alternative."""
    r = check_deck(FILLER + "\n4 Hybrid [W/U]", identity="W", hybrid=hybrid)
    assert r.legal is legal
    assert check_deck(FILLER + "\n4 Hybrid [W/U]", identity="B", hybrid=hybrid).legal is False  # neither color


def test_the_form_runs_the_ruling_from_its_rulings_box():
    """tt.ruling.hybrid-identity is a setting a table chooses: the form's field, default the ruling."""
    base = {"decklist": FILLER + "\n4 Hybrid [W/U]", "identity": "W"}
    assert runner.run("tell_tale.check_deck", base)["outcome"] == "illegal"
    assert runner.run("tell_tale.check_deck", {**base, "hybrid": "any"})["outcome"] == "legal"


@pytest.mark.parametrize("line, tags", [
    ("4 Llanowar Elves [G]", CardTags(colors=frozenset({frozenset("G")}))),
    ("Llanowar Elves x4 [g]", CardTags(colors=frozenset({frozenset("G")}))),
    ("1 Sacred Foundry [land, RW]", CardTags(colors=frozenset({frozenset("R"), frozenset("W")}), land=True)),
    ("1 Sacred Foundry [land] [R] [W]", CardTags(colors=frozenset({frozenset("R"), frozenset("W")}), land=True)),
    ("4 Reckoner [R/W]", CardTags(colors=frozenset({frozenset("RW")}))),
    ("2 Ornithopter [C]", CardTags(colorless=True)),
    ("1 Ajani [Legendary W]", CardTags(colors=frozenset({frozenset("W")}), legendary=True)),
    ("4 Lightning Bolt", None),
])
def test_tags_are_read_off_the_end_of_a_line(line, tags):
    assert split_tags(line, 1)[1] == tags
    assert parse_tagged_decklist(line)[0][2] == tags


@pytest.mark.parametrize("text, said", [
    ("4 Bolt [R]\n4 Elves [Gx]", "Line 2: 'Gx' is not a tag; tags are colors such as [G], [WU] or the hybrid [W/U], [C] for colorless, [land] and [legendary]."),
    ("4 Elves []", "Line 1: the brackets [] hold no tag; tags are colors such as [G], [WU] or the hybrid [W/U], [C] for colorless, [land] and [legendary]."),
    ("4 Elves [G", "Line 1: tags go in brackets at the end of the line, like '4 Llanowar Elves [G]'."),
    ("4 [G] Elves", "Line 1: tags go in brackets at the end of the line, like '4 Llanowar Elves [G]'."),
    ("4 Elves G]", "Line 1: a ']' closes no '['; tags are colors such as [G], [WU] or the hybrid [W/U], [C] for colorless, [land] and [legendary], at the end of the line."),
    ("4 Elves [G]]", "Line 1: a tag is in one pair of brackets, like [G]; got '[G]]'."),
    ("4 Elves [WU/B]", "Line 1: 'WU/B' is not a tag; tags are colors such as [G], [WU] or the hybrid [W/U], [C] for colorless, [land] and [legendary]."),
    ("2 Ornithopter [C G]", "Line 1: a card is colorless [C] or has colors, not both."),
    ("1 Gaea's Cradle [land legendary]", "Line 1: [legendary] marks a legendary creature or planeswalker, which is not a [land]; give the card one of the two."),
    ("4 Elves " + "[G] " * (MAX_TAGS + 1), f"Line 1: a line has at most {MAX_TAGS} tags; this one has more."),
    ("4 Elves [G]\n\n4 elves [U]", "Line 3: elves is tagged otherwise on line 1; give a card the same tags on every line, or tag it on one line only."),
    ("4 Elves [" + "G" * 19_000 + "x]", "Line 1: 'GGGGGGGGGGGGGGGGGGGG…' is not a tag; tags are colors such as [G], [WU] or the hybrid [W/U], [C] for colorless, [land] and [legendary]."),
])
def test_a_bad_tag_is_one_sentence_naming_its_line_and_the_decklist(text, said):
    answer = runner.run("tell_tale.check_deck", {"decklist": text})
    assert (answer["ok"], answer["error"], answer["field"]) == (False, said, "decklist")


def test_a_card_tagged_on_one_line_keeps_its_tags_on_untagged_lines():
    assert parse_tagged_decklist("2 Elves [G]\n2 elves") == (("Elves", 4, CardTags(colors=frozenset({frozenset("G")}))),)


@pytest.mark.parametrize("text, colors", [("GW", "GW"), ("g/w", "GW"), ("W U B", "WUB"), ("C", ""), ("colorless", ""), ("", None), ("  ", None)])
def test_the_identity_field_takes_color_letters(text, colors):
    assert parse_identity(text) == (None if colors is None else frozenset(colors))


@pytest.mark.parametrize("text", ["Gx", "green", "C G", "W" * 41])
def test_a_bad_identity_is_refused_naming_its_field(text):
    answer = runner.run("tell_tale.check_deck", {"decklist": FILLER, "identity": text})
    assert answer["ok"] is False and answer["field"] == "identity"
    assert answer["error"].startswith("The PC's color identity is written in color letters") or "characters long" in answer["error"]


def test_the_form_says_what_it_could_not_check():
    """The page is plain about what card data would be needed for (tt.deck.card-pool, tt.deck.gm-ban)."""
    details = runner.run("tell_tale.check_deck", {"decklist": FILLER})["details"]
    assert "Not checked: Modern legality and the GM's bans are the GM's to check (tt.deck.card-pool, tt.deck.gm-ban)." in details
    assert "Not checked: Legends: a legendary creature or planeswalker not tagged [legendary] is not seen." in details


COLORS = st.sets(st.sampled_from("WUBRG"), min_size=1)
CARD = st.tuples(st.integers(1, 4), st.booleans(), COLORS, st.booleans(), st.sampled_from(["{n} {c} [{t}]", "{c} x{n} [{t}]", "{n}x {c} [{t}]"]))


@given(st.lists(CARD, max_size=25), st.sets(st.sampled_from("WUBRG")), st.randoms(use_true_random=False))
def test_the_tags_decide_each_card_and_their_order_and_spelling_do_not(cards, identity, rnd):
    """tt.deck.color-identity, tt.deck.land-stack: a card is flagged exactly when one of its colors is outside the
    identity; lands leave the deck's count; the order and separators of a line's tags change nothing."""
    lines, shuffled = [], []
    for i, (n, land, colors, hybrid, shape) in enumerate(cards):
        color = "/".join(sorted(colors)) if hybrid else "".join(sorted(colors))
        words = ([color] + (["land"] if land else []))
        lines.append(shape.format(n=n, c=f"Card {i}", t=" ".join(words)))
        rnd.shuffle(words)
        shuffled.append(f"{n} Card {i} " + " ".join(f"[{w}]" for w in words))
    r = check_deck("\n".join(lines), identity="".join(identity) or "C", level=3)
    assert r.size + r.land_count == sum(n for n, *_ in cards)
    assert r.land_count == sum(n for n, land, *_ in cards if land)
    outside = {f"Card {i}" for i, (_, _, colors, _, _) in enumerate(cards) if not colors <= identity}
    assert {p.split(" is ")[0] for p in r.problems if "color identity" in p} == outside
    assert check_deck("\n".join(shuffled), identity="".join(identity) or "C", level=3) == r


def test_on_a_phone_a_bad_tag_is_said_under_the_decklist_and_what_went_unchecked_is_listed(browser, base_url):
    """The deck check's page at 360x740: a bad tag's sentence sits with the decklist field, which is marked;
    a tagged deck lists what the check could not see (tt.deck.color-identity, tt.deck.card-pool)."""
    from support.helpers import BOOT, CUT_OPTIONS_JS, PHONE

    context = browser.new_context(**PHONE, color_scheme="light")
    page = context.new_page()
    page.goto(base_url + "tell-tale/deck-construction/")
    form = page.locator('form[data-calculator="tell_tale.check_deck"]')
    deck = form.locator("[name=decklist]")
    deck.fill(FILLER + "\n4 Llanowar Elves [Gx]")
    said = runner.run("tell_tale.check_deck", {"decklist": FILLER + "\n4 Llanowar Elves [Gx]"})["error"]
    form.locator("[role=alert]").filter(has_text="Line 11").first.wait_for(timeout=BOOT)
    alert = page.locator(f"#{(deck.get_attribute('aria-describedby') or '').split()[-1]}")  # the field's own error
    expect(alert).to_have_attribute("id", "tell-tale-check-deck-decklist-error")
    expect(alert).to_have_text(said)
    expect(deck).to_have_attribute("aria-invalid", "true")
    field, message = deck.bounding_box(), alert.bounding_box()
    assert field and message and 0 <= message["y"] - (field["y"] + field["height"]) < 60, (field, message)  # just under it
    assert message["x"] + message["width"] <= 360
    page.screenshot(path="/tmp/deck-check-phone-error.png", full_page=False)
    deck.fill(FILLER + "\n4 Llanowar Elves [G]")
    form.locator("[name=identity]").fill("W")
    form.locator('.calc-result[data-outcome="illegal"]').wait_for(timeout=BOOT)
    shown = form.inner_text()
    assert "Llanowar Elves is green, outside the PC's color identity (white)." in shown
    assert "Not checked: Modern legality and the GM's bans are the GM's to check" in shown
    assert page.evaluate(CUT_OPTIONS_JS) == []
    page.screenshot(path="/tmp/deck-check-phone-result.png", full_page=True)
    context.close()
