"""RPGDL over a whole season (the season tracker) and the vote planner.

Properties: a season's tally is the sum of its Weekends, each Weekend is
what resolve_weekend says, undo restores the exact prior state, counters
never go negative, a season survives JSON, storage and a link unchanged;
the planner's split is never beaten by any other (brute force over every
split of small pools). Then the Roster, running out of a division, the
Championship goal, the end of the game, hostile state refused in words,
and the command line.
"""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import cli as command_line
from support.rulepages import all_rules
from support.season import dice

from calculators import registry, runner
from calculators.rpgdl import (
    DIVISIONS,
    Duelist,
    InputError,
    Matchup,
    apply_action,
    check_season,
    compact,
    new_season,
    plan_votes,
    replay,
    resolve_weekend,
    roll_off,
    split_count,
    undo,
)
from calculators.rpgdl.league import MAX_LOG
from calculators.rpgdl.league_actions import RULES
from calculators.rpgdl.league_actions import redo

RULE_IDS = {r.id for r in all_rules()}
SETTINGS = dict(division_penalty=["flat", "per-division"], half_draw=["at-most", "exactly"],
                successes_worth=["modified", "base"], sudden_death=["roll-off", "no-winner"])


def row(name, division, worth, draw, votes=0, bonus=0):
    return {"name": name, "division": division, "worth": worth, "draw": draw, "votes": votes, "bonus": bonus}



# ---------------------------------------------------------------- strategies


@st.composite
def duelist_rows(draw, slot, who):
    """A duelist that may legally sit in `slot`: its own division or a lower one, votes within the Draw and, four
    together, within the Vote Pool of 10 (rpgdl.ruling.vote-pool)."""
    division = draw(st.sampled_from(DIVISIONS[DIVISIONS.index(slot):]))
    d = draw(st.integers(0, 6))
    return row(f"{who[0]}{slot}{draw(st.integers(0, 9))}", division, draw(st.integers(0, 12)), d,
               draw(st.integers(0, min(d, 2))), draw(st.integers(-3, 3)))


@st.composite
def weekends(draw):
    lines = {who: [draw(duelist_rows(slot, who)) for slot in DIVISIONS] for who in ("first", "second")}
    for who in lines:  # names are unique within a line-up
        for i, r in enumerate(lines[who]):
            r["name"] = f"{r['name']}-{i}"
    return {"do": "weekend", **lines}


settings_strategy = st.fixed_dictionaries({k: st.sampled_from(v) for k, v in SETTINGS.items()}
                                          | {"trainwreck_limit": st.integers(1, 6), "season_tie": st.sampled_from(["draw", "fewer-trainwrecks"])})


def play(season, actions, seed=0):
    """Apply actions (rolling roll-offs with `seed`); stop quietly when the game is over."""
    roll = dice(seed)
    for action in actions:
        if action["do"] == "weekend" and season["result"]["over"]:
            break
        season, _, _ = apply_action(season, action, roll)
    return season


# ---------------------------------------------------------------- properties


@pytest.mark.settled
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(settings_strategy, st.lists(weekends(), min_size=1, max_size=5), st.integers(0, 2**16))
def test_the_tally_is_the_sum_of_the_weekends_and_each_weekend_is_resolve_weekend(rulings, actions, seed):
    season = play(apply_action(new_season(), {"do": "settings", "settings": rulings})[0], actions, seed)
    duel = {k: rulings[k] for k in ("division_penalty", "half_draw", "successes_worth")}
    for week, action in zip(season["weeks"], actions):
        lines = {p: [Duelist(r["name"], r["division"], r["worth"], r["draw"]) for r in action[p]] for p in ("first", "second")}
        winners = {d["slot"]: roll_off(*d["roll"]) for d in week["duels"] if d["roll"]}
        w = resolve_weekend(lines["first"], lines["second"], sudden_death=rulings["sudden_death"], sudden_death_winners=winners,
                            first_votes=[r["votes"] for r in action["first"]], second_votes=[r["votes"] for r in action["second"]],
                            first_bonus=[r["bonus"] for r in action["first"]], second_bonus=[r["bonus"] for r in action["second"]], **duel)
        assert (week["first_successes"], week["second_successes"], week["first_trainwrecks"], week["second_trainwrecks"]) == (
            w.first_successes, w.second_successes, w.first_trainwrecks, w.second_trainwrecks)
        assert week["discarded"] == {"first": list(w.first_discarded), "second": list(w.second_discarded)}
    for n, standing in enumerate(season["standings"], start=1):
        weeks = season["weeks"][:n]
        for key in ("first_successes", "second_successes", "first_trainwrecks", "second_trainwrecks"):
            assert standing[key] == sum(w[key] for w in weeks) >= 0
    if season["result"]["over"] and season["result"]["outcome"].endswith("trainwrecked"):
        last = season["standings"][-1]
        assert max(last["first_trainwrecks"], last["second_trainwrecks"]) >= rulings["trainwreck_limit"]


def _weekend_fields(action, rolls, rulings):
    """The Weekend form's fields for a tracker's Weekend action: one field per name, division and number."""
    fields = {k: rulings[k] for k in SETTINGS}
    for who in ("first", "second"):
        for slot, r in zip(DIVISIONS, action[who]):
            fields.update((f"{slot}_{who}_{key}", str(value)) for key, value in r.items())
    if rolls:
        fields["sudden_death_rolls"] = " ".join(f"{a} {b}" for a, b in rolls)
    return fields


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.fixed_dictionaries({k: st.sampled_from(v) for k, v in SETTINGS.items()}), weekends(), st.integers(0, 2**16))
def test_the_weekend_form_and_the_tracker_give_the_same_weekend(rulings, action, seed):
    """rpgdl.weekend.order, rpgdl.weekend.discard-losers, rpgdl.weekend.return-winners, rpgdl.ruling.roll-off: one
    Weekend from rows (duels.weekend_ties, duels.weekend_from_rows) behind both the form and the tracker."""
    season = apply_action(new_season(), {"do": "settings", "settings": rulings})[0]
    season, entry, _ = apply_action(season, action, dice(seed))
    week = season["weeks"][-1]
    form = runner.run("rpgdl.resolve_weekend", _weekend_fields(action, entry["action"].get("rolls"), rulings))
    assert form["ok"], form
    assert form["headline"].endswith(f"Successes {week['first_successes']} to {week['second_successes']}, "
                                     f"Trainwrecks {week['first_trainwrecks']} to {week['second_trainwrecks']}.")
    returned = {p: ", ".join(week["returned"][p]) or "none" for p in ("first", "second")}
    discarded = {p: ", ".join(week["discarded"][p]) or "none" for p in ("first", "second")}
    assert f"Returned to the Roster: first player {returned['first']}; second player {returned['second']}." in form["details"]
    assert f"Discarded to Defeated Duelists: first player {discarded['first']}; second player {discarded['second']}." in form["details"]
    for duel in week["duels"]:  # each duel's Worths as the form shows them
        assert any(line.startswith(f"{duel['slot'].capitalize()}: {duel['first']['name']} {duel['first_worth']} against "
                                   f"{duel['second']['name']} {duel['second_worth']}") for line in form["details"])


