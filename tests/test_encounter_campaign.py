"""The encounter tracker between fights: "Next encounter with this party" (a campaign).

tt.stats.toughness-regeneration, tt.stats.vitality-no-regeneration, tt.ruling.counters-after-combat,
tt.ruling.next-encounter and tt.ruling.dead-between-encounters, as calculators/tell_tale/encounter_campaign.py
applies them.
"""

from __future__ import annotations

import pytest
from support.campaign import PARTY, fought

from calculators.checks import InputError
from calculators.tell_tale.encounter import encounter_step, run_script
from calculators.tell_tale.encounter_state import check_encounter


def by_name(s):
    return {c["name"]: c for c in s["combatants"]}


def test_the_party_carries_on_as_it_stands_and_toughness_is_full():
    over = fought()
    s, step = encounter_step(over, {"do": "next_encounter"})
    cs = by_name(s)
    assert list(cs) == ["Vraska", "Mira", "Imp"]  # the Ogre, its Wolf and Mira's Spirit token are gone (tt.ruling.next-encounter)
    assert s["phase"] == "setup" and s["round"] == 0 and s["step"] is None and s["order"] == ["c1", "c2"]
    before = by_name(over)
    for name, c in cs.items():  # Vitality as it stood (tt.stats.vitality-no-regeneration), Toughness full (tt.stats.toughness-regeneration)
        assert c["vitality"] == before[name]["vitality"] and c["toughness_now"] == c["toughness"]
    assert cs["Vraska"]["vitality"] == 13 and cs["Imp"]["vitality"] == 3
    assert (cs["Mira"]["counters"], cs["Mira"]["poisoned"], cs["Mira"]["power_now"]) == (1, True, 1)  # tt.ruling.counters-after-combat
    assert all(c["status"] == "standing" and c["actions"] == 2 for c in cs.values())
    for rule in ("tt.stats.toughness-regeneration", "tt.stats.vitality-no-regeneration", "tt.ruling.counters-after-combat", "tt.ruling.next-encounter"):
        assert rule in step.rules and rule in s["log"][-1]["rules"]
    said = " ".join(step.details)
    assert "Vraska 13/15" in said and "Mira 1 counter, poisoned" in said and "Ogre, Wolf" in said and "Spirit" in said
    check_encounter(s)  # a state the page keeps and reads back


def test_the_next_encounter_starts_and_plays_with_what_was_carried():
    s, _ = encounter_step(fought(), {"do": "next_encounter"})
    s = run_script([({"do": "add", "name": "Bandit", "kind": "npc", "power": 2, "toughness": 2, "vitality": 8, "initiative": 3}, None),
                    ({"do": "start"}, None), ({"do": "next"}, None)], s)
    cs = by_name(s)
    assert s["phase"] == "combat" and cs["Vraska"]["vitality"] == 13 and cs["Vraska"]["toughness_now"] == 3
    s = run_script([({"do": "next"}, None)] * 6, s)  # on to Mira's upkeep: the poison carried over adds its counter (tt.ruling.poison-timing)
    assert by_name(s)["Mira"]["counters"] == 2


def test_undo_brings_the_old_fight_back():
    over = fought()
    s, _ = encounter_step(over, {"do": "next_encounter"})
    back, step = encounter_step(s, {"do": "undo"})
    past = lambda s: {k: v for k, v in s.items() if k not in ("undo", "redo")}  # noqa: E731 (the history of undone steps aside)
    assert past(back) == past(over) and step.headline.startswith("Undone: The next encounter")


@pytest.mark.parametrize("script", [[], [({"do": "start"}, None)]], ids=["setting up", "under way"])
def test_only_a_fight_that_is_over_goes_on_to_the_next(script):
    s = run_script([*((a, None) for a in PARTY), *script])
    with pytest.raises(InputError, match="once this one is over: end the encounter first") as err:
        encounter_step(s, {"do": "next_encounter"})
    assert err.value.field == "action"


