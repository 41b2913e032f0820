"""Tell-Tale: attack table, damage, Double/First Strike, saves, characters,
level-up and decks.

Expected values come from the rule text (../shared/rulebooks/tell-tale.txt
and docs/tell-tale/); exact odds are checked against brute-force loops over
every face of the dice, written here independently of the module.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.rulepages import all_rules

from calculators import runner, tell_tale
from calculators.__main__ import main as cli_main
from calculators.tell_tale import (
    ATTACK_TABLE,
    Stats,
    apply_damage,
    assign_stats,
    attack_odds,
    check_deck,
    combine_conditions,
    create_character,
    double_strike,
    double_strike_odds,
    expected_damage,
    first_strike,
    first_strike_odds,
    haste_speed,
    level_up,
    opposed_save,
    outcome_odds,
    resolve_attack,
    save_odds,
    stat_total_odds,
)

D20 = range(1, 21)
D4 = range(1, 5)

# ------------------------------------------------------------ the rule text, written out independently


def reference_damage(power: int, d20: int, d4: int) -> int:
    """tt.combat.attack-table and tt.combat.rounding as the source text states them."""
    if d20 <= 5:
        return 0
    if d20 <= 14:
        return power // 2
    if d20 <= 19:
        return power
    return power * d4


def kept(dice: tuple[int, ...], mode: str) -> int:
    return {"normal": dice[0], "advantage": max(dice), "disadvantage": min(dice)}[mode]


def brute_damage(power: int, mode: str) -> dict[int, Fraction]:
    n = 1 if mode == "normal" else 2
    counts: dict[int, int] = {}
    total = 0
    for dice in itertools.product(D20, repeat=n):
        for d4 in D4:
            dmg = reference_damage(power, kept(dice, mode), d4)
            counts[dmg] = counts.get(dmg, 0) + 1
            total += 1
    return {k: Fraction(v, total) for k, v in counts.items()}


def test_table_data_matches_source():
    assert [(lo, hi, o) for lo, hi, o, _ in ATTACK_TABLE] == [(1, 5, "miss"), (6, 14, "half"), (15, 19, "full"), (20, 20, "critical")]


@pytest.mark.parametrize(
    ("power", "d20", "outcome", "damage"),
    [
        (5, 1, "miss", 0),
        (5, 5, "miss", 0),
        (5, 6, "half", 2),
        (5, 14, "half", 2),
        (5, 15, "full", 5),
        (5, 19, "full", 5),
        (1, 6, "half", 0),  # the text's own example: Power 1, half damage, nothing dealt
        (1, 14, "half", 0),
        (4, 10, "half", 2),
        (7, 10, "half", 3),
        (0, 19, "full", 0),  # Power cannot go below 0; 0 is allowed
    ],
)
def test_attack_bands(power, d20, outcome, damage):
    r = resolve_attack(power, d20)
    assert (r.outcome, r.damage, r.die) == (outcome, damage, d20)


@pytest.mark.parametrize(("power", "d4", "damage"), [(5, 1, 5), (5, 2, 10), (5, 3, 15), (5, 4, 20), (3, 4, 12)])
def test_critical_is_power_times_d4(power, d4, damage):
    r = resolve_attack(power, 20, crit_d4=d4)
    assert (r.outcome, r.crit_d4, r.damage) == ("critical", d4, damage)


def test_every_face_matches_reference():
    for power in range(0, 9):
        for d20 in D20:
            for d4 in D4:
                assert resolve_attack(power, d20, crit_d4=d4).damage == reference_damage(power, d20, d4)


@pytest.mark.parametrize(
    ("dice", "mode", "die"),
    [((4, 17), "advantage", 17), ((4, 17), "disadvantage", 4), ((20, 9), "disadvantage", 9), ((12, 12), "advantage", 12)],
)
def test_advantage_keeps_higher_disadvantage_lower(dice, mode, die):
    assert resolve_attack(5, dice, mode=mode, crit_d4=1).die == die


def test_crit_d4_ignored_unless_20():
    assert resolve_attack(5, 17, crit_d4=4).damage == 5
    assert resolve_attack(5, 17, crit_d4=4).crit_d4 is None


@pytest.mark.parametrize("power", [0, 1, 2, 5, 7])
@pytest.mark.parametrize("mode", ["normal", "advantage", "disadvantage"])
def test_attack_odds_match_brute_force(power, mode):
    assert attack_odds(power, mode=mode) == {k: v for k, v in brute_damage(power, mode).items()}


def test_power5_odds_tables():
    # The bands straight from counting faces: 5 of 20 miss, 9 half, 5 full, 1 critical.
    assert outcome_odds("normal") == {"miss": Fraction(5, 20), "half": Fraction(9, 20), "full": Fraction(5, 20), "critical": Fraction(1, 20)}
    # Advantage: both dice must be 1-5 to miss; disadvantage: either.
    adv, dis = outcome_odds("advantage"), outcome_odds("disadvantage")
    assert adv["miss"] == Fraction(5, 20) ** 2
    assert adv["critical"] == 1 - Fraction(19, 20) ** 2
    assert dis["miss"] == 1 - Fraction(15, 20) ** 2
    assert dis["critical"] == Fraction(1, 400)
    assert expected_damage(5) == Fraction(9, 20) * 2 + Fraction(5, 20) * 5 + Fraction(1, 20) * 5 * Fraction(10, 4)


@pytest.mark.parametrize(
    ("adv", "dis", "both", "mode"),
    [(0, 0, "cancel", "normal"), (1, 0, "cancel", "advantage"), (0, 1, "cancel", "disadvantage"), (1, 1, "cancel", "normal"),
     (2, 1, "cancel", "normal"), (2, 1, "count", "advantage"), (1, 2, "count", "disadvantage"), (1, 1, "count", "normal")],
)
def test_advantage_and_disadvantage_ruling(adv, dis, both, mode):
    assert combine_conditions(adv, dis, both=both) == mode


# ------------------------------------------------------------ damage


@pytest.mark.parametrize(
    ("t", "v", "dmg", "expect"),
    [
        (3, 12, 2, (1, 12, "standing", False)),
        (3, 12, 3, (0, 12, "standing", True)),
        (3, 12, 5, (0, 10, "standing", True)),
        (3, 12, 15, (0, 0, "unconscious", True)),
        (3, 12, 16, (0, -1, "dead", True)),
        (0, 5, 0, (0, 5, "standing", True)),  # Toughness at 0: dispelled
        (2, 1, 0, (2, 1, "standing", False)),
    ],
)
def test_apply_damage(t, v, dmg, expect):
    r = apply_damage(t, v, dmg)
    assert (r.toughness, r.vitality, r.status, r.dispelled) == expect


def test_overflow_stop_setting():
    r = apply_damage(3, 12, 5, overflow="stop")
    assert (r.toughness, r.vitality) == (0, 12)
    r = apply_damage(0, 12, 5, overflow="stop")  # Toughness already gone: Vitality takes it
    assert r.vitality == 7


@given(st.integers(0, 50), st.integers(-20, 50), st.integers(0, 200))
def test_damage_conserved_and_never_negative(t, v, dmg):
    r = apply_damage(t, v, dmg)
    assert r.to_toughness >= 0 and r.to_vitality >= 0
    assert r.to_toughness + r.to_vitality == dmg
    assert r.toughness >= 0 and r.toughness == t - r.to_toughness
    assert r.dispelled == (r.toughness == 0)
    assert r.status == ("standing" if r.vitality > 0 else "unconscious" if r.vitality == 0 else "dead")


# ------------------------------------------------------------ hypothesis properties


MODES = st.sampled_from(["normal", "advantage", "disadvantage"])


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 60), MODES)
def test_odds_sum_to_one_and_damage_never_negative(power, mode):
    odds = attack_odds(power, mode=mode)
    assert sum(odds.values()) == 1
    assert all(d >= 0 for d in odds)
    assert sum(double_strike_odds(power, mode=mode).values()) == 1


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 60))
def test_advantage_never_lowers_and_disadvantage_never_raises(power):
    normal = expected_damage(power)
    assert expected_damage(power, mode="advantage") >= normal
    assert expected_damage(power, mode="disadvantage") <= normal


@given(st.integers(0, 100), st.integers(1, 20), st.integers(1, 20), st.integers(1, 4), MODES)
def test_resolved_damage_never_negative_nor_above_4x(power, a, b, d4, mode):
    dice = a if mode == "normal" else (a, b)
    r = resolve_attack(power, dice, mode=mode, crit_d4=d4)
    assert 0 <= r.damage <= 4 * power


@settings(max_examples=30, deadline=None)
@given(MODES, st.booleans(), st.sampled_from(["knockdown", "tapping", "other"]), st.sampled_from(["saver", "effect"]))
def test_save_odds_sum_to_one(mode, vig, against, tie):
    assert sum(save_odds(mode=mode, vigilance=vig, against=against, tie=tie).values()) == 1


@pytest.mark.parametrize("method", ["sum", "drop-lowest"])
def test_stat_total_odds_sum_to_one(method):
    assert sum(stat_total_odds(method=method).values()) == 1


# ------------------------------------------------------------ Double Strike, First Strike, saves, Haste


@pytest.mark.parametrize("power", [1, 4, 5])
@pytest.mark.parametrize("mode", ["normal", "disadvantage"])
def test_double_strike_is_two_independent_rolls(power, mode):
    one = brute_damage(power, mode)
    two: dict[int, Fraction] = {}
    for (a, pa), (b, pb) in itertools.product(one.items(), repeat=2):
        two[a + b] = two.get(a + b, 0) + pa * pb
    assert double_strike_odds(power, mode=mode) == two


def test_double_strike_examples():
    r = double_strike(4, 12, 20, second_crit_d4=2)
    assert (r.first.damage, r.second.damage, r.damage, r.hits) == (2, 8, 10, 2)
    assert double_strike(4, 3, 2).hits == 0


@pytest.mark.parametrize(
    ("p1", "r1", "p2", "r2", "winner", "to1", "to2"),
    [
        (3, 16, 5, 9, "first", 0, 3),
        (3, 4, 5, 9, "second", 5, 0),  # the winner deals its Power
        (3, 2, 5, 4, "second", 5, 0),  # a winning 4 deals damage too: the text says the winner deals damage
        (3, 20, 5, 9, "first", 0, 3),  # no table, so no critical d4
        (3, 11, 5, 11, "tie", 5, 3),  # both deal their Power, as in Fight
        (3, 1, 5, 1, "tie", 5, 3),
    ],
)
def test_first_strike(p1, r1, p2, r2, winner, to1, to2):
    """tt.mechanics.first-strike-meeting, tt.ruling.first-strike-tie: the site's ruling, the winner deals its full Power."""
    r = first_strike(p1, r1, p2, r2)
    assert (r.winner, r.damage_to_first, r.damage_to_second) == (winner, to1, to2)


