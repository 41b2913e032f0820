"""The Tell-Tale party kept between encounters (calculators/tell_tale/party.py) and its way into a set-up
(the encounter's "add_party"): a campaign. tt.levels.level-up, tt.ruling.level-up-stats,
tt.levels.starting-level, tt.levels.lands, tt.keyword.regenerate, tt.ruling.vitality-above-full."""

from __future__ import annotations

import hashlib
import json

import pytest
from support.campaign import HOSTILE, fought, kept

from calculators.checks import InputError
from calculators.registry import all_trackers
from calculators.runner import track
from calculators.tell_tale.encounter import encounter_step, run_script
from calculators.tell_tale.party import MAX_LEVEL, check_members, check_party, new_party, party_step

NAME = "tell_tale.party"



def member(party, name):
    return next(m for m in party["members"] if m["name"] == name)


def test_keeping_takes_the_pcs_and_their_companions_as_they_stand():
    party, headline, details, rules = kept()
    assert headline == "The party is kept: Vraska, Mira."  # no NPC, no NPC's familiar, no summon
    v, m = member(party, "Vraska"), member(party, "Mira")
    assert (v["vitality"], v["max_vitality"], v["level"], v["lands"], v["companion"]) == (13, 15, 3, [], None)  # tt.levels.starting-level
    assert (m["counters"], m["poisoned"], m["companion"]["name"], m["companion"]["vitality"]) == (1, True, "Imp", 3)
    for rule in ("tt.levels.starting-level", "tt.stats.vitality-no-regeneration", "tt.ruling.counters-after-combat"):
        assert rule in rules
    assert "Mira Vitality 12/12 (1 counter, poisoned)" in " ".join(details)
    assert check_party(json.loads(json.dumps(party))) == party  # what the page keeps reads back as it was


def test_keeping_again_keeps_levels_and_lands_and_those_not_in_the_fight():
    party, *_ = kept()
    party, *_ = party_step(party, {"do": "level_up", "choices": [{"member": "Vraska", "stat": "speed", "land": "Swamp"},
                                                                 {"member": "Mira", "stat": "speed", "land": "Plains"}]})
    s = run_script([(  # a new fight with Mira alone, hurt
        {"do": "add", "name": "Mira", "kind": "pc", "power": 2, "toughness": 2, "vitality": 4, "initiative": 9}, None)])
    again, _, details, _ = party_step(party, {"do": "keep", "combatants": s["combatants"]})
    assert member(again, "Vraska") == member(party, "Vraska") and member(again, "Vraska")["level"] == 4
    assert member(again, "Mira")["vitality"] == 4 and member(again, "Mira")["companion"] is None
    assert (member(again, "Mira")["level"], member(again, "Mira")["lands"]) == (4, ["Plains"])  # her level and lands stay hers
    assert "Not in this encounter, kept as they were: Vraska." in details


@pytest.mark.parametrize(("stat", "raised"), [
    ("initiative", ("initiative", 15)), ("vitality", ("max_vitality", 16)), ("speed", ("speed", 11)),
])
def test_level_up_is_a_land_a_stat_and_regeneration(stat, raised):
    """tt.levels.level-up: one more land, +1 to the stat chosen (tt.ruling.level-up-stats), regenerate (tt.keyword.regenerate)."""
    party, *_ = kept()
    up, headline, _, rules = party_step(party, {"do": "level_up", "choices": [{"member": "Vraska", "stat": stat, "land": "Overgrown Tomb"},
                                                                                  {"member": "Mira", "stat": "companion_vitality"}]})
    v, m = member(up, "Vraska"), member(up, "Mira")
    assert (v["level"], v["lands"], v[raised[0]]) == (4, ["Overgrown Tomb"], raised[1])  # tt.levels.lands
    assert v["vitality"] == v["max_vitality"]  # regenerated: full Vitality
    assert (m["level"], m["counters"], m["poisoned"], m["vitality"]) == (4, 0, False, 12)  # counters and poison gone
    assert (m["companion"]["max_vitality"], m["companion"]["vitality"]) == (6, 6)  # Companion Vitality +1, the Imp regenerated too
    for rule in ("tt.levels.level-up", "tt.ruling.level-up-stats", "tt.keyword.regenerate", "tt.levels.lands", "tt.levels.new-lands-untapped"):
        assert rule in rules
    assert headline == "Level up: Vraska, Mira."


def test_regeneration_never_lowers_vitality_above_full():
    """tt.ruling.vitality-above-full: Mira gained life above her full 12."""
    party, *_ = kept()
    assert member(party, "Mira")["vitality"] == 12
    s = run_script([({"do": "add", "name": "Mira", "kind": "pc", "power": 2, "toughness": 2, "vitality": 12, "initiative": 9}, None),
                    ({"do": "life", "target": "c1", "amount": 5}, None)])
    party, *_ = party_step(party, {"do": "keep", "combatants": s["combatants"]})
    up, _, _, rules = party_step(party, {"do": "level_up", "choices": [{"member": "Mira", "stat": "speed"}]})
    assert member(up, "Mira")["vitality"] == 17 and "tt.ruling.vitality-above-full" in rules


