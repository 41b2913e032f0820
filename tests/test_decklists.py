"""One decklist reader for every game (calculators/decklists.py): Tell-Tale's decklist and RPGDL's
Season Deck read a line the same way, and refuse the same mistakes with the same sentences."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculators import rpgdl, runner, tell_tale
from calculators.decklists import COPY_DIGITS, card_key, count_and_name, parse_decklist


def read(text: str, most: int = 10):
    return parse_decklist(text, what="A list", field="cards", most=most)


def refused(text: str, most: int = 10) -> tuple[str, str | None]:
    with pytest.raises(ValueError) as err:
        read(text, most)
    return str(err.value), err.value.field


@pytest.mark.parametrize("line, parts", [
    ("4 Lightning Bolt", ("4", "Lightning Bolt")), ("4x Lightning Bolt", ("4", "Lightning Bolt")),
    ("4X Bolt", ("4", "Bolt")), ("4 x Bolt", ("4", "Bolt")), ("4× Bolt", ("4", "Bolt")), ("4 × Bolt", ("4", "Bolt")),
    ("Bolt x4", ("4", "Bolt")), ("Bolt x 4", ("4", "Bolt")), ("Bolt ×4", ("4", "Bolt")), ("-2x Forest", ("-2", "Forest")),
    ("Lightning Bolt", (None, "Lightning Bolt")), ("X-Wing", (None, "X-Wing")), ("x4", (None, "x4")),
    ("Axeman -2", (None, "Axeman -2")), ("٤ Axeman", (None, "٤ Axeman")), ("4", (None, "4")),
])
def test_a_line_is_a_count_and_a_name(line, parts):
    assert count_and_name(line) == parts


def test_blank_lines_and_comments_are_skipped():
    assert read("\n   \n# sideboard\n// lands\n\t\n4 Bolt\n\n") == (("Bolt", 4),)
    assert read("") == () and read("\n\n# only a comment") == ()


def test_the_same_card_adds_up_by_its_words_and_keeps_its_first_spelling():
    assert read("2 Lightning  Bolt\n1 lightning bolt\nLIGHTNING BOLT x 3\n4 Shock") == (("Lightning Bolt", 6), ("Shock", 4))
    assert card_key("  Lightning\tBOLT ") == card_key("lightning bolt") == "lightning bolt"


@pytest.mark.parametrize("text, line, said", [
    ("0 Forest", 1, "Line 1: a card is listed with at least 1 copy; got 0 of 'Forest'."),
    ("4 Bolt\n\n-2x Forest", 3, "Line 3: a card is listed with at least 1 copy; got -2 of 'Forest'."),
    ("Forest x 0", 1, "Line 1: a card is listed with at least 1 copy; got 0 of 'Forest'."),
    ("9" * 5000 + " Bolt", 1, "Line 1: '99999999999999999999…' copies of 'Bolt' is more than any deck holds."),
    ("1" * (COPY_DIGITS + 1) + " Bolt", 1, f"Line 1: '{'1' * (COPY_DIGITS + 1)}' copies of 'Bolt' is more than any deck holds."),
])
def test_a_bad_count_is_refused_naming_its_line_and_field(text, line, said):
    assert refused(text) == (said, "cards")


def test_the_most_copies_a_line_may_give():
    assert read("9" * COPY_DIGITS + " Bolt") == (("Bolt", int("9" * COPY_DIGITS)),)


def test_a_long_name_is_cut_in_the_sentence_not_in_the_list():
    name = "Our Market Research Shows That Players Like Really Long Card Names"
    message, _ = refused(f"0 {name}")
    assert message == f"Line 1: a card is listed with at least 1 copy; got 0 of '{name[:40]}…'."
    assert read(f"1 {name}") == ((name, 1),)


def test_the_lines_are_capped_inclusively():
    assert read("4 Bolt\n" * 10) == (("Bolt", 40),)
    assert refused("4 Bolt\n" * 11) == ("A list has at most 10 lines; this one has 11.", "cards")
    assert refused("\n" * 11) == ("A list has at most 10 lines; this one has 11.", "cards")  # blank lines count


def test_what_is_not_text_is_refused_with_a_sentence():
    assert refused(4) == ("A list is text, one entry per line; got int.", "cards")


@pytest.mark.parametrize("name, field, cap", [
    ("tell_tale.check_deck", "decklist", tell_tale.DECKLIST_MAX_LENGTH),
    ("rpgdl.check_season_deck", "cards", rpgdl.SEASON_DECK_MAX_LENGTH),
])
def test_a_long_list_is_capped_by_its_field(name, field, cap):
    """The characters are the form field's cap (Param.max_length), before any line is read."""
    answer = runner.run(name, {field: "4 Bolt\n" + "#" * cap})
    assert answer["ok"] is False and answer["field"] == field
    assert answer["error"].endswith(f"characters long; the limit is {cap:,}.")


@pytest.mark.parametrize("text", ["4 Bolt\nShock x2\n# side\n0 Forest", "Bolt x4\n4x Shock\n2 bolt", "9999999 Rats", "\n\n"])
def test_both_games_read_a_list_alike(text):
    """Tell-Tale's decklist and RPGDL's Season Deck are one reading: the same cards, or the same sentence."""
    def outcome(parse):
        try:
            return dict(parse(text))
        except ValueError as err:
            return str(err)

    assert outcome(tell_tale.parse_decklist) == outcome(rpgdl.parse_season_deck)


@given(st.lists(st.tuples(st.integers(1, 99), st.sampled_from(["Bolt", "Shock", "Lava Spike", "Goblin Guide"]),
                          st.sampled_from(["{n} {c}", "{n}x {c}", "{n} x {c}", "{c} x{n}", "{c} x {n}"])), max_size=20))
def test_the_copies_written_are_the_copies_counted(rows):
    text = "\n".join(shape.format(n=n, c=card) for n, card, shape in rows)
    expected: dict[str, int] = {}
    for n, card, _ in rows:
        expected[card] = expected.get(card, 0) + n
    assert dict(read(text, most=20)) == expected