@pytest.mark.parametrize(
    ("p1", "r1", "p2", "r2", "winner", "to1", "to2"),
    [
        (3, 4, 5, 9, "second", 2, 0),  # the winner's 9 reads half on the table
        (5, 4, 3, 2, "first", 0, 0),  # a winning 4 misses on the table: the reason the table is only the alternative
        (3, 11, 5, 11, "tie", 5, 3),  # a tie is Fight either way
    ],
)
def test_first_strike_table_setting(p1, r1, p2, r2, winner, to1, to2):
    """tt.ruling.first-strike-tie, its alternative kept as a table setting: the winner's roll read on tt.combat.attack-table."""
    r = first_strike(p1, r1, p2, r2, winner_damage="table")
    assert (r.winner, r.damage_to_first, r.damage_to_second) == (winner, to1, to2)


def test_first_strike_crit_only_on_the_table():
    assert first_strike(3, 20, 5, 9, winner_damage="table", crit_d4=4).damage_to_second == 12
    assert first_strike(3, 20, 5, 9, crit_d4=4).damage_to_second == 3


def test_first_strike_odds_brute_force():
    counts = {"first": 0, "second": 0, "tie": 0}
    for a, b in itertools.product(D20, repeat=2):
        counts["first" if a > b else "second" if b > a else "tie"] += 1
    assert first_strike_odds() == {k: Fraction(v, 400) for k, v in counts.items()}