@pytest.mark.settled
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(weekends(), min_size=1, max_size=5), st.integers(0, 2**16))
def test_undo_restores_the_exact_prior_state_and_the_log_rebuilds_the_season(actions, seed):
    season = new_season()
    history = [season]
    roll = dice(seed)
    for action in actions:
        if season["result"]["over"]:
            break
        season, _entry, _ = apply_action(season, action, roll)
        history.append(season)
        assert replay([e["action"] for e in season["log"]]) == season
        assert check_season(json.loads(json.dumps(season))) == season
        assert check_season(json.loads(json.dumps(compact(season)))) == season
    made = list(history)
    while len(history) > 1:
        history.pop()
        season = undo(season)
        assert {**season, "redo": []} == history[-1]  # undo keeps the step it took back, for Redo
        assert len(season["redo"]) == len(made) - len(history)
        assert check_season(json.loads(json.dumps(season))) == season  # its redo records read back, checked
    for expected in made[1:]:  # Redo walks the same steps again, each season exactly as its step made it
        season = redo(season)
        assert season == {**expected, "redo": season["redo"]} and len(season["redo"]) == len(made) - 1 - made.index(expected)
    assert season == made[-1]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(weekends(), min_size=1, max_size=4), st.integers(0, 2**16))
def test_undo_through_the_registry_as_the_page_does_it(actions, seed):
    """JSON in, JSON out: each step's state, sent back with an undo, gives the previous state again."""
    state = ""
    for n, action in enumerate(actions):
        answer = runner.track("rpgdl.season", state, json.dumps(action), seed + n)
        if not answer["ok"]:
            assert "The game is over" in answer["error"]
            break
        back = runner.track("rpgdl.season", json.dumps(answer["state"]), json.dumps({"do": "undo"}))
        assert back["ok"] and {**back["state"], "redo": []} == (json.loads(state) if state else new_season())
        again = runner.track("rpgdl.season", json.dumps(back["state"]), json.dumps({"do": "redo"}))
        assert again["ok"] and again["state"] == answer["state"] and again["headline"] == f"Redone: {answer['headline']}"
        state = json.dumps(answer["state"])


def _two_weeks():
    """A season of a named player and two Weekends, each with a tied Godlike duel the page rolls off."""
    row = lambda n, w: {"name": n, "division": "godlike", "worth": str(w), "draw": "3", "votes": "", "bonus": ""}  # noqa: E731
    season = apply_action(new_season(), {"do": "player", "player": "first", "name": "Ana"})[0]
    for week in (1, 2):
        season = apply_action(season, {"do": "weekend", "first": [row(f"A{week}", 9), None, None, None],
                                       "second": [row(f"B{week}", 9), None, None, None]}, dice(week))[0]
    return season


def test_redo_brings_back_the_week_undone_with_its_roll_offs_and_a_new_action_clears_it():
    """Redo gives back the step undone as it was (the roll-off the page
    rolled for it, not a new one); any new action clears what was undone; with nothing undone it is a sentence."""
    season = _two_weeks()
    back = undo(undo(season))
    assert len(back["weeks"]) == 0 and len(back["redo"]) == 2
    once = redo(back)
    assert len(once["weeks"]) == 1 and once["log"][-1] == season["log"][-2] and len(once["redo"]) == 1
    assert redo(once) == season
    cleared = apply_action(once, {"do": "player", "player": "second", "name": "Ben"})[0]
    assert cleared["redo"] == []
    with pytest.raises(InputError, match="nothing to redo"):
        redo(cleared)
    answer = runner.track("rpgdl.season", json.dumps(season), json.dumps({"do": "redo"}))
    assert answer["ok"] is False and "nothing to redo" in answer["error"]


def test_a_season_saved_before_redo_loads_and_a_hostile_redo_list_is_refused_in_words():
    """A season saved without the redo list reads as one with nothing undone. A redo record from outside is
    believed only when the step it brings back is the one its own action makes: one that changes the
    standings, forges a log entry or is no record at all is refused in a sentence, and nothing is read."""
    season = _two_weeks()
    old = {k: v for k, v in json.loads(json.dumps(season)).items() if k != "redo"}
    assert check_season(old) == season
    back = json.loads(json.dumps(undo(season)))
    assert check_season(back)["redo"] == back["redo"]
    record = back["redo"][0]["change"]
    forged = json.loads(json.dumps(back))
    forged["redo"][0]["change"][1]["result"] = ["=", {**season["result"], "headline": "Ben wins."}]
    tail = json.loads(json.dumps(back))
    tail["redo"][0]["change"][1]["log"][1]["tail"][0]["headline"] = "Week 2: Ana takes everything."
    for hostile, said in ((forged, "does not match what its own action makes"), (tail, "does not match what its own action makes"),
                          ({**back, "redo": [{"change": ["=", 5]}]}, "wrong shape"), ({**back, "redo": "all"}, "redo list"),
                          ({**back, "redo": [{"change": record}] * 31}, "at most 30"), ({**back, "redo": [{"change": None}]}, "one more entry")):
        with pytest.raises(InputError, match=said):
            check_season(hostile)
        answer = runner.track("rpgdl.season", json.dumps(hostile), json.dumps({"do": "show"}))
        assert answer["ok"] is False and said in answer["error"], answer


@settings(max_examples=60, deadline=None)
@given(st.lists(weekends(), min_size=1, max_size=5), st.integers(0, 2**16))
def test_counters_never_go_negative(actions, seed):
    season = play(new_season(), actions, seed)
    for s in season["standings"]:
        assert all(s[k] >= 0 for k in s if k.endswith(("successes", "trainwrecks", "points")))
    for w in season["weeks"]:
        assert all(w[k] >= 0 for k in ("first_successes", "second_successes", "first_trainwrecks", "second_trainwrecks"))
        assert all(d["successes"] >= 0 for d in w["duels"])
    assert 0 <= season["result"]["weeks_played"] <= 5


