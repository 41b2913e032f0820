"""The rules coverage page and its two checks (rulebook/coverage.py).

A rule a calculator cites must be cited by a test (by its ID, as a string),
and every ID a test cites must be a rule of the site, or a retired one: a
typo in a test's rule ID would otherwise guard nothing. The modules in
coverage.FIXTURE_MODULES build mini sites of their own with made-up IDs.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markupsafe import escape
from support.encounter import fighters, fresh, random_action, step  # the fight the property tests draw
from support.rulepages import DOCS

from calculators.checks import InputError
from calculators.registry import all_calculators
from rulebook import coverage, read_docs

BOOK = read_docs(DOCS)

# IDs a test writes on purpose although no rule has them, with why.
NOT_RULES_ON_PURPOSE = {
    "tt.combat.nukes": "support/encounter.py: a hostile saved fight whose log cites a rule the tracker does not apply",
}


@pytest.fixture(scope="module")
def found():
    return coverage.coverage(BOOK)


def test_every_rule_a_calculator_cites_has_a_test_citing_it(found):
    cited = {rid for calc in all_calculators().values() for rid in calc.rules}
    untested = sorted(rid for rid in cited if not found.rows[rid].tests)
    assert not untested, f"{len(untested)} rules a calculator cites have no test citing them (write a case in tests/test_cited_rules.py): {untested}"


def test_every_id_a_test_cites_is_a_rule(found):
    wrong = {rid: [c.label for c in cited] for rid, cited in found.unknown.items() if rid not in NOT_RULES_ON_PURPOSE}
    assert not wrong, f"tests cite IDs that are no rule of the site (a typo, or a rule gone without a redirect): {wrong}"
    assert set(NOT_RULES_ON_PURPOSE) <= set(found.unknown) | set(found.rows), "an ID kept on purpose is no longer written: drop it here"


def test_citations_are_read_by_test_function():
    cited = coverage.citations()
    assert any(c.module == "test_cited_rules.py" and c.where == "OWN_CASES" for c in cited["tt.deck.copies"])
    assert "rpgdl.season" not in cited  # a tracker's name, two parts: not a rule ID


def test_a_ruling_is_followed_by_the_rule_before_it_and_the_rules_it_links(found):
    assert "tt.ruling.npc-initiative-roll" in found.rows["tt.combat.npc-initiative"].rulings
    assert "tt.ruling.npc-initiative-roll" in found.rows["tt.ruling.four-d6"].rulings  # it links there
    assert found.rows["tt.combat.attack-table"].computed and not found.rows["tt.overview.goal"].computed


@pytest.mark.site
def test_the_coverage_page_shows_the_counts_and_every_rule_with_its_title_in_its_list(site, found):
    """Written for a GM: per game, the rules worked out for you, stated only and house rulings, each rule with its
    title; no test file's name (the checks above are the developers')."""
    page = (site / "rules-coverage" / "index.html").read_text(encoding="utf-8")
    counts = re.search(r'<table class="coverage coverage-counts".*?</table>', page, re.S).group(0)
    for folder, name in (("tell-tale", "Tell-Tale"), ("talislanta", "Talislanta"), ("rpgdl", "RPGDL TCG")):
        c = found.kinds(folder)
        assert c["computed"] + c["stated"] + c["ruling"] == c["rules"] == len(found.game(folder))
        row = f'<tr><th scope="row">{name}</th><td>{c["rules"]}</td><td>{c["computed"]}</td><td>{c["stated"]}</td><td>{c["ruling"]}</td></tr>'
        assert row in counts, name
    lists = {m.group(1): m.group(2) for m in re.finditer(r'<h3 id="coverage-([a-z]+-[a-z]+)">.*?<ul class="coverage-rules">(.*?)</ul>', page, re.S)}
    for rid, rule in BOOK.rules.items():  # each ID a link to its rule, which may wrap after a dot, then its title
        kind = "ruling" if rule.ruling else "computed" if found.rows[rid].computed else "stated"
        shown = f'#{rid}">{rid.replace(".", ".<wbr>")}</a> <span class="coverage-title">{escape(rule.title)}</span>'
        assert shown in lists[f"{rid.split('.')[0]}-{kind}"], rid
    assert "test_" not in page and ".py" not in page
    # Rules the encounter tracker applies, named in its refusals: worked out, not stated only.
    assert "tt.<wbr>keyword.<wbr>defender" in lists["tt-computed"] and "tt.<wbr>keyword.<wbr>defender" not in lists["tt-stated"]


# ---------------------------------------------------------------- tracker actions (each ActionSpec's rules)


def _per_action(name):
    """Action -> the rules its declaration lists, with the tracker's step_rules for a recorded step (Tracker.rules_of)."""
    from calculators.registry import all_trackers

    tracker = all_trackers()[name]
    return {a: tracker.rules_of(a) for a in tracker.actions}