@pytest.mark.parametrize(
    ("effect", "save", "kw", "outcome"),
    [
        (14, 9, {}, "failed"),
        (14, 14, {}, "saved"),  # the effect must beat the save
        (14, 14, {"tie": "effect"}, "failed"),
        (14, 10, {"vigilance": True}, "saved"),  # +5 against involuntary tapping
        (14, 10, {"vigilance": True, "against": "other"}, "failed"),
        (20, 1, {"vigilance": True, "against": "knockdown"}, "immune"),
        (14, (3, 15), {"mode": "advantage"}, "saved"),
        (14, (3, 15), {"mode": "disadvantage"}, "failed"),
    ],
)
def test_opposed_save(effect, save, kw, outcome):
    assert opposed_save(effect, save, **kw).outcome == outcome


@pytest.mark.parametrize("mode", ["normal", "advantage", "disadvantage"])
@pytest.mark.parametrize("vig", [False, True])
def test_save_odds_brute_force(mode, vig):
    n = 1 if mode == "normal" else 2
    saved = total = 0
    for e in D20:
        for dice in itertools.product(D20, repeat=n):
            s = kept(dice, mode) + (5 if vig else 0)
            saved += s >= e
            total += 1
    assert save_odds(mode=mode, vigilance=vig)["saved"] == Fraction(saved, total)