# ---------------------------------------------------------------- a season with Nom Pools


def pool(prefix):
    """20 duelists, five of each division: G1..G5, H1..H5, M1..M5, L1..L5."""
    return "\n".join(f"{prefix}{d[0].upper()}{i}, {d}" for d in DIVISIONS for i in range(1, 6))


def lineup(prefix, numbers, worths=None):
    """Four duelists of the Nom Pool above; by default the first player's (A) beat the second's (B) by 1."""
    worths = worths or ((10, 8, 6, 4) if prefix == "A" else (9, 7, 5, 3))
    return [row(f"{prefix}{d[0].upper()}{n}", d, w, 2) for d, n, w in zip(DIVISIONS, numbers, worths)]


@pytest.fixture
def pools():
    season = new_season()
    for who, name, prefix in (("first", "Ana", "A"), ("second", "Ben", "B")):
        season, entry, _ = apply_action(season, {"do": "player", "player": who, "name": name, "nom_pool": pool(prefix),
                                                  "season_deck": "\n".join(f"4 Card {i}" for i in range(10))})
        assert "legal" in entry["headline"] and not season["players"][who]["nom_pool_problems"]
    return season


def test_the_roster_refuses_strangers_the_discarded_the_misfiled_and_doubles(pools):
    season, _, _ = apply_action(pools, {"do": "weekend", "first": lineup("A", (1, 1, 1, 1), (10, 9, 9, 9)), "second": lineup("B", (1, 1, 1, 1))})
    lost = [e["name"] for e in season["players"]["second"]["nom_pool"] if e["discarded"] == 1]
    assert lost == ["BG1", "BH1", "BM1", "BL1"]
    assert [(e["name"], e["worth"], e["draw"]) for e in season["players"]["first"]["nom_pool"][:2]] == [("AG1", 10, 2), ("AG2", None, None)]
    cases = [
        ({"first": lineup("A", (2, 2, 2, 2)), "second": lineup("B", (2, 1, 2, 2))}, "lost in week 1 and was discarded", "heavy_second_name"),
        ({"first": lineup("A", (2, 2, 2, 2)), "second": lineup("Z", (2, 2, 2, 2))}, "is not in Ben's Nom Pool", "godlike_second_name"),
        ({"first": lineup("A", (2, 2, 2, 2)), "second": [row("BG2", "heavy", 9, 2), *lineup("B", (2, 2, 2, 2))[1:]]},
         "lists BG2 as Godlike, not Heavy", "godlike_second_division"),
        ({"first": [row("AH2", "heavy", 9, 2), row("AH2", "heavy", 9, 2), *lineup("A", (2, 2, 2, 2))[2:]], "second": lineup("B", (2, 2, 2, 2))},
         "a duelist fights once a Weekend", "heavy_first_name"),
        ({"first": [*lineup("A", (2, 2, 2, 2))[:3], None], "second": lineup("B", (2, 2, 2, 2))}, "fill every slot you can", "light_first_name"),
    ]
    for action, words, field in cases:
        with pytest.raises(InputError) as err:
            apply_action(season, {"do": "weekend", **action})
        assert words in str(err.value) and err.value.field == field, str(err.value)


def test_a_tied_godlike_duel_needs_its_roll_off(pools):
    """The Godlike duel above is 9 against 9: without dice or a roll-off typed, the tracker asks for it."""
    action = {"do": "weekend", "first": lineup("A", (1, 1, 1, 1), (9, 9, 9, 9)), "second": lineup("B", (1, 1, 1, 1))}
    with pytest.raises(InputError, match="Godlike duel is tied at 9: type the roll-off") as err:
        apply_action(pools, action)
    assert err.value.field == "rolls"
    with pytest.raises(InputError, match="a tie: type the roll that broke the tie"):
        apply_action(pools, {**action, "rolls": "3 3"})
    with pytest.raises(InputError, match="more were typed than this Weekend needs"):
        apply_action(pools, {**action, "rolls": "6 1 2 5"})
    season, entry, _ = apply_action(pools, {**action, "rolls": "6 1"})
    assert season["weeks"][0]["duels"][0]["roll"] == [6, 1] and season["weeks"][0]["duels"][0]["winner"] == "first"
    assert entry["action"]["rolls"] == [[6, 1]]


def test_settings_and_nom_pools_are_fixed_once_the_season_begins(pools):
    season, _, _ = apply_action(pools, {"do": "weekend", "first": lineup("A", (1, 1, 1, 1)), "second": lineup("B", (1, 1, 1, 1))})
    with pytest.raises(InputError, match="settings are fixed"):
        apply_action(season, {"do": "settings", "settings": {"half_draw": "exactly"}})
    with pytest.raises(InputError, match="Nom Pool is fixed"):
        apply_action(season, {"do": "player", "player": "first", "nom_pool": pool("A")})
    renamed, entry, _ = apply_action(season, {"do": "player", "player": "first", "name": "Anna"})
    assert entry["headline"] == "Ana is now called Anna." and renamed["players"]["first"]["name"] == "Anna"
    with pytest.raises(InputError, match="Both players would be called ben: give them different names"):
        apply_action(season, {"do": "player", "player": "first", "name": " ben "})


def test_the_successes_season_ends_after_five_weeks(pools):
    season = pools
    for week in range(1, 6):
        season, _, _ = apply_action(season, {"do": "weekend", "week": week, "first": lineup("A", (week,) * 4, (9, 7, 5, 4)),
                                             "second": lineup("B", (week,) * 4, (8, 6, 4, 3))})
    assert season["result"] == {"outcome": "first-wins", "winner": "first", "over": True, "weeks_played": 5,
                                "headline": "Ana wins the game: Successes 20 to 0."}
    assert season["run_out"] == {"first": {}, "second": {d: 5 for d in DIVISIONS}}
    with pytest.raises(InputError, match="The game is over: Ana wins the game"):
        apply_action(season, {"do": "weekend", "first": lineup("A", (5,) * 4), "second": lineup("B", (5,) * 4)})
    with pytest.raises(InputError, match="entered as week 3, but the season is at week 2"):
        apply_action(replay([e["action"] for e in season["log"][:3]]), {"do": "weekend", "week": 3, "first": [], "second": []})