def test_the_dead_and_the_exiled_come_along_or_are_left_behind():
    """tt.ruling.dead-between-encounters: kept as they are by default, so a return can bring them back; or left behind."""
    over = fought({"do": "damage", "target": "c2", "amount": 20})  # Mira dies (Vitality below 0)
    kept, step = encounter_step(over, {"do": "next_encounter"})
    assert by_name(kept)["Mira"]["vitality"] < 0 and "tt.ruling.dead-between-encounters" in step.rules
    kept, _ = encounter_step(kept, {"do": "cure", "target": "c2", "how": "return"})  # tt.mechanics.return-characters
    assert by_name(kept)["Mira"]["vitality"] == 12
    dropped, step = encounter_step(over, {"do": "next_encounter", "dead": "behind"})
    assert list(by_name(dropped)) == ["Vraska"]  # Mira left behind, with her Imp
    assert "Left behind, dead or exiled: Mira, Imp." in step.details and "tt.ruling.dead-between-encounters" in step.rules


def test_nobody_to_carry_on_and_a_bad_choice_are_sentences_naming_the_field():
    over = fought({"do": "damage", "target": "c1", "amount": 40}, {"do": "damage", "target": "c2", "amount": 40})
    with pytest.raises(InputError, match="Every PC is dead or exiled") as err:
        encounter_step(over, {"do": "next_encounter", "dead": "behind"})
    assert err.value.field == "dead"
    with pytest.raises(InputError, match=r"either come along or are left behind \(along or behind\)") as err:
        encounter_step(over, {"do": "next_encounter", "dead": "bury"})
    assert err.value.field == "dead"
    foes_only = run_script([(PARTY[3], None), ({"do": "start"}, None), ({"do": "end"}, None)])
    with pytest.raises(InputError, match="There is no PC to carry on"):
        encounter_step(foes_only, {"do": "next_encounter"})


# ---------------------------------------------------------------- the party page between fights (tt.ruling.next-encounter-party)


def _levelled(over):
    from support.campaign import kept

    from calculators.tell_tale.party import party_step
    party, *_ = kept(over)
    party, *_ = party_step(party, {"do": "level_up", "choices": [{"member": "Vraska", "stat": "vitality"},
                                                                 {"member": "Mira", "stat": "companion_vitality"}]})
    return party


def test_a_level_up_made_between_fights_is_what_the_next_encounter_starts_from():
    """End, keep, level up on the party page, next encounter: the levels come in, and the log says so."""
    over = fought({"do": "hand", "id": "c1", "cards": 5})
    party = _levelled(over)
    s, step = encounter_step(over, {"do": "next_encounter", "party": party})
    cs = by_name(s)
    assert (cs["Vraska"]["vitality"], cs["Vraska"]["max_vitality"], cs["Vraska"]["hand"]) == (16, 16, 5)  # +1 and regenerated
    assert (cs["Mira"]["counters"], cs["Mira"]["poisoned"]) == (0, False)  # regenerated (tt.keyword.regenerate)
    assert (cs["Imp"]["vitality"], cs["Imp"]["max_vitality"]) == (6, 6)  # the companion's +1
    assert "tt.ruling.next-encounter-party" in step.rules
    said = " ".join(step.details)
    assert "As the party page has them since this fight ended" in said and "Vraska (level 4) Vitality 16/16" in said
    check_encounter(s)
    back, _ = encounter_step(s, {"do": "undo"})
    assert by_name(back)["Vraska"]["max_vitality"] == 15  # Undo brings the old fight back, the party page's numbers out


def test_a_party_kept_from_another_fight_is_named_and_this_fights_end_used():
    party = _levelled(fought())
    later = fought({"do": "damage", "target": "c1", "amount": 2})  # a later fight, never kept: Vraska 11/15
    s, step = encounter_step(later, {"do": "next_encounter", "party": party})
    assert (by_name(s)["Vraska"]["vitality"], by_name(s)["Vraska"]["max_vitality"]) == (11, 15)
    said = " ".join(step.details)
    assert "The party page holds Vraska, Mira and Imp otherwise, kept from another fight: this fight's end is used." in said