@pytest.mark.parametrize(("choices", "words"), [
    ([{"member": "Vraska", "stat": "companion_speed"}], "only be raised for a character with an animal companion"),
    ([{"member": "Vraska", "stat": "power"}], "A level-up raises one of Initiative, PC Vitality"),
    ([{"member": "Nobody", "stat": "speed"}], "no member 'Nobody'"),
    ([{"member": "Vraska", "stat": "speed"}, {"member": "Vraska", "stat": "speed"}], "levels up once at a time"),
    ([{"member": "Vraska", "stat": "speed", "land": "Swa\u202emp"}], "control or direction character"),
    ([{"member": "Vraska", "stat": "speed", "land": "x" * 41}], "the limit is 40"),
    ([{"member": "Vraska"}], "a member, a stat"),
    ([], "one for each player"),
    ("everyone", "one for each player"),
])
def test_a_bad_level_up_is_one_sentence_naming_the_field(choices, words):
    party, *_ = kept()
    with pytest.raises(InputError, match=words) as err:
        party_step(party, {"do": "level_up", "choices": choices})
    assert err.value.field == "choices"


def test_the_dead_level_up_only_once_returned():
    """Regeneration does not raise the dead (a return does: tt.mechanics.return-characters)."""
    party, *_ = kept(fought({"do": "damage", "target": "c2", "amount": 30}))
    up, _, details, _ = party_step(party, {"do": "level_up", "choices": [{"member": "Mira", "stat": "speed"}]})
    assert member(up, "Mira")["vitality"] < 0 and "regeneration does not bring it back" in " ".join(details)


def test_the_level_has_a_limit_of_the_page():
    party, *_ = kept()
    party["members"][0]["level"] = MAX_LEVEL
    with pytest.raises(InputError, match=f"levels up to {MAX_LEVEL}"):
        party_step(party, {"do": "level_up", "choices": [{"member": "Vraska", "stat": "speed"}]})


def test_undo_takes_back_the_last_change_exactly():
    party, *_ = kept()
    up, *_ = party_step(party, {"do": "level_up", "choices": [{"member": "Vraska", "stat": "vitality", "land": "Swamp"}]})
    back, headline, _, _ = party_step(up, {"do": "undo"})
    assert {**back, "undo": None} == {**party, "undo": None} and headline == "Undone: Level up: Vraska."
    gone, *_ = party_step(party, {"do": "remove", "member": "mira"})
    assert [m["name"] for m in gone["members"]] == ["Vraska"]
    with pytest.raises(InputError, match="nothing to undo"):
        party_step(new_party(), {"do": "undo"})


def test_the_party_joins_a_set_up_as_one_step():
    party, *_ = kept()
    s = run_script([({"do": "add", "name": "Bandit", "kind": "npc", "power": 2, "toughness": 2, "vitality": 8, "initiative": 10}, None)])
    s, step = encounter_step(s, {"do": "add_party", "members": party["members"]})
    cs = {c["name"]: c for c in s["combatants"]}
    assert [cs[n]["kind"] for n in ("Vraska", "Mira", "Imp")] == ["pc", "pc", "familiar"] and cs["Imp"]["owner"] == cs["Mira"]["id"]
    assert (cs["Vraska"]["vitality"], cs["Vraska"]["toughness_now"], cs["Mira"]["counters"], cs["Mira"]["poisoned"]) == (13, 3, 1, True)
    assert [c["name"] for i in s["order"] for c in s["combatants"] if c["id"] == i] == ["Vraska", "Bandit", "Mira"]  # by Initiative
    assert step.headline == "The party joins the encounter: Vraska, Mira with Imp."
    for rule in ("tt.stats.vitality-no-regeneration", "tt.ruling.counters-after-combat", "tt.stats.toughness-regeneration"):
        assert rule in step.rules
    back, _ = encounter_step(s, {"do": "undo"})
    assert [c["name"] for c in back["combatants"]] == ["Bandit"]
    with pytest.raises(InputError, match="in this encounter already") as err:
        encounter_step(s, {"do": "add_party", "members": party["members"]})
    assert err.value.field == "members"
    started = run_script([({"do": "start"}, None)], s)
    with pytest.raises(InputError, match="joins while the fight is being set up"):
        encounter_step(started, {"do": "add_party", "members": party["members"]})


