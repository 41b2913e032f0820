"""Talislanta: the Action Table, opposed actions and multiple actions.

Expected values come from the rule text (docs/talislanta/, the chapter in
../shared/rulebooks/ and the Action Table bands its README gives), and the
exact odds are checked against brute-force loops over every d20 face.
"""

from __future__ import annotations

import inspect
import itertools
import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from support import ROOT
from support.rulepages import all_rules

from calculators import registry, runner, talislanta
from calculators.__main__ import main as cli_main
from calculators.talislanta import (
    ACTION_TABLE,
    OUTCOMES,
    Offset,
    action_modifier,
    action_odds,
    clear_chance,
    multiple_action_penalty,
    multiple_actions,
    outcome_for,
    resolve_action,
    sequence_modifiers,
    sequence_odds,
    success_chance,
)

DOCS = Path(__file__).resolve().parent.parent / "docs" / "talislanta"

# ------------------------------------------------------------ the rule text


def reference_outcome(total: int) -> str:
    """The bands as the rulebooks README states them, written out independently."""
    if total <= 0:
        return "mishap"
    if total <= 5:
        return "failure"
    if total <= 10:
        return "partial"
    if total <= 19:
        return "full"
    return "critical"


def page_rule_ids() -> set[str]:
    return {r.id for r in all_rules() if r.id.startswith("tal.")}


@pytest.mark.parametrize(
    "total, outcome",
    [
        (-30, "mishap"),
        (-1, "mishap"),
        (0, "mishap"),  # "0 or less"
        (1, "failure"),
        (5, "failure"),
        (6, "partial"),
        (10, "partial"),
        (11, "full"),
        (19, "full"),
        (20, "critical"),  # "20 or more"
        (45, "critical"),
    ],
)
def test_action_table_bands(total, outcome):
    assert outcome_for(total) == outcome


def test_action_table_data_matches_the_readme():
    assert [(b.outcome, b.low, b.high) for b in ACTION_TABLE] == [
        ("mishap", None, 0),
        ("failure", 1, 5),
        ("partial", 6, 10),
        ("full", 11, 19),
        ("critical", 20, None),
    ]
    assert OUTCOMES == ("mishap", "failure", "partial", "full", "critical")


def parse_band(cell: str) -> tuple[int | None, int | None]:
    cell = cell.strip()
    if m := re.fullmatch(r"(-?\d+) or less", cell):
        return None, int(m.group(1))
    if m := re.fullmatch(r"(-?\d+) or more", cell):
        return int(m.group(1)), None
    m = re.fullmatch(r"(-?\d+)\s*-\s*(-?\d+)", cell)
    assert m, f"unreadable band {cell!r}"
    return int(m.group(1)), int(m.group(2))


def test_action_table_on_the_page_parses_to_the_bands():
    md = MarkdownIt("commonmark").enable("table")
    tokens = md.parse((DOCS / "action-table.md").read_text(encoding="utf-8"))
    cells, row, in_body = [], [], False
    for t in tokens:
        if t.type == "tbody_open":
            in_body = True
        elif t.type == "tbody_close":
            break
        elif in_body and t.type == "inline":
            row.append(t.content)
            if len(row) == 2:
                cells.append(tuple(row))
                row = []
    rows = [(parse_band(band), result) for band, result in cells]
    assert rows == [
        ((None, 0), "Mishap"),
        ((1, 5), "Failure"),
        ((6, 10), "Partial Success"),
        ((11, 19), "Full Success"),
        ((20, None), "Critical Success"),
    ]
    assert [b.title for b in ACTION_TABLE] == [r for _, r in rows]


# ------------------------------------------------------------ worked examples


def test_sherra_stealth_against_the_guard():
    # Stealth 9 against Guard 7: the player adds +2.
    r = resolve_action(9, 10, opposing_rating=7)
    assert (r.modifier, r.total) == (2, 12)
    # Against a Guard of 11 the roll is at -2.
    assert resolve_action(9, 10, opposing_rating=11).modifier == -2