BRACKETED = re.compile(r"\(([a-z0-9]+(?:\.[a-z0-9-]+){2,})\)")  # a rule ID in a refusal's words: "(tt.keyword.defender)"


def test_a_rule_on_a_trackers_list_that_no_action_cites_is_not_computed_by_it(found):
    """A tracker's `rules` names what it may cite; only what an action's handling cites counts as computed."""
    from calculators.registry import all_trackers

    for name, tracker in all_trackers().items():
        reached = set().union(*_per_action(name).values())
        for rid in set(tracker.rules) - reached:
            assert not [c for c in found.rows[rid].computed if c[2] == name], (name, rid)
        for rid in reached:
            assert [c for c in found.rows[rid].computed if c[2] == name], (name, rid)
    # and what each action cites is its own: an attack applies the attack table, a kneel does not
    encounter, season = _per_action("tell_tale.encounter"), _per_action("rpgdl.season")
    assert "tt.combat.attack-table" in encounter["attack"] and "tt.combat.attack-table" not in encounter["act"]
    assert "tt.combat.actions" in encounter["act"] and not encounter["show"]
    assert "rpgdl.weekend.duel" in season["weekend"] and "rpgdl.weekend.duel" not in season["settings"]
    attack = next(c for c in found.rows["tt.combat.attack-table"].computed if c[0] == "tracker")
    assert attack[1] == "Encounter" and "Attack" in attack[3].split(", ") and "Undo" not in attack[3]


def test_a_rule_a_tracker_applies_and_names_in_a_sentence_is_computed(found):
    """Rules the encounter applies and names only in its words: a refusal (a Defender's attack, a second companion, a
    PC dispelled) or the docstring of the function that applies it (Power never below 0)."""
    encounter = _per_action("tell_tale.encounter")
    assert "tt.keyword.defender" in encounter["attack"] and "tt.character.companion" in encounter["add"]
    assert "tt.stats.power-minimum" in encounter["attack"]
    for rid in ("tt.keyword.defender", "tt.character.companion", "tt.stats.power-minimum", "tt.summoning.permanent"):
        assert [c for c in found.rows[rid].computed if c[2] == "tell_tale.encounter"], rid


@settings(max_examples=30, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_every_fight_step_cites_only_what_its_action_is_read_to_cite(data):
    """The declarations never say less than a run: each step's rules, and each rule a refusal names, are among its action's."""
    per = _per_action("tell_tale.encounter")
    state = fresh(*({"do": "add", **f} for f in data.draw(st.lists(fighters([]), min_size=2, max_size=4))))
    for _ in range(data.draw(st.integers(5, 30))):
        action = random_action(data, state)
        try:
            state, result = step(state, action, data.draw(st.integers(0, 2**32 - 1)))
        except InputError as err:  # a rule named in a refusal is one its action applies, and counts on the coverage page
            named = set(BRACKETED.findall(str(err))) & set(BOOK.rules)
            assert named <= set(per[action["do"]]), (action["do"], sorted(named - set(per[action["do"]])))
            continue
        assert set(result.rules) <= set(per[action["do"]]), (action["do"], sorted(set(result.rules) - set(per[action["do"]])))


def test_the_scripted_fight_and_a_season_cite_only_what_their_actions_are_read_to_cite():
    from support.encounter import FIGHT
    from support.season import DECK, WEEKS, dice, pool

    from calculators.rpgdl.league import new_season
    from calculators.rpgdl.league_actions import apply_action
    from calculators.tell_tale import encounter_step, new_encounter

    per = _per_action("tell_tale.encounter")
    state = new_encounter()
    for action, seed in FIGHT:
        state, result = encounter_step(state, action, random.Random(seed) if seed is not None else None)
        assert set(result.rules) <= set(per[action["do"]]), (action["do"], sorted(set(result.rules) - set(per[action["do"]])))
    per = _per_action("rpgdl.season")
    season, roll = new_season(), dice(0)
    actions = [{"do": "settings", "settings": {"half_draw": "exactly"}}]
    actions += [{"do": "player", "player": who, "name": name, "nom_pool": pool(prefix), "season_deck": DECK}
                for who, name, prefix in (("first", "Ana", "A"), ("second", "Benedetta", "B"))]
    actions += [{"do": "weekend", "week": week, "first": WEEKS[week][0], "second": WEEKS[week][1],
                 **({"rolls": WEEKS[week][2]} if WEEKS[week][2] else {})} for week in (1, 2)]
    for action in actions:
        season, entry, _ = apply_action(season, action, roll)
        assert entry["rules"] and set(entry["rules"]) <= set(per[action["do"]]), (action["do"], sorted(set(entry["rules"]) - set(per[action["do"]])))