def test_a_whole_evening_fight_keep_level_next_fight():
    """One fight, kept, the party levelled up; the next encounter with the party; the party's new numbers into it."""
    over = fought()
    party, *_ = kept(over)
    party, *_ = party_step(party, {"do": "level_up", "choices": [{"member": "Vraska", "stat": "vitality"}, {"member": "Mira", "stat": "speed"}]})
    fresh = run_script([])
    s, _ = encounter_step(fresh, {"do": "add_party", "members": party["members"]})
    cs = {c["name"]: c for c in s["combatants"]}
    assert (cs["Vraska"]["vitality"], cs["Vraska"]["max_vitality"], cs["Mira"]["speed"], cs["Mira"]["counters"]) == (16, 16, 13, 0)



@pytest.mark.parametrize(("label", "text", "words"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_a_hostile_party_is_refused_in_one_sentence(label, text, words):
    answer = track(NAME, text, json.dumps({"do": "show"}))
    assert not answer["ok"] and words in answer["error"] and "Traceback" not in answer["error"], (label, answer)
    assert answer["error"].count(". ") <= 2  # one sentence (with at most the member's name and the rule in it)


def test_a_hostile_party_sent_to_the_encounter_changes_nothing():
    party, *_ = kept()
    s = run_script([])
    bad = json.loads(json.dumps(party["members"]))
    bad[0]["vitality"] = "lots"
    with pytest.raises(InputError, match="Member 1 \\(Vraska\\): Vitality must be a whole number") as err:
        encounter_step(s, {"do": "add_party", "members": bad})
    assert err.value.field == "members"
    with pytest.raises(InputError, match="at most 8") as err:
        check_members([party["members"][0]] * 9)


def test_the_party_is_a_tracker_the_page_reaches_through_the_worker():
    tracker = all_trackers()[NAME]
    assert tracker.check(json.loads(json.dumps(tracker.new()))) == tracker.new()
    answer = track(NAME, "", json.dumps({"do": "keep", "combatants": fought()["combatants"]}))
    assert answer["ok"] and answer["headline"] == "The party is kept: Vraska, Mira." and "tt.levels.starting-level" in answer["rules"]
    # the rules the party cites, each one a rule of the book: tt.character.companion, tt.mechanics.return-characters
    assert {"tt.character.companion", "tt.mechanics.return-characters"} <= set(tracker.rules)


def test_the_gm_keeps_a_companion_as_a_familiar_or_a_mount_and_the_next_encounter_follows():
    """tt.character.familiar-or-mount: the GM's choice, kept in the party (a party saved without it: a familiar); a
    companion kept as a mount joins the next set-up out of the fight until ridden (tt.character.mount)."""
    over = fought()
    party, *_ = kept(over)
    assert member(party, "Mira")["companion"]["mount"] is False
    mounted, headline, details, rules = party_step(party, {"do": "companion", "member": "mira", "as": "mount"})
    assert headline == "Mira's Imp is kept as a mount." and "tt.character.familiar-or-mount" in rules and "tt.character.mount" in rules
    assert member(mounted, "Mira")["companion"]["mount"] is True and "fights only while ridden" in details[0]
    assert check_party(json.loads(json.dumps(mounted))) == mounted
    for action, words, field in (({"do": "companion", "member": "Mira", "as": "mount"}, "Imp is kept as a mount already", "as"),
                                 ({"do": "companion", "member": "Vraska", "as": "mount"}, "Vraska has no animal companion", "member"),
                                 ({"do": "companion", "member": "Kaya", "as": "mount"}, "There is no member 'Kaya'", "member"),
                                 ({"do": "companion", "member": "Mira", "as": "griffin"}, "a familiar or as a mount; got 'griffin'", "as")):
        with pytest.raises(InputError, match=words) as err:
            party_step(mounted, action)
        assert err.value.field == field
    back, *_ = party_step(mounted, {"do": "undo"})
    assert member(back, "Mira")["companion"]["mount"] is False
    # into a new set-up, and into the next encounter after the fight it was kept from
    s, _ = encounter_step(run_script([]), {"do": "add_party", "members": mounted["members"]})
    imp = next(c for c in s["combatants"] if c["name"] == "Imp")
    assert imp["mount"] and not imp["ridden"] and not imp["in_fight"]
    s, _ = encounter_step(over, {"do": "next_encounter", "party": mounted})
    assert next(c for c in s["combatants"] if c["name"] == "Imp")["mount"]
    # a party kept before companions could be mounts: each companion is a familiar, and the fight it was kept from is still known
    old = json.loads(json.dumps(party))
    del old["members"][1]["companion"]["mount"]
    assert check_party(old)["members"][1]["companion"]["mount"] is False
    before = [{**m, "companion": {k: v for k, v in m["companion"].items() if k != "mount"} if m["companion"] else None} for m in party["members"]]
    assert party["fight"] == hashlib.sha256(json.dumps(before, sort_keys=True).encode()).hexdigest()[:16]