def test_three_trainwrecks_lose_at_once(pools):
    season = pools
    # Ana's Godlike (Draw 4) loses to Ben's Light BL1 playing up (Draw 1): a Trainwreck each week.
    for week in range(1, 4):
        ana = [row(f"AG{week}", "godlike", 2, 4), row(f"AH{week}", "heavy", 9, 2), row(f"AM{week}", "middle", 9, 2), row(f"AL{week}", "light", 9, 2)]
        ben = [row("BL1", "light", 9, 1), row(f"BH{week}", "heavy", 1, 2), row(f"BM{week}", "middle", 1, 2), row(f"BL{week + 1}", "light", 1, 2)]
        season, _entry, _ = apply_action(season, {"do": "weekend", "first": ana, "second": ben})
        assert season["weeks"][-1]["first_trainwrecks"] == 1
    assert season["result"]["outcome"] == "first-trainwrecked" and season["result"]["over"]
    assert season["result"]["headline"] == "Ana reaches 3 Trainwrecks in week 3 and loses: Ben wins."
    assert season["standings"][-1]["first_successes"] > season["standings"][-1]["second_successes"]


def test_without_nom_pools_a_slot_may_stay_empty():
    season, entry, _ = apply_action(new_season(), {"do": "weekend", "first": [*lineup("A", (1,) * 4)[:3], None],
                                                   "second": lineup("B", (1,) * 4, (1, 1, 1, 1))})
    assert "rpgdl.ruling.empty-slot" in entry["rules"] and season["weeks"][0]["duels"][3]["fought"] is False
    assert "Light: no duel, First player left the slot empty; BL1 returns to Second player's Roster." in entry["details"]
    assert season["weeks"][0]["returned"]["second"] == ["BL1"]


def test_the_championship_goal_crowns_whoever_outlasts_a_division_and_runs_past_five_weeks():
    season = new_season()
    season, _, _ = apply_action(season, {"do": "settings", "settings": {"goal": "championship"}})
    with pytest.raises(InputError, match="needs both players' Nom Pools"):
        apply_action(season, {"do": "weekend", "first": lineup("A", (1,) * 4), "second": lineup("B", (1,) * 4)})
    for who, prefix in (("first", "A"), ("second", "B")):
        season, _, _ = apply_action(season, {"do": "player", "player": who, "nom_pool": pool(prefix)})
    # Ana wins the Godlike and Middle duels every week, Ben the Heavy and Light ones.
    for week in range(1, 6):
        season, entry, _ = apply_action(season, {"do": "weekend", "first": lineup("A", (week,) * 4, (9, 1, 9, 1)),
                                                 "second": lineup("B", (week,) * 4, (1, 9, 1, 9))})
    assert season["champions"] == {"godlike": {"player": "first", "week": 5, "roll": None},
                                   "heavy": {"player": "second", "week": 5, "roll": None},
                                   "middle": {"player": "first", "week": 5, "roll": None},
                                   "light": {"player": "second", "week": 5, "roll": None}}
    assert season["standings"][-1]["first_points"] == 9 and season["standings"][-1]["second_points"] == 8
    assert season["result"]["outcome"] == "first-wins" and season["result"]["headline"] == "First player wins the game: Championship points 9 to 8."
    assert "rpgdl.ruling.championship-length" in entry["rules"] and "rpgdl.championship.points" in entry["rules"]


def _no_godlike_pool(prefix):
    """A legal Nom Pool with no Godlike at all: ten Heavy in their place (rpgdl.decks.nom-pool-replace)."""
    return "\n".join(f"{prefix}{d[0].upper()}{i}, {d}" for d, n in (("heavy", 10), ("middle", 5), ("light", 5)) for i in range(1, n + 1))


@pytest.mark.parametrize("both", [False, True])
def test_a_nom_pool_without_a_division_ran_out_of_it_first(both):
    """rpgdl.ruling.championship-run-out: a Nom Pool that never had a Godlike ran out at the start, before the
    opponent loses its last Godlike in week 1, so the opponent is crowned without a roll-off; two such pools
    ran out together and roll off (rpgdl.ruling.championship-same-results)."""
    season = apply_action(new_season(), {"do": "settings", "settings": {"goal": "championship"}})[0]
    season = apply_action(season, {"do": "player", "player": "first", "nom_pool": _no_godlike_pool("A")})[0]
    ben = _no_godlike_pool("B") if both else "BG1, godlike\n" + "\n".join(f"BH{i}, heavy" for i in range(1, 5)) + "\n" + \
        "\n".join(f"B{d[0].upper()}{i}, {d}" for d in ("middle", "light") for i in range(1, 6))
    season = apply_action(season, {"do": "player", "player": "second", "nom_pool": ben})[0]
    assert season["players"]["first"]["nom_pool_problems"] == []  # legal: the game allows it
    first = [row("AH1", "heavy", 9, 2), row("AH2", "heavy", 1, 2), row("AM1", "middle", 1, 2), row("AL1", "light", 1, 2)]
    second = [row("BH9" if both else "BG1", "heavy" if both else "godlike", 1, 2), row("BH1", "heavy", 9, 2),
              row("BM1", "middle", 9, 2), row("BL1", "light", 9, 2)]
    if both:
        second[0] = row("BH10", "heavy", 1, 2)
    season, entry, _ = apply_action(season, {"do": "weekend", "first": first, "second": second, "rolls": "2 5"} if both else
                                    {"do": "weekend", "first": first, "second": second})
    assert season["run_out"]["first"]["godlike"] == 0
    if both:
        assert season["run_out"]["second"]["godlike"] == 0
        assert season["champions"]["godlike"] == {"player": "second", "week": 1, "roll": [2, 5]}
        assert "rpgdl.ruling.championship-same-results" in entry["rules"]
    else:
        assert season["run_out"]["second"]["godlike"] == 1  # Ben's only Godlike lost to Ana's Heavy playing up
        assert season["champions"]["godlike"] == {"player": "second", "week": 1, "roll": None}
        assert "rpgdl.ruling.championship-same-results" not in entry["rules"]
        assert "Second player is the Godlike champion (First player ran out first, having none in the Nom Pool): " \
               "5 Championship points." in entry["details"]
    assert "First player had no Godlike duelist in the Nom Pool: out of that division from the start." in entry["details"]
    assert "rpgdl.ruling.championship-run-out" in entry["rules"]
    assert check_season(json.loads(json.dumps(season))) == season  # and it survives storage


