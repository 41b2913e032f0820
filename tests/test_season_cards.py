"""The season tracker's cards and votes across the table: card Trainwrecks, the opponent's votes on
a duelist, and the Vote Costs of Events and Attributes against the Vote Pool (calculators/rpgdl/league_cards.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect
from hypothesis import given
from hypothesis import strategies as st
from support import storage

from calculators import runner
from calculators.checks import InputError
from calculators.history import state_text
from calculators.rpgdl import apply_action, check_season, new_season

SAVED_V2 = Path(__file__).parent / "saved" / "rpgdl-season-v2.json"


def row(name, worth, draw, **more):
    return {"name": name, "worth": worth, "draw": draw, **more}


def named():
    season = apply_action(new_season(), {"do": "player", "player": "first", "name": "Ana"})[0]
    return apply_action(season, {"do": "player", "player": "second", "name": "Ben"})[0]


def weekend(season, first, second, **more):
    return apply_action(season, {"do": "weekend", "first": first + [None] * (4 - len(first)),
                                 "second": second + [None] * (4 - len(second)), **more})


def refused(season, first, second, **more) -> tuple[str, str | None]:
    with pytest.raises(InputError) as err:
        weekend(season, first, second, **more)
    return str(err.value), err.value.field


# ---------------------------------------------------------------- card Trainwrecks


def test_a_cards_trainwrecks_join_the_weeks():
    """rpgdl.ruling.event-trainwreck: "Trainwreck: 1" on a card played is a Trainwreck for its player that week."""
    season, entry, _ = weekend(named(), [row("A", 6, 2)], [row("B", 4, 2)], cards={"first": {"votes": 4, "trainwrecks": 1}})
    assert (season["weeks"][0]["first_trainwrecks"], season["standings"][0]["first_trainwrecks"]) == (1, 1)
    assert season["weeks"][0]["first_successes"] == 2  # the duel is fought as usual
    assert "Trainwrecks from cards played in the Week: Ana 1, Ben 0." in entry["details"]
    assert "rpgdl.ruling.event-trainwreck" in entry["rules"]
    assert entry["action"]["cards"] == {"first": {"votes": 4, "trainwrecks": 1}, "second": {"votes": 0, "trainwrecks": 0}}


def test_card_trainwrecks_reaching_the_limit_end_the_game_in_the_week():
    """rpgdl.ruling.card-trainwreck-timing: the loss is at once, in the Week: no duel of that Weekend is fought."""
    season, entry, _ = weekend(named(), [row("A", 9, 2)], [row("B", 4, 2)], cards={"first": {"trainwrecks": 3}})
    week = season["weeks"][0]
    assert [d["fought"] for d in week["duels"]] == [False] * 4
    assert (week["first_successes"], week["first_trainwrecks"]) == (0, 3)
    assert season["result"]["outcome"] == "first-trainwrecked" and season["result"]["over"]
    assert "Ana reaches the Trainwreck limit in the Week: the game ends at once, and no duel of this Weekend is fought." in entry["details"]
    # A tie that would need a roll-off needs none: the duel is not fought.
    season, _, _ = weekend(named(), [row("A", 4, 2)], [row("B", 4, 2)], cards={"second": {"trainwrecks": 3}})
    assert season["result"]["outcome"] == "second-trainwrecked"


def test_both_players_reaching_the_limit_with_cards_draw():
    """rpgdl.ruling.card-trainwreck-timing, rpgdl.ruling.simultaneous-trainwrecks: both lose, a draw."""
    season, _, _ = weekend(named(), [row("A", 9, 2)], [row("B", 4, 2)],
                           cards={"first": {"trainwrecks": 3}, "second": {"trainwrecks": 5}})
    assert season["result"]["outcome"] == "both-trainwrecked" and season["result"]["winner"] is None


def test_card_trainwrecks_below_the_limit_wait_for_the_duels():
    """rpgdl.ruling.card-trainwreck-timing: below the limit the duels are fought and their Trainwrecks add on."""
    # A (Draw 6) loses to B (Draw 2, half or less): a Trainwreck (rpgdl.ruling.half-draw), with 2 from cards: 3, the limit.
    season, _, _ = weekend(named(), [row("A", 2, 6)], [row("B", 5, 2)], cards={"first": {"trainwrecks": 2}})
    assert season["weeks"][0]["duels"][0]["fought"] and season["weeks"][0]["first_trainwrecks"] == 3
    assert season["result"]["outcome"] == "first-trainwrecked"


# ---------------------------------------------------------------- the opponent's votes


def test_the_opponents_votes_raise_worth_fill_the_draw_and_come_from_their_pool():
    """rpgdl.ruling.vote-worth: each vote adds 1 whoever spent it, and the Draw counts them all;
    rpgdl.ruling.vote-pool: they come out of the Vote Pool of the player who spent them."""
    season, entry, _ = weekend(named(), [row("A", 4, 4, votes=1, opponent_votes=2)], [row("B", 6, 2)])
    duel = season["weeks"][0]["duels"][0]
    assert (duel["first_worth"], duel["second_worth"], duel["winner"]) == (7, 6, "first")
    assert "Votes spent this week, on duelists of either side and on cards: Ana 1 of 10, Ben 2 of 10 in the Vote Pool." in entry["details"]
    assert refused(named(), [row("A", 4, 4, votes=3, opponent_votes=2)], [row("B", 6, 2)]) == (
        "Godlike slot, Ana: A has a Draw of 4, so it takes at most 4 votes; got 5.", "godlike_first_votes")
    message, field = refused(named(), [row("A", 4, 9, opponent_votes=9)], [row("B", 6, 9, votes=2)])
    assert (message, field) == ("Ben spends 11 votes this week, 2 on Ben's duelists (2 + 0 + 0 + 0), 9 on Ana's, more than the 10 in "
                                "Ben's Vote Pool; spend fewer, or raise the Vote Pool if Voters gave more this week.", "godlike_first_opponent_votes")


def test_a_bad_opponent_vote_is_refused_naming_its_field():
    assert refused(named(), [row("A", 4, 4, opponent_votes="lots")], [row("B", 6, 2)]) == (
        "Godlike slot, Ana: the votes from the other player must be a whole number; got 'lots'.", "godlike_first_opponent_votes")


# ---------------------------------------------------------------- Vote Costs against the Vote Pool


def test_the_vote_costs_of_cards_count_against_the_vote_pool():
    """rpgdl.votes.costs, rpgdl.ruling.vote-pool: a card's Vote Cost is spent from the same pool as the votes on duelists."""
    _, entry, _ = weekend(named(), [row("A", 4, 4, votes=4)], [row("B", 6, 2)], cards={"first": {"votes": 6}})
    assert "Votes spent this week, on duelists of either side and on cards: Ana 10 of 10, Ben 0 of 10 in the Vote Pool." in entry["details"]
    assert "rpgdl.votes.costs" in entry["rules"]
    assert refused(named(), [row("A", 4, 4, votes=4)], [row("B", 6, 2)], cards={"first": {"votes": 7}}) == (
        "Ana spends 11 votes this week, 4 on Ana's duelists (4 + 0 + 0 + 0), 7 on cards, more than the 10 in Ana's Vote Pool; "
        "spend fewer, or raise the Vote Pool if Voters gave more this week.", "first_card_votes")
    weekend(named(), [row("A", 4, 4, votes=4)], [row("B", 6, 2)], cards={"first": {"votes": 7}}, vote_pools={"first": 11})