@pytest.mark.parametrize("prior, penalty", [(0, 0), (1, -5), (2, -10), (3, -15)])
def test_thena_cumulative_penalty(prior, penalty):
    # The mug is a normal roll, the punch is at -5, a third action at -10.
    assert multiple_action_penalty(prior) == penalty
    assert resolve_action(3, 10, prior_actions=prior).modifier == 3 + penalty


def test_thena_spd_offsets_second_action():
    # SPD +2: the second action's -5 is only -3.
    assert multiple_action_penalty(1, 2) == -3
    assert resolve_action(3, 10, prior_actions=1, offset=2).penalty == -3


def test_thena_mishap_on_first_roll_stops_the_second():
    seq = multiple_actions(2, 3, (1, 20), difficulty=-4)
    assert seq.outcome == "mishap"
    assert len(seq.actions) == 1 and seq.actions[0].outcome == "mishap"
    assert seq.unused_dice == (20,)


@pytest.mark.parametrize(
    "difficulty, modifier",
    [(3, 7), (-5, -1), (10, 14), (-10, -6), (0, 4)],  # easy actions get a bonus, hard ones a penalty
)
def test_difficulty_is_added_with_its_sign(difficulty, modifier):
    assert resolve_action(4, 8, difficulty=difficulty).modifier == modifier


def test_opposed_and_difficulty_together():
    assert resolve_action(9, 10, difficulty=2, opposing_rating=7).modifier == 4


@pytest.mark.parametrize(
    "prior, offset, kwargs, penalty",
    [
        (2, 2, {}, -8),  # offset-later-actions: once per roll
        (2, 2, {"mode": "each"}, -6),
        (3, 2, {}, -13),
        (3, 2, {"mode": "each"}, -9),
        (1, 7, {}, 0),  # offset-cap: never a bonus
        (1, 7, {"cap": "none"}, 2),
        (0, 7, {"cap": "none"}, 0),  # nothing to offset on a first action
        (2, 7, {"mode": "each"}, 0),
        (2, 7, {"mode": "each", "cap": "none"}, 4),
        (1, -2, {}, -5),  # offset-negative
        (1, -2, {"negative": "worsen"}, -7),
        (0, -2, {"negative": "worsen"}, 0),
    ],
)
def test_offset_rulings(prior, offset, kwargs, penalty):
    assert multiple_action_penalty(prior, Offset(offset, **kwargs)) == penalty


@pytest.mark.parametrize(
    "modifier, expected",
    [
        # Counted by hand from the bands: d20 + modifier over faces 1..20.
        (-5, {"mishap": "1/4", "failure": "1/4", "partial": "1/4", "full": "1/4", "critical": "0"}),
        (0, {"mishap": "0", "failure": "1/4", "partial": "1/4", "full": "9/20", "critical": "1/20"}),
        (5, {"mishap": "0", "failure": "0", "partial": "1/4", "full": "9/20", "critical": "3/10"}),
        (-20, {"mishap": "1", "failure": "0", "partial": "0", "full": "0", "critical": "0"}),
        (19, {"mishap": "0", "failure": "0", "partial": "0", "full": "0", "critical": "1"}),
    ],
)
def test_action_odds_table(modifier, expected):
    assert {k: str(v) for k, v in action_odds(modifier).items()} == expected


# ------------------------------------------------------------ brute force


@pytest.mark.parametrize("modifier", range(-25, 26))
def test_action_odds_match_brute_force(modifier):
    counts = {o: 0 for o in OUTCOMES}
    for face in range(1, 21):
        counts[reference_outcome(face + modifier)] += 1
        assert resolve_action(modifier, face).outcome == reference_outcome(face + modifier)
    assert action_odds(modifier) == {o: Fraction(c, 20) for o, c in counts.items()}