def test_a_sixth_week_under_the_championship_goal():
    season = new_season()
    season, _, _ = apply_action(season, {"do": "settings", "settings": {"goal": "championship", "sudden_death": "no-winner"}})
    for who, prefix in (("first", "A"), ("second", "B")):
        season, _, _ = apply_action(season, {"do": "player", "player": who, "nom_pool": pool(prefix)})
    for _week in range(1, 7):  # Sudden Death nobody wins: ties forever, and the tracker goes past five weeks
        season, _, _ = apply_action(season, {"do": "weekend", "first": lineup("A", (1,) * 4, (9, 7, 5, 3)), "second": lineup("B", (1,) * 4)})
    assert season["result"]["weeks_played"] == 6 and not season["result"]["over"]


# ---------------------------------------------------------------- hostile or broken state


def _season():
    return play(new_season(), [{"do": "weekend", "first": lineup("A", (1,) * 4, (10, 8, 6, 4)), "second": lineup("B", (1,) * 4)}])


@pytest.mark.parametrize(("change", "words"), [
    (lambda s: [], "is a JSON object with a log; this is a list"),
    (lambda s: {**s, "tracker": "tell_tale.encounter"}, "This is not a saved RPGDL season: it says it is 'tell_tale.encounter'"),
    (lambda s: {**s, "version": 7}, "saved by a newer version of the tracker (version 7)"),
    (lambda s: {**s, "version": True}, "has a version number; got 'True'"),
    (lambda s: {**s, "extra": 1}, "has no field called 'extra'"),
    (lambda s: {**s, "log": {"a": 1}}, "log is a list of actions; got an object"),
    (lambda s: {**s, "log": [{"action": {"do": "settings"}}] * (MAX_LOG + 1)}, f"keeps at most {MAX_LOG}"),
    (lambda s: {**s, "log": ["x"]}, "Entry 1 of the season's log is not an action"),
    (lambda s: {**s, "log": [{"action": {"do": "rm -rf"}}]}, "the actions are settings, player, weekend; got 'rm -rf'"),
    (lambda s: {**s, "standings": [{**s["standings"][0], "first_successes": 99}]}, "standings/0/first_successes is 99, but the log gives"),
    (lambda s: {**s, "weeks": [{**s["weeks"][0], "first_successes": 1.5}]}, "weeks/0/first_successes is 1.5"),
    (lambda s: {**s, "log": [{**s["log"][0], "headline": "<script>alert(1)</script>"}]}, "log/0/headline is '<script>alert(1)</script>'"),
    (lambda s: {**s, "log": [{"action": {**s["log"][0]["action"], "first": [row("A", "godlike", 999, 2)] * 4}}]},
     "Godlike slot, First player's Worth must be at most 99; got 999"),
    (lambda s: {**s, "log": [{"action": {"do": "player", "player": "first", "name": "x" * 41}}]}, "the limit is 40"),
    (lambda s: {**s, "log": [{"action": {"do": "player", "player": "first", "nom_pool": [["x", "heavy"]] * 41}}]}, "at most 40, got more"),
    (lambda s: {**s, "log": [{"action": {"do": "settings", "settings": {"trainwreck_limit": 10**30}}}]}, "at most 20"),
])
def test_hostile_or_broken_state_is_refused_with_a_sentence(change, words):
    raw = change(json.loads(json.dumps(_season())))
    answer = runner.track("rpgdl.season", json.dumps(raw), json.dumps({"do": "show"}))
    assert not answer["ok"] and words in answer["error"], answer["error"]
    assert answer["field"] == "state"


def test_a_sixth_weekend_replayed_without_the_week_numbers():
    s = _season()
    log = [{"action": {k: v for k, v in s["log"][0]["action"].items() if k != "week"}}] * 6
    answer = runner.track("rpgdl.season", json.dumps({"tracker": "rpgdl.season", "version": 1, "log": log}), '{"do": "show"}')
    assert answer["error"] == ("Entry 6 of the season's log (a Weekend) cannot be replayed: The game is over: "
                               "First player wins the game: Successes 20 to 0. Undo a week to change it, or start a new season.")


def test_junk_never_raises_and_nothing_is_changed():
    rng = random.Random(16)
    good = json.dumps(_season())
    junk = ["", "null", "[]", "{}", "1e999", '"x"', "[" * 5000, '{"tracker": "rpgdl.season", "version": 1, "log": [' + "[" * 3000 + "]}",
            good[:-5], good.replace("First player", "F" * 50), json.dumps({"tracker": "rpgdl.season", "version": 1, "log": [{"action": {"do": "weekend", "first": None}}]})]
    actions = ['{"do": "weekend", "first": 7}', '{"do": "undo"}', '{"do": "player", "player": "third"}', "{", '{"do": "settings", "settings": []}',
               '{"do": "weekend", "first": [null, null, null, null], "second": [null, null, null, null]}', '{"do": "show"}']
    for _ in range(200):
        answer = runner.track("rpgdl.season", rng.choice(junk + [good]), rng.choice(actions), rng.choice([None, 5, "x"]))
        json.dumps(answer)
        assert answer["ok"] or (answer["error"] and "Traceback" not in answer["error"])
    assert json.loads(good) == _season()


def test_a_step_that_would_not_fit_in_storage_is_refused():
    season = new_season()
    deck = {f"{'Card' * 24} {i}": 4 for i in range(100)}
    for _n in range(20):
        answer = runner.track("rpgdl.season", json.dumps(season), json.dumps({"do": "player", "player": "first", "season_deck": deck}))
        if not answer["ok"]:
            assert "too big to keep" in answer["error"]
            break
        season = answer["state"]
    else:
        pytest.fail("the state grew without a limit")


# ---------------------------------------------------------------- names: the one check both trackers use

# Characters that change how the text around them shows: control characters, direction overrides and
# isolates, zero-width ones. (Those str.split() takes for spaces, such as a tab or U+2028, become one space.)
UNSAFE_CHARACTERS = [("ESC", "\x1b"), ("BEL", "\x07"), ("NUL", "\x00"), ("DEL", "\x7f"), ("C1 CSI", "\x9b"),
                     ("LRE", "\u202a"), ("RLO", "\u202e"), ("LRI", "\u2066"), ("PDI", "\u2069"), ("ALM", "\u061c"),
                     ("ZWSP", "\u200b"), ("ZWJ", "\u200d"), ("WJ", "\u2060"), ("BOM", "\ufeff"), ("surrogate", "\ud800")]


def _godlike_only(name, worth):
    return [row(name, "godlike", worth, 3), None, None, None]