@pytest.mark.parametrize("cards, said, field", [
    ({"first": {"votes": "x"}}, "Ana's votes spent on cards must be a whole number; got 'x'.", "first_card_votes"),
    ({"first": {"trainwrecks": -1}}, "Ana's Trainwrecks from cards must be at least 0; got -1.", "first_card_trainwrecks"),
    ({"first": {"cost": 1}}, "Ana's cards this week are an object of votes and trainwrecks.", "first_card_votes"),
    ({"third": {}}, "A Weekend's cards are an object with 'first' and 'second', each of votes and trainwrecks.", "first_card_votes"),
    ([1], "A Weekend's cards are an object with 'first' and 'second', each of votes and trainwrecks.", "first_card_votes"),
])
def test_bad_cards_are_refused_in_one_sentence_naming_the_field(cards, said, field):
    assert refused(named(), [row("A", 4, 4)], [row("B", 6, 2)], cards=cards) == (said, field)


# ---------------------------------------------------------------- saved seasons


def test_a_season_saved_before_the_cards_opens_as_it_was():
    """A version-2 season saved by the tracker before these fields (tests/saved, made at commit 93887d0) is
    rebuilt from its log to the very same state: the new fields are optional and change nothing left out."""
    saved = json.loads(SAVED_V2.read_text())
    rebuilt = check_season(saved)
    assert {k: v for k, v in json.loads(state_text(rebuilt)).items() if k not in ("undo", "redo")} == \
        {k: v for k, v in saved.items() if k not in ("undo", "redo")}
    answer = runner.track("rpgdl.season", SAVED_V2.read_text(), json.dumps({"do": "show"}))
    assert answer["ok"], answer