def brute_sequence(modifiers):
    """Every combination of faces; the round stops at the first Mishap."""
    endings: dict[str, Fraction] = {}
    weight = Fraction(1, 20 ** len(modifiers))
    for faces in itertools.product(range(1, 21), repeat=len(modifiers)):
        key = "clear"
        for k, (m, f) in enumerate(zip(modifiers, faces), start=1):
            if reference_outcome(m + f) == "mishap":
                key = f"mishap-{k}"
                break
        endings[key] = endings.get(key, 0) + weight
    return endings


@pytest.mark.parametrize("modifiers", [(3,), (-1, -6), (-1, -4), (5, 0, -5), (-3, -8, -13), (20, 20, 20)])
def test_sequence_odds_match_brute_force(modifiers):
    got = {k: v for k, v in sequence_odds(modifiers).items() if v}
    assert got == brute_sequence(modifiers)


def test_thena_clear_chance_by_hand():
    # Rating 3, difficulty -4: first roll a Mishap only on 1 (19/20), the
    # punch at -6 on 1-6 (14/20); with SPD +2 at -4, on 1-4 (16/20).
    assert sequence_modifiers((3, 3), difficulty=-4) == (-1, -6)
    assert multiple_actions(2, 3, difficulty=-4).clear_chance == Fraction(19, 20) * Fraction(14, 20)
    assert multiple_actions(2, 3, difficulty=-4, offset=2).clear_chance == Fraction(19, 20) * Fraction(16, 20)


def test_sequence_resolution_over_every_pair_of_faces():
    for a, b in itertools.product(range(1, 21), repeat=2):
        seq = multiple_actions(2, 3, (a, b), difficulty=-4)
        first = resolve_action(3, a, difficulty=-4)
        assert seq.actions[0] == first
        if first.outcome == "mishap":
            assert seq.outcome == "mishap" and len(seq.actions) == 1 and seq.ending == "mishap-1"
        else:
            assert seq.actions[1] == resolve_action(3, b, difficulty=-4, prior_actions=1)
            assert seq.outcome == ("mishap" if seq.actions[1].outcome == "mishap" else "clear")


def test_per_action_ratings_and_reach():
    seq = multiple_actions(3, ratings=(6, 6, 2))
    assert seq.modifiers == (6, 1, -8)
    assert seq.penalties == (0, -5, -10)
    # The third action is rolled only if neither earlier roll is a Mishap.
    assert seq.reach == (1, 1, Fraction(1) * (1 - action_odds(1)["mishap"]))


# ------------------------------------------------------------ properties

SETTINGS = st.fixed_dictionaries(
    {
        "mode": st.sampled_from(["once", "each"]),
        "cap": st.sampled_from(["penalty", "none"]),
        "negative": st.sampled_from(["ignore", "worsen"]),
    }
)


@given(st.integers(-40, 40))
def test_odds_sum_to_one(modifier):
    assert sum(action_odds(modifier).values()) == 1


@given(st.integers(-40, 40))
def test_higher_modifier_never_lowers_success(modifier):
    for level in ("partial", "full", "critical"):
        assert success_chance(modifier + 1, level) >= success_chance(modifier, level)
    assert action_odds(modifier + 1)["mishap"] <= action_odds(modifier)["mishap"]


@given(st.integers(-20, 30), st.integers(1, 20), st.integers(-15, 15), st.integers(0, 5))
def test_higher_rating_never_gives_a_worse_result(rating, d20, difficulty, prior):
    low = resolve_action(rating, d20, difficulty=difficulty, prior_actions=prior)
    high = resolve_action(rating + 1, d20, difficulty=difficulty, prior_actions=prior)
    assert OUTCOMES.index(high.outcome) >= OUTCOMES.index(low.outcome)


@given(st.integers(0, 8), st.integers(0, 20))
def test_default_penalty_is_never_a_bonus_and_grows(prior, offset):
    p = multiple_action_penalty(prior, offset)
    assert -5 * prior <= p <= 0
    assert multiple_action_penalty(prior + 1, offset) <= p