@pytest.mark.parametrize(("speed", "down", "up"), [(0, 0, 0), (1, 1, 2), (5, 7, 8), (6, 9, 9), (10, 15, 15)])
def test_haste_speed(speed, down, up):
    assert haste_speed(speed) == down and haste_speed(speed, rounding="up") == up


# ------------------------------------------------------------ character creation, level-up, deck

DICE28 = [6, 5, 4, 3, 6, 6, 2, 1, 5, 5, 5, 5, 1, 1, 1, 1, 3, 4, 5, 6, 2, 2, 3, 3, 6, 6, 6, 6]


def test_seven_4d6_totals():
    c = create_character(DICE28)
    assert c.totals == (18, 15, 20, 4, 18, 10, 24)
    assert len(c.totals) == 7
    assert create_character(DICE28, method="drop-lowest").totals == (15, 14, 15, 3, 15, 8, 18)


def test_stat_total_odds_brute_force():
    counts: dict[int, int] = {}
    for dice in itertools.product(range(1, 7), repeat=4):
        counts[sum(dice)] = counts.get(sum(dice), 0) + 1
    assert stat_total_odds() == {k: Fraction(v, 1296) for k, v in counts.items()}


def test_assignment_with_and_without_companion():
    totals = create_character(DICE28).totals
    stats, discarded = assign_stats(totals, {"initiative": 15, "vitality": 24, "speed": 20})
    assert (stats.initiative, stats.vitality, stats.speed, stats.companion) == (15, 24, 20, False)
    assert len(discarded) == 4
    stats, discarded = assign_stats(
        totals, {"initiative": 15, "vitality": 24, "speed": 20, "companion_vitality": 18, "companion_speed": 18}, companion=True
    )
    assert discarded == (10, 4) and stats.companion_speed == 18