def test_a_season_with_cards_goes_out_and_comes_back_and_a_hostile_one_is_refused():
    season, _, _ = weekend(named(), [row("A", 4, 4, opponent_votes=1)], [row("B", 6, 2)], cards={"first": {"votes": 2, "trainwrecks": 1}})
    text = state_text(season)
    assert json.loads(state_text(check_season(json.loads(text)))) == json.loads(text)
    hostile = json.loads(text)
    hostile["log"][-1]["action"]["cards"]["first"]["trainwrecks"] = 99
    with pytest.raises(InputError) as err:
        check_season(hostile)
    assert err.value.field == "state" and "Trainwrecks from cards must be at most" in str(err.value)


@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 3)), min_size=1, max_size=5))
def test_the_standings_trainwrecks_are_the_duels_and_the_cards(weeks):
    """rpgdl.ruling.event-trainwreck: week after week, a player's Trainwrecks are those of the duels plus those of cards,
    and the game ends the week they reach the limit (rpgdl.season.trainwreck-loss)."""
    season = named()
    total = 0
    for votes, wrecks in weeks:
        if season["result"]["over"]:
            break
        season, _, _ = weekend(season, [row("A", 5, 6, votes=votes)], [row("B", 4, 6)], cards={"first": {"votes": 0, "trainwrecks": wrecks}})
        total += wrecks
        assert season["standings"][-1]["first_trainwrecks"] == total
        assert season["result"]["over"] == (total >= 3 or len(season["weeks"]) == 5)


def test_on_a_phone_the_week_takes_cards_and_rival_votes_and_says_a_fault_by_its_field(browser, base_url):
    """The season page at 360x740: a duelist's row takes the rival's votes on it, each player the votes on cards and
    the Trainwrecks from cards (rpgdl.ruling.vote-pool, rpgdl.ruling.event-trainwreck); the season kept is the
    one Python makes of the same action; spending past the Vote Pool is said under the cards' field
    (rpgdl.votes.costs); cards reaching the limit end the game in the Week (rpgdl.ruling.card-trainwreck-timing)."""
    from support.helpers import BOOT, PHONE, set_fields

    context = browser.new_context(**PHONE, color_scheme="light")
    page = context.new_page()
    page.goto(base_url + "rpgdl/season-tracker/")
    page.locator(".season[data-loaded]").wait_for(timeout=BOOT)
    form = page.locator("form.season-form")
    week = {"godlike_first_name": "A", "godlike_first_worth": "4", "godlike_first_draw": "4", "godlike_first_votes": "1",
            "godlike_first_opponent_votes": "2", "godlike_second_name": "B", "godlike_second_worth": "6", "godlike_second_draw": "2"}
    set_fields(form, {**week, "first_card_votes": "20"})
    form.locator("[data-action=weekend]").click()
    field = form.locator("[name=first_card_votes]")
    error = page.locator("#" + (field.get_attribute("aria-describedby") or "").split()[-1])
    error.filter(has_text="spends 21 votes").wait_for(timeout=BOOT)
    expect(field).to_have_attribute("aria-invalid", "true")
    box, said = field.bounding_box(), error.bounding_box()
    assert box and said and 0 <= said["y"] - (box["y"] + box["height"]) < 60 and said["x"] + said["width"] <= 360
    page.screenshot(path="/tmp/season-cards-phone-error.png")
    set_fields(form, {**week, "first_card_votes": "4", "first_card_trainwrecks": "1"})
    form.locator("[data-action=weekend]").click()
    page.locator("[data-section=result] .calc-headline").first.wait_for(timeout=BOOT)
    kept = json.loads(storage.get(page, storage.SEASON))
    mine = weekend(new_season(), [row("A", "4", "4", division="godlike", votes="1", bonus="", opponent_votes="2")],
                   [row("B", "6", "2", division="godlike", votes="", bonus="", opponent_votes="")],
                   vote_pools={"first": "10", "second": "10"}, cards={"first": {"votes": "4", "trainwrecks": "1"}})[0]
    assert kept["log"][-1]["action"] == mine["log"][-1]["action"]
    assert kept["standings"] == mine["standings"] and kept["standings"][0]["first_trainwrecks"] == 1
    shown = page.locator("[data-section=result]").inner_text()
    assert "Votes spent this week, on duelists of either side and on cards: First player 5 of 10, Second player 2 of 10" in shown
    page.screenshot(path="/tmp/season-cards-phone-result.png", full_page=False)
    set_fields(form, {"first_card_trainwrecks": "2"})
    form.locator("[data-action=weekend]").click()
    page.locator(".season-over").wait_for(timeout=BOOT)
    expect(page.locator(".season-over")).to_have_text("First player reaches 3 Trainwrecks in week 2 and loses: Second player wins.", use_inner_text=True)
    context.close()