@given(st.integers(0, 8), st.integers(-10, 20), SETTINGS)
def test_offset_only_helps_unless_a_negative_attribute_worsens(prior, offset, kw):
    base = multiple_action_penalty(prior, Offset(0, **kw))
    p = multiple_action_penalty(prior, Offset(offset, **kw))
    if offset >= 0 or kw["negative"] == "ignore":
        assert p >= base
    else:
        assert p <= base


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.integers(-10, 20), st.integers(-10, 10), st.integers(-5, 10), SETTINGS)
def test_clearing_more_actions_is_never_likelier(n, rating, difficulty, offset, kw):
    fewer = multiple_actions(n, rating, difficulty=difficulty, offset=Offset(offset, **kw))
    more = multiple_actions(n + 1, rating, difficulty=difficulty, offset=Offset(offset, **kw))
    assert more.clear_chance <= fewer.clear_chance
    assert sum(p for _, p in more.ending_odds) == 1
    for odds in more.odds:
        assert sum(p for _, p in odds) == 1


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-30, 30), min_size=1, max_size=6))
def test_clear_chance_is_the_product_of_no_mishaps(modifiers):
    expected = Fraction(1)
    for m in modifiers:
        expected *= 1 - action_odds(m)["mishap"]
    assert clear_chance(modifiers) == expected


# ------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: resolve_action(5, 0), r"^A d20 shows 1 to 20; got 0\.$"),
        (lambda: resolve_action(5, 23), r"^A d20 shows 1 to 20; got 23\.$"),
        (lambda: resolve_action(5, "7"), r"The d20 must be a whole number"),
        (lambda: resolve_action(5, True), r"The d20 must be a whole number"),
        (lambda: resolve_action(1.5, 7), r"The rating must be a whole number"),
        (lambda: resolve_action(5, 7, difficulty="hard"), r"Degree of Difficulty must be a whole number"),
        (lambda: resolve_action(5, 7, opposing_rating="x"), r"opponent's rating must be a whole number"),
        (lambda: resolve_action(5, 7, prior_actions=-1), r"can't be negative; got -1\."),
        (lambda: resolve_action(5, 7, prior_actions=1, offset=None), r"attribute must be a whole number"),
        (lambda: multiple_action_penalty(1, Offset(2, mode="twice")), r"offset rule must be 'once' or 'each'; got 'twice'\."),
        (lambda: multiple_action_penalty(1, Offset(2, cap="max")), r"offset cap must be"),
        (lambda: multiple_action_penalty(1, Offset(2, negative="no")), r"negative attribute must be"),
        (lambda: action_odds("x"), r"modifier must be a whole number"),
        (lambda: success_chance(0, "great"), r"result must be one of"),
        (lambda: multiple_actions(0, 3), r"at least one action; got 0\."),
        (lambda: multiple_actions(2), r"Give the rating"),
        (lambda: multiple_actions(3, ratings=(3, 4)), r"one rating per action: 3 actions, 2 ratings\."),
        (lambda: multiple_actions(2, 3, (5, 6, 7)), r"at most 2 d20s; got 3\."),
        (lambda: multiple_actions(3, 3, (5, 6)), r"Action 3 of 3 needs a d20"),
        (lambda: multiple_actions(2, 3, (5, 21)), r"A d20 shows 1 to 20; got 21\."),
        (lambda: multiple_actions(2, 3, "5 6"), r"one per action"),
        (lambda: sequence_odds(()), r"at least one action"),
    ],
)
def test_bad_input_is_a_readable_value_error(call, message):
    with pytest.raises(ValueError, match=message) as err:
        call()
    text = str(err.value)
    assert text[0].isupper() and text.endswith(".")


# ------------------------------------------------------------ registry and CLI


def test_public_api():
    for name in talislanta.__all__:
        assert hasattr(talislanta, name), name
    params = inspect.signature(resolve_action).parameters
    assert list(params)[:2] == ["rating", "d20"]
    for kw in ("difficulty", "opposing_rating", "prior_actions", "offset"):
        assert params[kw].kind is inspect.Parameter.KEYWORD_ONLY