@pytest.mark.parametrize(
    ("assignment", "companion", "message"),
    [
        ({"initiative": 24, "vitality": 24, "speed": 20}, False, "24 is used 2 times"),
        ({"initiative": 7, "vitality": 24, "speed": 20}, False, "7 is used 1 time but was not rolled"),
        ({"initiative": 15, "vitality": 24}, False, "PC Speed needs one of the rolled totals"),
        ({"initiative": 15, "vitality": 24, "speed": 20, "companion_speed": 4}, False, "only for a character with an animal companion"),
        ({"initiative": 15, "vitality": 24, "speed": 20}, True, "Companion Vitality needs"),
        ({"initiative": 15, "vitality": 24, "speed": 20, "power": 10}, False, "there is no stat 'power'"),
    ],
)
def test_bad_assignments(assignment, companion, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        assign_stats(create_character(DICE28).totals, assignment, companion=companion)


def test_level_up():
    r = level_up(3, Stats(15, 18, 12), "vitality")
    assert (r.level, r.lands, r.stats.vitality, r.stats.initiative) == (4, 4, 19, 15)
    r = level_up(4, Stats(15, 18, 12, 10, 9), "companion_speed")
    assert (r.level, r.lands, r.stats.companion_speed) == (5, 5, 10)


@pytest.mark.parametrize(
    ("text", "size", "legal"),
    [
        ("\n".join(f"4 Card {n}" for n in range(10)), 40, True),
        ("\n".join(f"4 Card {n}" for n in range(25)), 100, True),
        ("\n".join(f"4 Card {n}" for n in range(9)) + "\n3 Last", 39, False),
        ("\n".join(f"4 Card {n}" for n in range(25)) + "\n1 Last", 101, False),
        ("\n".join(f"4 Card {n}" for n in range(9)) + "\n4 card 0", 40, False),  # same card, 8 copies
        ("# my deck\n\n" + "\n".join(f"4x Card {n}" for n in range(10)), 40, True),
        ("\n".join(f"4 Card {n}" for n in range(9)) + "\n" + "\n".join(["Lone"] * 4), 40, True),
        ("\n".join(f"4 Card {n}" for n in range(9)) + "\n5 Bolt", 41, False),
    ],
)
def test_check_deck(text, size, legal):
    r = check_deck(text)
    assert (r.size, r.legal) == (size, legal)


def test_deck_exempt_setting():
    deck = "30 Relentless Rats\n4 A\n4 B\n4 C"
    assert not check_deck(deck).legal
    assert check_deck(deck, exempt="relentless rats").legal


# ------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: resolve_attack(5, 23), "A d20 shows 1 to 20; got 23."),
        (lambda: resolve_attack(5, 0), "A d20 shows 1 to 20; got 0."),
        (lambda: resolve_attack(-1, 10), "Power cannot go below 0; got -1."),
        (lambda: resolve_attack("5", 10), "Power must be a whole number"),
        (lambda: resolve_attack(5, 20), "A 20 is a critical hit: roll a d4"),
        (lambda: resolve_attack(5, 20, crit_d4=5), "A d4 shows 1 to 4; got 5."),
        (lambda: resolve_attack(5, 12, mode="advantage"), "With advantage you roll 2d20 and give both dice; got 1."),
        (lambda: resolve_attack(5, (12, 3)), "A normal attack rolls one d20; got 2 dice."),
        (lambda: resolve_attack(5, 12, mode="lucky"), "The roll is normal, advantage or disadvantage"),
        (lambda: attack_odds(-2), "Power cannot go below 0"),
        (lambda: apply_damage(-1, 5, 2), "Toughness goes down to 0 and no further"),
        (lambda: apply_damage(2, 5, -3), "Damage is 0 or more"),
        (lambda: apply_damage(2, 5, 1, overflow="maybe"), "carries to Vitality or stops"),
        (lambda: combine_conditions(1, 1, both="x"), "cancel or count"),
        (lambda: first_strike(3, 21, 4, 5), "A d20 shows 1 to 20; got 21."),
        (lambda: first_strike(3, 4, 4, 5, winner_damage="x"), "table or is full Power"),
        (lambda: opposed_save(5, 5, against="fear"), "knock-down, involuntary tapping"),
        (lambda: opposed_save(5, 5, tie="x"), "A tie goes to the saver or to the effect"),
        (lambda: haste_speed(-1), "Speed is 0 or more"),
        (lambda: haste_speed(3, rounding="x"), "Haste rounds down or up"),
        (lambda: create_character([3] * 27), "Seven rolls of 4d6 use 28 d6; got 27."),
        (lambda: create_character([7] * 28), "A d6 shows 1 to 6; got 7."),
        (lambda: create_character([3] * 28, method="x"), "sum of four dice or as drop-lowest"),
        (lambda: level_up(2, Stats(1, 2, 3), "speed"), "Characters start at level 3"),
        (lambda: level_up(3, Stats(1, 2, 3), "power"), "A level-up raises one of"),
        (lambda: level_up(3, Stats(1, 2, 3), "companion_vitality"), "only be raised for a character with an animal companion"),
        (lambda: check_deck("0 Bolt"), "Line 1: a card is listed with at least 1 copy"),
        (lambda: check_deck("9" * 5000 + " Bolt"), "Line 1: '99999999999999999999…' copies of 'Bolt' is more than any deck holds."),
        (lambda: check_deck(None), "A decklist is text"),
    ],
)
def test_bad_input_reads_well(call, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        call()


# ------------------------------------------------------------ registry, CLI, pages


def page_rule_ids() -> set[str]:
    return {r.id for r in all_rules() if r.id.startswith("tt.")}


def test_every_cited_rule_exists():
    ids = page_rule_ids()
    for calc in tell_tale.CALCULATORS:
        assert set(calc.rules) <= ids, (calc.name, set(calc.rules) - ids)


def test_params_match_adapters():
    import inspect

    for calc in tell_tale.CALCULATORS:
        names = [p for p in inspect.signature(calc.adapter).parameters if p != "rng"]
        assert names == [p.name for p in calc.params], calc.name


def test_public_api():
    for name in ("resolve_attack", "attack_odds", "apply_damage", "CALCULATORS"):
        assert name in tell_tale.__all__
    assert {c.name for c in tell_tale.CALCULATORS} >= {
        "tell_tale.resolve_attack", "tell_tale.apply_damage", "tell_tale.double_strike", "tell_tale.first_strike",
        "tell_tale.create_character", "tell_tale.level_up", "tell_tale.check_deck",
    }


RUNS = [
    ("tell_tale.resolve_attack", {"power": "5", "d20": "3"}, "miss"),
    ("tell_tale.resolve_attack", {"power": "5", "d20": "10"}, "half"),
    ("tell_tale.resolve_attack", {"power": "5", "d20": "17"}, "full"),
    ("tell_tale.resolve_attack", {"power": "5", "d20": "20", "crit_d4": "2"}, "critical"),
    ("tell_tale.resolve_attack", {"power": "5", "d20": "4 17", "haste": "yes"}, "full"),
    ("tell_tale.resolve_attack", {"power": "5", "d20": "4 17", "poisoned": "yes"}, "miss"),
    ("tell_tale.resolve_attack", {"power": "5", "d20": "4", "haste": "yes", "poisoned": "yes"}, "miss"),
    ("tell_tale.apply_damage", {"toughness": "3", "vitality": "12", "damage": "2"}, "standing"),
    ("tell_tale.apply_damage", {"toughness": "3", "vitality": "12", "damage": "15"}, "unconscious"),
    ("tell_tale.apply_damage", {"toughness": "3", "vitality": "12", "damage": "16"}, "dead"),
    ("tell_tale.double_strike", {"power": "4", "first_d20": "3", "second_d20": "2"}, "none"),
    ("tell_tale.double_strike", {"power": "4", "first_d20": "3", "second_d20": "12"}, "one"),
    ("tell_tale.double_strike", {"power": "4", "first_d20": "20", "second_d20": "12", "first_crit_d4": "3"}, "two"),
    ("tell_tale.first_strike", {"first_power": "3", "first_d20": "16", "second_power": "5", "second_d20": "9"}, "first"),
    ("tell_tale.first_strike", {"first_power": "3", "first_d20": "6", "second_power": "5", "second_d20": "9"}, "second"),
    ("tell_tale.first_strike", {"first_power": "3", "first_d20": "9", "second_power": "5", "second_d20": "9"}, "tie"),
    ("tell_tale.opposed_save", {"effect_d20": "14", "save_d20": "15"}, "saved"),
    ("tell_tale.opposed_save", {"effect_d20": "14", "save_d20": "13"}, "failed"),
    ("tell_tale.opposed_save", {"vigilance": "yes", "against": "knockdown"}, "immune"),
    ("tell_tale.haste_speed", {"speed": "5"}, "hasted"),
    ("tell_tale.create_character", {"dice": " ".join(map(str, DICE28))}, "rolled"),
    ("tell_tale.create_character", {"dice": " ".join(map(str, DICE28)), "initiative": "15", "vitality": "24", "speed": "20"}, "assigned"),
    ("tell_tale.level_up", {"level": "3", "initiative": "15", "vitality": "18", "speed": "12"}, "level-up"),
    ("tell_tale.check_deck", {"decklist": "\n".join(f"4 Card {n}" for n in range(10))}, "legal"),
    ("tell_tale.check_deck", {"decklist": "5 Bolt"}, "illegal"),
]


@pytest.mark.parametrize(("name", "raw", "outcome"), RUNS)
def test_registry_covers_every_outcome(name, raw, outcome):
    result = runner.run(name, raw)
    assert result["ok"], result
    assert result["outcome"] == outcome
    if result["odds"]:
        assert sum(Fraction(o["numerator"], o["denominator"]) for o in result["odds"]) == 1
        if name != "tell_tale.create_character":  # seven totals, no single one to highlight
            assert result["highlight"] in {o["label"] for o in result["odds"]}


def test_attack_report_mentions_expected_damage():
    result = runner.run("tell_tale.resolve_attack", {"power": "5", "d20": "10"})
    # Players read the decimal, so it leads and the exact fraction follows.
    assert any(d.endswith("Expected damage of this attack (normal): about 2.77 (111/40).") for d in result["details"]), result["details"]


@pytest.mark.parametrize(
    ("name", "raw", "field", "words"),
    [
        ("tell_tale.resolve_attack", {"power": "5", "d20": "23"}, "d20", "A d20 shows 1 to 20; got 23."),
        ("tell_tale.resolve_attack", {"power": "-1", "d20": "3"}, "power", "Power must be at least 0"),
        ("tell_tale.resolve_attack", {"power": "five", "d20": "3"}, "power", "Power must be a whole number"),
        ("tell_tale.resolve_attack", {"power": "5", "d20": "3", "mode": "advantage"}, "d20", "this roll uses 2 dice"),
        ("tell_tale.resolve_attack", {"power": "5", "d20": "20"}, "crit_d4", "roll a d4"),
        ("tell_tale.resolve_attack", {"power": "5"}, "d20", "type what you rolled"),
        ("tell_tale.apply_damage", {"toughness": "3", "vitality": "1", "damage": "-2"}, "damage", "Damage must be at least 0"),
        ("tell_tale.create_character", {"dice": "1 2 3"}, "dice", "this roll uses 28 dice"),
        ("tell_tale.create_character", {"dice": " ".join(map(str, DICE28)), "initiative": "7"}, None, "PC Vitality needs one"),
        ("tell_tale.level_up", {"level": "2", "initiative": "1", "vitality": "1", "speed": "1"}, "level", "at least 3"),
        ("tell_tale.level_up", {"level": "3", "initiative": "1", "vitality": "1", "speed": "1", "stat": "companion_speed"}, None, "animal companion"),
        ("tell_tale.check_deck", {}, "decklist", "needs a value"),
        ("tell_tale.first_strike", {"first_power": "3", "first_d20": "5", "second_power": "4", "second_d20": "9", "crit_d4": "23"}, "crit_d4", "A d4 shows 1 to 4; got 23."),
    ],
)
def test_registry_bad_input_never_raises(name, raw, field, words):
    result = runner.run(name, raw)
    assert result["ok"] is False
    assert words in result["error"]
    assert result["field"] == field


@pytest.mark.parametrize("name", [c.name for c in tell_tale.CALCULATORS])
def test_same_seed_same_dice(name):
    raw = {
        "tell_tale.resolve_attack": {"power": "5"},
        "tell_tale.apply_damage": {"toughness": "3", "vitality": "5", "damage": "4"},
        "tell_tale.double_strike": {"power": "5", "mode": "advantage"},
        "tell_tale.first_strike": {"first_power": "3", "second_power": "4"},
        "tell_tale.opposed_save": {"poisoned": "yes"},
        "tell_tale.haste_speed": {"speed": "5"},
        "tell_tale.create_character": {},
        "tell_tale.level_up": {"level": "3", "initiative": "1", "vitality": "1", "speed": "1"},
        "tell_tale.check_deck": {"decklist": "4 Bolt"},
        "tell_tale.trample_charge": {"power": "4", "enemies": "3", "mode": "advantage"},
        "tell_tale.poison_track": {"power": "3", "toughness": "2", "vitality": "5", "damage": "3"},
        "tell_tale.planeswalker_ability": {"cost": "-2", "toughness": "4", "vitality": "9"},
        "tell_tale.mulligan": {"mulligans": "2"},
    }[name]
    a, b = runner.run(name, raw, seed=42), runner.run(name, raw, seed=42)
    assert a["ok"] and a == b


def test_rolled_critical_rolls_its_d4():
    # Find a seed whose d20 is a 20, then check the d4 was rolled with it.
    for seed in range(2000):
        if random.Random(seed).randint(1, 20) == 20:
            break
    result = runner.run("tell_tale.resolve_attack", {"power": "3"}, seed=seed)
    assert result["outcome"] == "critical"
    d4 = int(result["dice"]["crit_d4"])
    assert 1 <= d4 <= 4 and result["headline"].startswith(f"Critical hit: {3 * d4} damage")


def test_cli(capsys):
    assert cli_main(["tell_tale.resolve_attack", "--power", "5", "--d20", "17"]) == 0
    assert "Full damage: 5 damage" in capsys.readouterr().out
    assert cli_main(["tell_tale.resolve_attack", "--power", "5", "--d20", "23"]) == 2
    assert "A d20 shows 1 to 20; got 23." in capsys.readouterr().err
    assert cli_main(["tell_tale.resolve_attack", "--power", "5", "--mode", "advantage", "--seed", "7", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seed"] == 7 and len(data["dice"]["d20"].split()) == 2


@pytest.mark.parametrize("calc", tell_tale.CALCULATORS, ids=lambda c: c.name)
def test_examples_are_form_strings_and_cover_every_outcome(calc):
    """The registry examples are what a form or a share link sends: strings only."""
    assert calc.examples and calc.outcomes
    seen = set()
    for example in calc.examples:
        assert all(isinstance(k, str) and isinstance(v, str) for k, v in example.items()), example
        result = runner.run(calc.name, {k: v for k, v in example.items() if k != "seed"}, example.get("seed"))
        assert result["ok"], (example, result)
        seen.add(result["outcome"])
    assert seen == set(calc.outcomes)


def test_the_mulligan_chance_shows_its_fraction_once():
    """The mulligan's chance shows its fraction once, not "22507/45695 (about 0.49) (22507/45695)"."""
    from calculators.runner import run

    answer = run("tell_tale.mulligan", {"mulligans": "2", "deck": "40", "copies": "4"})
    assert answer["ok"], answer
    line = next(d for d in answer["details"] if d.startswith("Chance the kept hand"))
    fractions = re.findall(r"\d+/\d+", line)
    assert len(fractions) == 1 and re.search(r": \d+\.\d% \(\d+/\d+\)\.$", line), line  # the percentage first


def test_the_kept_odds_are_never_changed_by_a_caller():
    """The attack's odds are worked out once per Power and mode and kept (every form asked for the
    same distributions again); a caller that changes what it was given does not change the next answer."""
    from calculators.tell_tale.combat import attack_odds, outcome_odds

    first = outcome_odds("advantage")
    first["miss"] = Fraction(1)
    assert outcome_odds("advantage") != first and sum(outcome_odds("advantage").values()) == 1
    odds = attack_odds(5, mode="normal")
    odds.clear()
    assert sum(attack_odds(5, mode="normal").values()) == 1


def test_an_attack_form_checks_power_once_per_public_function_it_calls(monkeypatch):
    """Power is checked once per public function an attack form calls, not once per face of the d20 while its
    odds are worked out. Each public function checks what it is given; inside, the checked number is passed on."""
    from calculators.tell_tale import combat

    seen = []
    check = combat.whole

    def counted(value, what, *args, **kwargs):
        if what == "Power":
            seen.append(value)
        return check(value, what, *args, **kwargs)

    monkeypatch.setattr(combat, "whole", counted)
    combat._damage_die_of.cache_clear()
    answer = runner.run("tell_tale.resolve_attack", {"power": "7", "d20": "20", "crit_d4": "3"})
    assert answer["ok"] and answer["headline"].startswith("Critical") and "21" in answer["headline"]
    assert seen == [7, 7]  # resolve_attack's and attack_odds'