NAME_PLACES = [  # (what, the action with the character c in a name, the field the error names)
    ("player name", lambda c: {"do": "player", "player": "first", "name": f"Ana{c}"}, "name"),
    ("Nom Pool text", lambda c: {"do": "player", "player": "first", "nom_pool": pool("A").replace("AG1", f"AG{c}1")}, "nom_pool"),
    ("Nom Pool list", lambda c: {"do": "player", "player": "first", "nom_pool": [[f"AG{c}1", "godlike"]]}, "nom_pool"),
    ("Season Deck text", lambda c: {"do": "player", "player": "first", "season_deck": f"4 Card {c}1\n4 Card 2"}, "season_deck"),
    ("Season Deck object", lambda c: {"do": "player", "player": "second", "season_deck": {f"Card{c}": 4}}, "season_deck"),
    ("Weekend duelist", lambda c: {"do": "weekend", "first": _godlike_only(f"X{c}Y", 9), "second": _godlike_only("B", 8)}, "godlike_first_name"),
]


@pytest.mark.parametrize("place, action, field", NAME_PLACES, ids=[p[0] for p in NAME_PLACES])
@pytest.mark.parametrize("character", [c for _, c in UNSAFE_CHARACTERS], ids=[n for n, _ in UNSAFE_CHARACTERS])
def test_every_name_the_season_keeps_refuses_control_direction_and_zero_width_characters(place, action, field, character):
    answer = runner.track("rpgdl.season", "", json.dumps(action(character)))
    assert not answer["ok"], f"{place} took {character!r}"
    assert "holds a control or direction character" in answer["error"] and answer["field"] == field, answer["error"]


@pytest.mark.parametrize("character", [c for _, c in UNSAFE_CHARACTERS], ids=[n for n, _ in UNSAFE_CHARACTERS])
def test_a_saved_season_with_such_a_name_in_its_log_is_refused(character):
    saved = {"tracker": "rpgdl.season", "version": 1, "log": [{"action": {"do": "player", "player": "first", "name": f"Ana{character}"}}]}
    answer = runner.track("rpgdl.season", json.dumps(saved), '{"do": "show"}')
    assert not answer["ok"] and answer["field"] == "state"
    assert answer["error"] == ("Entry 1 of the season's log (a player) cannot be replayed: A player's name holds a control or direction "
                               "character, or an invisible one: type the name again.")


@pytest.mark.parametrize("name", ["Zoë", "Łucja Nowak", "ليلى", "山田 太郎", "Ana 🐉", "O'Brien-Smith"])
def test_names_in_any_script_are_kept(name):
    answer = runner.track("rpgdl.season", "", json.dumps({"do": "player", "player": "first", "name": name}))
    assert answer["ok"] and answer["state"]["players"]["first"]["name"] == name, answer.get("error")


def test_both_trackers_use_the_one_name_check():
    from calculators import checks
    from calculators.rpgdl import league_input
    from calculators.tell_tale import encounter_roster, encounter_state
    one = getattr(checks, "check_name", None)
    assert one is not None
    assert encounter_state.check_name is one and encounter_roster.check_name is one and league_input.check_name is one
    assert encounter_state.UNSAFE is checks.UNSAFE


def test_the_tracker_cites_only_rules_that_exist():
    assert set(RULES) <= RULE_IDS, set(RULES) - RULE_IDS
    assert registry.all_trackers()["rpgdl.season"].rules == RULES


# ---------------------------------------------------------------- the vote planner


def brute_force(matchups, votes, objective, rulings):
    """Every split of `votes` within the Draws, judged from resolve_weekend over every roll-off outcome."""
    rooms = [min(m.mine.draw, votes) for m in matchups]
    best = None
    count = 0
    for split in itertools.product(*(range(r + 1) for r in rooms)):
        if sum(split) > votes:
            continue
        count += 1
        mine = [m.mine for m in matchups]
        theirs = [m.theirs for m in matchups]
        kwargs = dict(first_votes=split, second_votes=[m.their_votes for m in matchups], first_bonus=[m.my_bonus for m in matchups],
                      second_bonus=[m.their_bonus for m in matchups], **rulings)
        plain = resolve_weekend(mine, theirs, **{**kwargs, "sudden_death": "no-winner"})
        ties = [d.slot for d in plain.duels if d.sudden_death] if rulings["sudden_death"] == "roll-off" else []
        eys = eos = eyw = win = Fraction(0)
        for picks in itertools.product(("first", "second"), repeat=len(ties)):
            p = Fraction(1, 2 ** len(ties))
            w = resolve_weekend(mine, theirs, sudden_death_winners=dict(zip(ties, picks)), **kwargs)
            eys += p * w.first_successes
            eos += p * w.second_successes
            eyw += p * w.first_trainwrecks
            win += p * (w.first_successes > w.second_successes)
        gaps = tuple(sorted(d.first_worth - d.second_worth for d in plain.duels))
        primary = {"successes": (eys, -eyw, win), "margin": (eys - eos, -eyw, win), "win": (win, -eyw, eys - eos)}[objective]
        key = primary + (-sum(split), gaps)
        best = key if best is None or key > best else best
    return best, count


@st.composite
def matchups(draw):
    out = []
    for slot in DIVISIONS:
        sides = []
        for _ in range(2):
            division = draw(st.sampled_from(DIVISIONS[DIVISIONS.index(slot):]))
            sides.append(Duelist("x", division, draw(st.integers(0, 9)), draw(st.integers(0, 4))))
        their_votes = draw(st.integers(0, sides[1].draw))
        out.append(Matchup(slot, sides[0], sides[1], their_votes, draw(st.integers(-2, 2)), draw(st.integers(-2, 2))))
    return out


@pytest.mark.settled
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matchups(), st.integers(0, 6), st.sampled_from(["successes", "margin", "win"]),
       st.fixed_dictionaries({k: st.sampled_from(v) for k, v in SETTINGS.items()}))
def test_the_planners_split_is_never_beaten(matchups, votes, objective, rulings):
    plan = plan_votes(matchups, votes, objective=objective, **rulings)
    best, count = brute_force(matchups, votes, objective, rulings)
    assert plan.splits == count == split_count([min(m.mine.draw, votes) for m in matchups], votes)
    assert sum(plan.votes) <= votes and all(v <= m.mine.draw for v, m in zip(plan.votes, matchups))
    eys, eos, win = plan.expected_successes, plan.expected_opponent_successes, plan.win_chance
    eyw = sum(n * p for n, p in plan.trainwrecks.items())
    gaps = tuple(sorted(d.results[0][1].first_worth - d.results[0][1].second_worth for d in plan.duels))
    primary = {"successes": (eys, -eyw, win), "margin": (eys - eos, -eyw, win), "win": (win, -eyw, eys - eos)}[objective]
    assert primary + (-plan.spent, gaps) == best
    assert sum(plan.trainwrecks.values()) == 1 and 0 <= plan.trainwreck_risk <= 1
    assert 0 <= plan.win_chance + plan.even_chance <= 1