OFFSET_FIELDS = ("offset_mode", "offset_cap", "negative_offset")  # the form's names of Offset's mode, cap and negative


@pytest.mark.parametrize("calc", talislanta.CALCULATORS, ids=lambda c: c.name)
def test_params_are_the_functions_parameters_and_rules_exist(calc):
    function = getattr(talislanta, calc.name.split(".")[1])
    names = set(inspect.signature(function).parameters)
    if "offset" in names:  # the form's offset and its three rulings are one Offset (reports.py makes it)
        names |= set(OFFSET_FIELDS)
    assert {p.name for p in calc.params} <= names
    assert set(calc.rules) <= page_rule_ids()


def test_every_fixed_rule_id_is_on_a_page():
    fixed = {
        "tal.action.procedure", "tal.action.table", "tal.action.mishap", "tal.action.failure",
        "tal.action.partial", "tal.action.full", "tal.action.critical", "tal.difficulty.degree",
        "tal.opposed.difference", "tal.multiple.penalty", "tal.multiple.offset",
        "tal.ruling.difficulty-sign", "tal.ruling.offset-later-actions", "tal.ruling.offset-cap",
        "tal.ruling.mishap-ends-sequence", "tal.ruling.table-source",
    }  # fmt: skip
    assert fixed <= page_rule_ids()


@pytest.mark.parametrize(
    "raw, outcome",
    [
        ({"rating": "-5", "d20": "3"}, "mishap"),
        ({"rating": "0", "d20": "4"}, "failure"),
        ({"rating": "3", "d20": "5"}, "partial"),
        ({"rating": "9", "d20": "10", "opposing_rating": "7"}, "full"),
        ({"rating": "5", "d20": "17"}, "critical"),
        ({"rating": "3", "d20": "9", "prior_actions": "2", "offset": "2"}, "failure"),  # 9 + 3 - 8 = 4
        ({"rating": "3", "d20": "12", "prior_actions": "1", "offset": "-2", "negative_offset": "worsen"}, "partial"),
        ({"rating": "0", "d20": "5", "prior_actions": "1", "offset": "9", "offset_cap": "none"}, "partial"),
        ({"rating": "4", "d20": "8", "difficulty": "-5"}, "partial"),
    ],
)
def test_run_resolve_action_every_outcome(raw, outcome):
    result = runner.run("talislanta.resolve_action", raw)
    assert result["ok"], result
    assert result["outcome"] == outcome
    labels = [o["label"] for o in result["odds"]]
    assert result["highlight"] in labels
    assert sum(Fraction(o["numerator"], o["denominator"]) for o in result["odds"]) == 1
    assert result["dice"] == {"d20": raw["d20"]}
    assert result["headline"].endswith(".")
    assert "tal.action.table" in result["rules"]


@pytest.mark.parametrize(
    "raw, outcome, highlight",
    [
        ({"actions": "2", "rating": "3", "difficulty": "-4", "d20s": "1"}, "mishap", "Mishap on action 1, round over"),
        ({"actions": "2", "rating": "3", "difficulty": "-4", "d20s": "1 20"}, "mishap", "Mishap on action 1, round over"),
        ({"actions": "2", "rating": "3", "difficulty": "-4", "d20s": "9 6"}, "mishap", "Mishap on action 2, round over"),
        ({"actions": "2", "rating": "3", "difficulty": "-4", "d20s": "9 16"}, "clear", "All 2 actions taken, no Mishap"),
        ({"actions": "3", "ratings": "6 6 2", "d20s": "2 3 9", "offset": "2", "offset_mode": "each"}, "clear", "All 3 actions taken, no Mishap"),
    ],
)
def test_run_multiple_actions_every_outcome(raw, outcome, highlight):
    result = runner.run("talislanta.multiple_actions", raw)
    assert result["ok"], result
    assert result["outcome"] == outcome
    assert result["highlight"] == highlight
    assert sum(Fraction(o["numerator"], o["denominator"]) for o in result["odds"]) == 1