def test_the_same_party_unchanged_since_the_fight_says_nothing_more():
    from support.campaign import kept
    over = fought()
    party, *_ = kept(over)
    plain, plain_step = encounter_step(over, {"do": "next_encounter"})
    s, step = encounter_step(over, {"do": "next_encounter", "party": party})
    assert s["combatants"] == plain["combatants"] and step.details == plain_step.details


def test_a_counted_hand_goes_with_the_party_and_comes_back():
    """Outside combat players do not draw or discard: the hand kept is the hand that joins the next set-up."""
    from support.campaign import kept
    over = fought({"do": "hand", "id": "c2", "cards": 4})
    party, *_ = kept(over)
    assert {m["name"]: m["hand"] for m in party["members"]} == {"Vraska": None, "Mira": 4}
    s, _ = encounter_step(run_script([]), {"do": "add_party", "members": party["members"]})
    assert {c["name"]: c["hand"] for c in s["combatants"]} == {"Vraska": None, "Mira": 4, "Imp": None}


def test_a_party_saved_before_hands_and_marks_reads_as_uncounted():
    from support.campaign import kept

    from calculators.tell_tale.party import check_party
    party, *_ = kept()
    old = {k: v for k, v in party.items() if k != "fight"}
    old["members"] = [{k: v for k, v in m.items() if k != "hand"} for m in party["members"]]
    read = check_party(old)
    assert read["fight"] is None and all(m["hand"] is None for m in read["members"])


def test_a_broken_party_sent_with_the_next_encounter_is_one_sentence_naming_the_field():
    from support.campaign import kept
    party, *_ = kept()
    party["members"][0]["vitality"] = "lots"
    with pytest.raises(InputError, match="The party kept on this device cannot be read: Member 1 \\(Vraska\\): Vitality") as err:
        encounter_step(fought(), {"do": "next_encounter", "party": party})
    assert err.value.field == "party"


def test_how_many_foes_stand_is_derived_after_every_step_and_every_check():
    """The page offers End in its bar when no foe stands (foes_standing 0): Python counts the foes' side in the fight
    (conscious, not exiled), after each step, after an undo and in a fight read back, whatever a saved one says."""
    s = run_script([*((a, None) for a in PARTY), ({"do": "start"}, None)])
    assert s["foes_standing"] == 2  # the Ogre and its Wolf; Mira's Spirit is on the party's side
    s, _ = encounter_step(s, {"do": "damage", "target": "c4", "amount": 30})
    assert s["foes_standing"] == 1
    down, _ = encounter_step(s, {"do": "damage", "target": "c5", "amount": 8})
    assert down["foes_standing"] == 0
    assert encounter_step(down, {"do": "undo"})[0]["foes_standing"] == 1
    assert check_encounter({**down, "foes_standing": 5})["foes_standing"] == 0  # derived, never read from outside
    saved_before = {k: v for k, v in down.items() if k != "foes_standing"}  # a fight kept before the field was there
    assert check_encounter(saved_before)["foes_standing"] == 0


def test_the_same_fight_again_says_what_it_does_and_undo_brings_the_end_back():
    """"Same fight again" is the start action on a fight that is over: round 1 with everyone as they stand, said in
    its details; one step with its undo record, so Undo brings the fight that was over back as it was."""
    over = fought({"do": "damage", "target": "c4", "amount": 30})
    again, step = encounter_step(over, {"do": "start"})
    assert again["phase"] == "combat" and again["round"] == 1
    assert any("fight again from round 1, as they stand" in d for d in step.details)
    assert by_name(again)["Ogre"]["vitality"] == by_name(over)["Ogre"]["vitality"] < 0  # nobody comes back
    back, _ = encounter_step(again, {"do": "undo"})
    past = lambda s: {k: v for k, v in s.items() if k not in ("undo", "redo")}  # noqa: E731 (the history of undone steps aside)
    assert past(back) == past(over)
    _, first = encounter_step(run_script([*((a, None) for a in PARTY)]), {"do": "start"})
    assert not any("fight again" in d for d in first.details)  # a first start says nothing of the kind