def test_the_planner_refuses_a_pool_past_its_cap_and_says_why():
    m = [Matchup(slot, Duelist("x", slot, 5, 99), Duelist("y", slot, 5, 9)) for slot in DIVISIONS]
    with pytest.raises(InputError, match="splits at most 40 votes") as err:
        plan_votes(m, 41)
    assert err.value.field == "votes"
    answer = runner.run("rpgdl.plan_votes", {f"{s}_{w}_{k}": "9" for s in DIVISIONS for w in ("you", "opponent") for k in ("worth", "draw")}
                          | {"votes": "41"})
    assert not answer["ok"] and answer["field"] == "votes" and "at most 40" in answer["error"]


def test_the_planners_work_is_bounded_at_its_cap():
    """40 votes over four Draws of 99: 135,751 splits at most, whatever the objective. The work is counted here,
    not timed (a shared machine's clock failed this test under load); the page stops any calculation past 10 s."""
    m = [Matchup(slot, Duelist("x", slot, w, 99), Duelist("y", slot, o, 9)) for slot, w, o in zip(DIVISIONS, (5, 9, 3, 8), (9, 2, 7, 8))]
    for objective in ("successes", "margin", "win"):
        assert plan_votes(m, 40, objective=objective).splits == 135_751


# ---------------------------------------------------------------- the command line


def cli(*args):
    return command_line.run(*args)


def test_the_command_line_runs_a_season_file_and_prints_its_state(tmp_path):
    actions = [{"do": "player", "player": "first", "name": "Ana"},
               {"do": "weekend", "first": lineup("A", (1,) * 4, (9, 9, 9, 9)), "second": lineup("B", (1,) * 4)}]
    path = tmp_path / "season.json"
    path.write_text(json.dumps(actions))
    out = cli("track", "rpgdl.season", str(path), "--seed", "7", "--save", str(tmp_path / "state.json"))
    assert out.returncode == 0, out.stderr
    expected = runner.track("rpgdl.season", json.dumps(runner.track("rpgdl.season", "", json.dumps(actions[0]), 7)["state"]),
                              json.dumps(actions[1]), 8)
    assert json.loads((tmp_path / "state.json").read_text()) == expected["state"]
    assert "2. Week 1: Ana takes the Weekend" in out.stdout and "rolls" in out.stdout
    # The state in a few lines: the standings as Python counts them.
    assert "Ana against Second player: Week 2 next: Ana leads, Successes 12 to 0." in out.stdout
    assert "1     12 to 0        0 to 0" in out.stdout and "Log: 2 entries." in out.stdout
    as_json = cli("track", "rpgdl.season", str(path), "--seed", "7", "--json")
    assert json.loads(as_json.stdout)["state"] == expected["state"]
    undone = cli("track", "rpgdl.season", str(tmp_path / "state.json"), "--do", '{"do": "undo"}', "--json")
    assert json.loads(undone.stdout)["state"]["weeks"] == []
    bad = cli("track", "rpgdl.season", str(path), "--seed", "1", "--do", '{"do": "weekend", "first": 1}')
    assert bad.returncode == 2 and bad.stderr.startswith("Step 3") and "Traceback" not in bad.stderr
    path.write_text('{"tracker": "rpgdl.season", "version": 9, "log": []}')
    refused = cli("track", "rpgdl.season", str(path))
    assert refused.returncode == 2 and "newer version" in refused.stderr


# ---------------------------------------------------------------- votes against the Vote Pool


def _four(votes, prefix="A"):
    return [row(f"{prefix}{d}", d, 5, 99, v) for d, v in zip(DIVISIONS, votes)]


def test_votes_past_the_vote_pool_are_refused_by_the_tracker():
    """rpgdl.ruling.vote-pool: 99 votes on each of four duelists (396) against a Vote Pool of 10 is refused, in a
    sentence naming the field; 10 are taken, and a bigger pool typed for the week takes more."""
    season = apply_action(new_season(), {"do": "player", "player": "first", "name": "Ana"})[0]
    with pytest.raises(InputError) as err:
        apply_action(season, {"do": "weekend", "first": _four([99] * 4), "second": _four([0] * 4, "B")}, dice(1))
    assert err.value.field == "light_first_votes"
    assert str(err.value).startswith("Light slot, Ana's votes: 99 + 99 + 99 + 99 = 396 votes on Ana's duelists this Weekend, "
                                     "more than the 10 in Ana's Vote Pool")
    with pytest.raises(InputError) as err:
        apply_action(season, {"do": "weekend", "first": _four([0] * 4), "second": _four([3, 3, 5, 0], "B")}, dice(1))
    assert err.value.field == "middle_second_votes" and "3 + 3 + 5 + 0 = 11 votes" in str(err.value)
    _, entry, _ = apply_action(season, {"do": "weekend", "first": _four([4, 3, 2, 1]), "second": _four([0] * 4, "B")}, dice(1))
    assert entry["action"]["vote_pools"] == {"first": 10, "second": 10} and "rpgdl.ruling.vote-pool" in entry["rules"]
    assert "Votes on the duelists: Ana 10 of 10, Second player 0 of 10 in the Vote Pool." in entry["details"]
    _, entry, _ = apply_action(season, {"do": "weekend", "first": _four([4, 3, 3, 2]), "second": _four([0] * 4, "B"),
                                           "vote_pools": {"first": "12"}}, dice(1))
    assert entry["action"]["vote_pools"] == {"first": 12, "second": 10}
    with pytest.raises(InputError) as err:
        apply_action(season, {"do": "weekend", "first": _four([0] * 4), "second": _four([0] * 4, "B"), "vote_pools": {"second": -1}})
    assert err.value.field == "second_vote_pool"