@pytest.mark.parametrize(
    "name, raw, field",
    [
        ("talislanta.resolve_action", {"rating": "9", "d20": "23"}, "d20"),
        ("talislanta.resolve_action", {"rating": "9", "d20": "0"}, "d20"),
        ("talislanta.resolve_action", {"rating": "nine", "d20": "3"}, "rating"),
        ("talislanta.resolve_action", {"rating": "", "d20": "3"}, "rating"),
        ("talislanta.resolve_action", {"rating": "9"}, "d20"),  # no die and nobody to roll it
        ("talislanta.resolve_action", {"rating": "9", "d20": "3 4"}, "d20"),
        ("talislanta.resolve_action", {"rating": "9", "d20": "3", "prior_actions": "-1"}, "prior_actions"),
        ("talislanta.resolve_action", {"rating": "9", "d20": "3", "offset_mode": "twice"}, "offset_mode"),
        ("talislanta.resolve_action", {"rating": "9", "d20": "3", "luck": "7"}, None),
        ("talislanta.multiple_actions", {"actions": "0", "rating": "3", "d20s": "3"}, "actions"),
        ("talislanta.multiple_actions", {"actions": "2", "d20s": "3 4"}, "rating"),
        ("talislanta.multiple_actions", {"actions": "3", "ratings": "3 4", "d20s": "3 4 5"}, "ratings"),
        ("talislanta.multiple_actions", {"actions": "2", "ratings": "three", "d20s": "3 4"}, "ratings"),
        # a rating per action has the same range as the single Rating field
        ("talislanta.multiple_actions", {"actions": "2", "ratings": "41 3", "d20s": "3 4"}, "ratings"),
        ("talislanta.multiple_actions", {"actions": "2", "ratings": "-21 3", "d20s": "3 4"}, "ratings"),
        ("talislanta.multiple_actions", {"actions": "2", "ratings": "9" * 5000 + " 3", "d20s": "3 4"}, "ratings"),
        ("talislanta.multiple_actions", {"actions": "2", "rating": "3", "d20s": "3 4 5"}, "d20s"),
        ("talislanta.multiple_actions", {"actions": "3", "rating": "3", "d20s": "15 16"}, "d20s"),
        ("talislanta.multiple_actions", {"actions": "2", "rating": "3", "d20s": "15 26"}, "d20s"),
    ],
)
def test_run_bad_input_answers_with_a_sentence(name, raw, field):
    result = runner.run(name, raw, seed=None)
    assert result["ok"] is False
    assert result["field"] == field
    assert result["error"][0].isupper() and result["error"].endswith(".")


@pytest.mark.parametrize(
    "name, raw",
    [
        ("talislanta.resolve_action", {"rating": "5"}),
        ("talislanta.multiple_actions", {"actions": "4", "rating": "2", "difficulty": "-3"}),
    ],
)
def test_same_seed_same_dice(name, raw):
    first = runner.run(name, raw, seed=1234)
    again = runner.run(name, raw, seed=1234)
    assert first["ok"] and first == again
    # The rolled dice, typed back in, give the same result.
    key = next(iter(first["dice"]))
    typed = runner.run(name, {**raw, key: first["dice"][key]})
    assert typed["outcome"] == first["outcome"] and typed["details"] == first["details"]


def test_registry_examples_are_the_texts_examples():
    """The forms' examples replay the pages' worked examples (Thena, Sherra)."""
    calcs = registry.all_calculators()
    single = {tuple(sorted(ex.items())): ex for ex in calcs["talislanta.resolve_action"].examples}
    sherra = runner.run("talislanta.resolve_action", {"rating": "9", "d20": "10", "opposing_rating": "7"})
    assert sherra["outcome"] == "full" and "total of 12" in sherra["headline"]
    assert tuple(sorted({"rating": "9", "d20": "10", "opposing_rating": "7"}.items())) in single
    round_ = calcs["talislanta.multiple_actions"].examples
    assert {"actions": "2", "rating": "3", "d20s": "1", "difficulty": "-4"} in round_
    assert {"actions": "2", "rating": "3", "d20s": "9 16", "difficulty": "-4"} in round_
    for name in ("talislanta.resolve_action", "talislanta.multiple_actions"):
        calc = calcs[name]
        for ex in calc.examples:
            assert all(isinstance(k, str) and isinstance(v, str) for k, v in ex.items()), ex
            assert set(ex) - {"seed"} <= {p.name for p in calc.params}, ex


def test_seeded_rolls_cover_every_outcome():
    seen = {runner.run("talislanta.resolve_action", {"rating": "0"}, seed=s)["outcome"] for s in range(200)}
    assert seen == {"failure", "partial", "full", "critical"}  # no Mishap at +0: a d20 shows at least 1
    seen = {runner.run("talislanta.multiple_actions", {"actions": "3", "rating": "0"}, seed=s)["outcome"] for s in range(100)}
    assert seen == {"clear", "mishap"}


def test_cli_prints_a_result_and_exits_nonzero_on_bad_input(capsys):
    assert cli_main(["talislanta.resolve_action", "--rating", "9", "--opposing-rating", "7", "--d20", "10"]) == 0
    out = capsys.readouterr().out
    assert "Full Success with a total of 12" in out and "tal.opposed.difference" in out
    assert cli_main(["talislanta.multiple_actions", "--actions", "2", "--rating", "3", "--seed", "5", "--json"]) == 0
    assert '"calculator": "talislanta.multiple_actions"' in capsys.readouterr().out
    assert cli_main(["talislanta.resolve_action", "--rating", "9", "--d20", "23"]) == 2
    assert "A d20 shows 1 to 20; got 23." in capsys.readouterr().err


# ---------------------------------------------------------------- one Offset from the form to the rules


@pytest.mark.parametrize("offset", [Offset(2), Offset(2, "each"), Offset(7, cap="none"), Offset(-2, negative="worsen")])
def test_an_offset_passes_whole_and_gives_the_same_penalty_everywhere(offset):
    """tal.multiple.offset, tal.ruling.offset-later-actions, tal.ruling.offset-cap, tal.ruling.offset-negative: every
    public function takes the one Offset, and each gives the penalty Offset.penalty gives."""
    penalties = [multiple_action_penalty(n, offset) for n in range(4)]
    assert penalties == [offset.penalty(n) for n in range(4)]
    assert resolve_action(3, 12, prior_actions=2, offset=offset).penalty == penalties[2]
    assert sequence_modifiers((3, 3, 3), offset=offset) == tuple(3 + p for p in penalties[:3])
    assert multiple_actions(3, 3, (9, 12, 15), offset=offset).penalties == tuple(penalties[:3])
    assert action_modifier(3, prior_actions=1, offset=offset) == 3 + penalties[1]


def test_a_plain_number_is_the_attribute_with_the_default_rulings():
    assert multiple_action_penalty(2, 2) == multiple_action_penalty(2, Offset(2, "once", "penalty", "ignore")) == -8
    assert resolve_action(3, 12, prior_actions=2, offset=-2).penalty == -10  # a negative attribute offsets nothing


def test_the_rules_build_no_offset_of_their_own():
    """The four form fields become one Offset once, in each adapter; the rules only pass it on."""
    source = (ROOT / "calculators" / "talislanta" / "rules.py").read_text()
    assert source.count("Offset(") == 1 + source.count("class Offset(")  # as_offset's, and the class itself
    reports = (ROOT / "calculators" / "talislanta" / "reports.py").read_text()
    assert reports.count("Offset(offset, offset_mode, offset_cap, negative_offset)") == 2
    assert "offset_mode=" not in reports