def test_votes_past_the_vote_pool_are_refused_by_the_weekend_form():
    """rpgdl.ruling.vote-pool, in the Weekend calculator: the same sentence, next to the field at fault."""
    fields = {f"{d}_{who}_{k}": v for d in DIVISIONS for who in ("first", "second") for k, v in (("worth", "5"), ("draw", "99"))}
    over = runner.run("rpgdl.resolve_weekend", {**fields, **{f"{d}_first_votes": "99" for d in DIVISIONS},
                                                  "sudden_death_rolls": "1 2 1 2 1 2 1 2"})
    assert not over["ok"] and over["field"] == "light_first_votes"
    assert over["error"].startswith("Light slot, first player's votes: 99 + 99 + 99 + 99 = 396 votes on the first player's "
                                    "duelists this Weekend, more than the 10 in the first player's Vote Pool")
    ok = runner.run("rpgdl.resolve_weekend", {**fields, **{f"{d}_first_votes": "99" for d in DIVISIONS}, "first_vote_pool": "396"})
    assert ok["ok"] and "rpgdl.ruling.vote-pool" in ok["rules"]
    assert "Votes on the duelists: first player 396 of 396, second player 0 of 10 in the Vote Pool." in ok["details"]
    bad = runner.run("rpgdl.resolve_weekend", {**fields, "second_vote_pool": "-3"})
    assert not bad["ok"] and bad["field"] == "second_vote_pool"


def test_a_season_saved_by_the_first_version_is_rebuilt_from_its_log():
    """Version 1 kept other words beside its actions (and no Vote Pools): its log alone is replayed, nothing is lost."""
    season = play(new_season(), [{"do": "weekend", "first": _four([1, 0, 0, 0]), "second": _four([0] * 4, "B")}], 3)
    saved = json.loads(json.dumps(season))
    saved["version"] = 1
    for entry in saved["log"]:
        entry["action"].pop("vote_pools", None)
        entry["rules"] = [r for r in entry["rules"] if r != "rpgdl.ruling.vote-pool"]
        entry["details"] = [d for d in entry["details"] if not d.startswith("Votes on the duelists")]
    assert check_season(saved) == season
    saved["version"] = 2
    with pytest.raises(InputError, match="does not match its own log"):
        check_season(saved)


def test_a_first_version_season_that_spent_more_than_ten_votes_still_opens():
    """rpgdl.ruling.vote-pool came with version 2: a season saved before it, with 12 votes in a week, is the
    group's evening and opens as it was played (its pool taken as the votes spent), never refused."""
    old = {"tracker": "rpgdl.season", "version": 1,
           "log": [{"action": {"do": "weekend", "first": _four([3, 3, 3, 3]), "second": _four([0] * 4, "B")}}]}
    season = check_season(json.loads(json.dumps(old)))
    assert len(season["weeks"]) == 1
    assert season["log"][0]["action"]["vote_pools"] == {"first": 12, "second": 10}
    # The same Weekend entered now is refused: the ruling holds for new weeks.
    with pytest.raises(InputError, match="Vote Pool"):
        apply_action(new_season(), {"do": "weekend", "first": _four([3, 3, 3, 3]), "second": _four([0] * 4, "B")})


def _shaped(value, hint, where="season"):
    """Where `value` strays from the type `hint` (a TypedDict followed key by key, each key present unless NotRequired)."""
    import types as pytypes
    import typing

    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Annotated:  # a log of Records: each entry follows the TypedDict named beside it
        return [w for item in value for w in _shaped(item, args[1], where)] if typing.get_origin(args[0]) is list else _shaped(value, args[0], where)
    if typing.is_typeddict(hint):
        if not isinstance(value, dict):
            return [f"{where}: {value!r} is not an object"]
        hints = typing.get_type_hints(hint, include_extras=True)
        optional = hint.__optional_keys__ | {k for k, h in hints.items() if typing.get_origin(h) is typing.NotRequired}
        missing = set(hints) - set(value) - optional
        wrong = [f"{where}: {sorted(missing)} missing"] if missing else []
        wrong += [f"{where}: {sorted(set(value) - set(hints))} not declared"] if set(value) - set(hints) else []
        for k in set(hints) & set(value):
            h = hints[k]
            if typing.get_origin(h) is typing.NotRequired:
                h = typing.get_args(h)[0]
            wrong += _shaped(value[k], h, f"{where}.{k}")
        return wrong
    if origin in (typing.Union, pytypes.UnionType):
        return [] if any(not _shaped(value, a, where) for a in args) else [f"{where}: {value!r} is none of {hint}"]
    if origin is list:
        return [w for i, item in enumerate(value) for w in _shaped(item, args[0], f"{where}[{i}]")] if isinstance(value, list) else [f"{where}: not a list"]
    if origin is dict:
        return [w for k, v in value.items() for w in _shaped(v, args[1], f"{where}.{k}")] if isinstance(value, dict) else [f"{where}: not an object"]
    if hint is type(None):
        return [] if value is None else [f"{where}: {value!r} is not None"]
    if hint is int:
        return [] if isinstance(value, int) and not isinstance(value, bool) else [f"{where}: {value!r} is not an int"]
    if isinstance(hint, type) and hint is not typing.Any and hint.__module__ == "builtins":
        return [] if isinstance(value, hint) else [f"{where}: {value!r} is not a {hint.__name__}"]
    return []  # Any, object, a Record: free-form


def test_a_played_season_is_shaped_as_its_typeddicts_which_the_page_types_are_written_from():
    """Every step's season (cards, roll-offs, a champion, an undo, a redo) holds exactly the keys its TypedDicts declare,
    each of its type: the season page's types (types/trackers.d.ts) are written from these, so they are the season's."""
    from support.season import DECK, WEEKS, pool

    from calculators.rpgdl.league_types import Season

    tracker = registry.all_trackers()["rpgdl.season"]
    assert tracker.state_type is Season
    state, roll = tracker.new(), random.Random(3)
    actions = [{"do": "settings", "settings": {"goal": "championship"}}]
    actions += [{"do": "player", "player": who, "name": name, "nom_pool": pool(prefix), "season_deck": DECK}
                for who, name, prefix in (("first", "Ana", "A"), ("second", "Benedetta", "B"))]
    actions += [{"do": "weekend", "week": w, "first": WEEKS[w][0], "second": WEEKS[w][1], **({"rolls": WEEKS[w][2]} if WEEKS[w][2] else {}),
                 **({"cards": {"first": {"votes": "1", "trainwrecks": "1"}}} if w == 2 else {})} for w in (1, 2, 3)]
    actions += [{"do": "undo"}, {"do": "redo"}]
    assert not _shaped(state, Season)
    for action in actions:
        state, _ = tracker.step(state, action, roll)
        assert not _shaped(state, Season), (action["do"], _shaped(state, Season))
    assert state["weeks"][1]["cards"]["first"] == {"votes": 1, "trainwrecks": 1} and len(state["weeks"]) == 3
