"""Each rule a calculator cites, checked by a case that names it.

The rules coverage page (rulebook/coverage.py) reads the rule IDs the tests
cite; tests/test_coverage.py fails when a rule a calculator cites has no test
citing it. The rules below had none: each case runs its calculator through
the registry, as a form or a link would, and checks that the answer cites the
rule and says what the rule gives. A case from a calculator's own example
names the example by its place (the browser and Pyodide tests replay the
same examples); a case of its own gives the fields.
"""

from __future__ import annotations

import pytest

from calculators.registry import get
from calculators.runner import run

# (rule, calculator, the example's place, its outcome, its headline)
FROM_EXAMPLES = [
    ("rpgdl.championship.winner", "rpgdl.season_tally", 7, "second-wins", 'The second player wins the game.'),
    ("rpgdl.decks.nom-pool-names", "rpgdl.check_nom_pool", 0, "legal", 'This Nom Pool is legal.'),
    ("rpgdl.decks.nom-pool-replace", "rpgdl.check_nom_pool", 0, "legal", 'This Nom Pool is legal.'),
    ("rpgdl.decks.nom-pool-size", "rpgdl.check_nom_pool", 0, "legal", 'This Nom Pool is legal.'),
    ("rpgdl.decks.season-deck-copies", "rpgdl.check_season_deck", 0, "legal", 'This Season Deck is legal.'),
    ("rpgdl.decks.season-deck-size", "rpgdl.check_season_deck", 0, "legal", 'This Season Deck is legal.'),
    ("rpgdl.ruling.nom-pool-places", "rpgdl.check_nom_pool", 0, "legal", 'This Nom Pool is legal.'),
    ("rpgdl.ruling.roll-off", "rpgdl.resolve_duel", 3, "sudden-death", 'The second duelist wins the Heavy duel after Sudden Death, 6 to 6, for 0 Successes.'),
    ("rpgdl.ruling.season-deck-contents", "rpgdl.check_season_deck", 0, "legal", 'This Season Deck is legal.'),
    ("rpgdl.ruling.season-tie", "rpgdl.season_tally", 0, "draw", 'The game is drawn.'),
    ("rpgdl.ruling.simultaneous-trainwrecks", "rpgdl.season_tally", 2, "first-trainwrecked", 'The first player reaches 3 Trainwrecks in week 3 and loses.'),
    ("rpgdl.ruling.trainwreck-gap", "rpgdl.resolve_duel", 2, "second", "The second duelist wins the Godlike duel, 8 to 7, for 1 Success. The loser's controller suffers a Trainwreck."),
    ("rpgdl.ruling.voter-slots", "rpgdl.vote_pool", 0, "votes", '10 votes this turn.'),
    ("rpgdl.season.winner", "rpgdl.season_tally", 0, "draw", 'The game is drawn.'),
    ("rpgdl.voters.generate", "rpgdl.vote_pool", 0, "votes", '10 votes this turn.'),
    ("rpgdl.voters.generic-weight", "rpgdl.vote_pool", 0, "votes", '10 votes this turn.'),
    ("rpgdl.weekend.discard-losers", "rpgdl.resolve_weekend", 0, "first", 'The first player takes the Weekend: Successes 2 to 1, Trainwrecks 0 to 1.'),
    ("rpgdl.weekend.order", "rpgdl.resolve_weekend", 0, "first", 'The first player takes the Weekend: Successes 2 to 1, Trainwrecks 0 to 1.'),
    ("rpgdl.weekend.return-winners", "rpgdl.resolve_weekend", 0, "first", 'The first player takes the Weekend: Successes 2 to 1, Trainwrecks 0 to 1.'),
    ("rpgdl.worth.modified", "rpgdl.resolve_duel", 0, "first", 'The first duelist wins the Heavy duel, 8 to 6, for 2 Successes.'),
    ("tal.multiple.mishap", "talislanta.multiple_actions", 0, "mishap", 'A Mishap on action 1 ends the round; 1 action not taken.'),
    ("tt.character.stat-assignment", "tell_tale.create_character", 2, "assigned", 'Totals 18, 15, 20, 4, 18, 10, 24: the assignment is valid.'),
    ("tt.character.stat-rolls", "tell_tale.create_character", 0, "rolled", 'Totals: 18, 15, 20, 4, 18, 10, 24.'),
    ("tt.combat.attack-roll", "tell_tale.resolve_attack", 0, "miss", 'Miss: 0 damage (kept d20 3, Power 5).'),
    ("tt.deck.land-stack", "tell_tale.mulligan", 0, "opening", 'No mulligan: a hand of 7 cards.'),
    ("tt.gameplay.mulligans", "tell_tale.mulligan", 0, "opening", 'No mulligan: a hand of 7 cards.'),
    ("tt.gameplay.opening-hand", "tell_tale.mulligan", 0, "opening", 'No mulligan: a hand of 7 cards.'),
    ("tt.keyword.double-strike", "tell_tale.double_strike", 0, "two", 'Double Strike: 2 + 8 = 10 damage.'),
    ("tt.keyword.first-strike", "tell_tale.first_strike", 0, "first", 'The first character strikes first for 3 damage; the other deals none.'),
    ("tt.keyword.regenerate", "tell_tale.level_up", 0, "level-up", 'Level 4: 4 lands, PC Vitality 19.'),
    ("tt.keyword.trample", "tell_tale.trample_charge", 0, "some-down", '2 of 3 hit, 1 knocked down: 10 damage in all.'),
    ("tt.keyword.vigilance", "tell_tale.opposed_save", 3, "saved", 'Saved: the effect fails (15 against 14).'),
    ("tt.levels.lands", "tell_tale.level_up", 0, "level-up", 'Level 4: 4 lands, PC Vitality 19.'),
    ("tt.levels.level-up", "tell_tale.level_up", 0, "level-up", 'Level 4: 4 lands, PC Vitality 19.'),
    ("tt.mechanics.deathtouch-counters", "tell_tale.poison_track", 3, "cured", 'After 2 turns: cured; Power 0, Toughness 0, Vitality 4, 3 counters.'),
    ("tt.mechanics.deathtouch-cure", "tell_tale.poison_track", 3, "cured", 'After 2 turns: cured; Power 0, Toughness 0, Vitality 4, 3 counters.'),
    ("tt.planeswalker.abilities", "tell_tale.planeswalker_ability", 0, "raise", 'Pay (2) mana; Toughness +2 (5 to 7) until your next turn.'),
    ("tt.planeswalker.ability-cost", "tell_tale.planeswalker_ability", 0, "raise", 'Pay (2) mana; Toughness +2 (5 to 7) until your next turn.'),
    ("tt.ruling.damage-overflow", "tell_tale.apply_damage", 1, "standing", 'Toughness 0, Vitality 10: still standing; summons and enchantments dispel.'),
    ("tt.ruling.deathtouch-damage", "tell_tale.poison_track", 0, "poisoned", 'After 2 turns: still poisoned; Power 0, Toughness 0, Vitality 2, 5 counters.'),
    ("tt.ruling.double-strike", "tell_tale.double_strike", 0, "two", 'Double Strike: 2 + 8 = 10 damage.'),
    ("tt.ruling.first-strike-tie", "tell_tale.first_strike", 0, "first", 'The first character strikes first for 3 damage; the other deals none.'),
    ("tt.ruling.four-d6", "tell_tale.create_character", 0, "rolled", 'Totals: 18, 15, 20, 4, 18, 10, 24.'),
    ("tt.ruling.mulligans", "tell_tale.mulligan", 0, "opening", 'No mulligan: a hand of 7 cards.'),
    ("tt.ruling.planeswalker-toughness", "tell_tale.planeswalker_ability", 0, "raise", 'Pay (2) mana; Toughness +2 (5 to 7) until your next turn.'),
    ("tt.ruling.trample-charge", "tell_tale.trample_charge", 0, "some-down", '2 of 3 hit, 1 knocked down: 10 damage in all.'),
    ("tt.stats.damage-order", "tell_tale.apply_damage", 0, "standing", 'Toughness 1, Vitality 12: still standing.'),
    ("tt.stats.toughness", "tell_tale.apply_damage", 0, "standing", 'Toughness 1, Vitality 12: still standing.'),
    ("tt.summoning.toughness-upkeep", "tell_tale.apply_damage", 1, "standing", 'Toughness 0, Vitality 10: still standing; summons and enchantments dispel.'),
]

# (rule, calculator, fields, outcome, words of the answer's steps that show the rule applied)
OWN_CASES = [
    ("tt.deck.size", "tell_tale.check_deck", {"decklist": "4 Lightning Bolt"}, "illegal", "The deck has 4 cards; it needs at least 40."),
    ("tt.deck.copies", "tell_tale.check_deck", {"decklist": "5 Lightning Bolt\n35 Mountain"}, "illegal", "5 copies of Lightning Bolt: no more than 4 identical cards."),
    ("tt.ruling.deck-limits", "tell_tale.check_deck", {"decklist": "4 Lightning Bolt"}, "illegal", "lands, the PC and the companion are not counted"),
    ("tt.deck.legendary", "tell_tale.check_deck", {"decklist": "1 Ajani Goldmane [legendary]"}, "illegal",
     "Ajani Goldmane is tagged [legendary]: the deck holds no legendary creature or planeswalker but the PC."),
    ("tt.deck.color-identity", "tell_tale.check_deck", {"decklist": "4 Llanowar Elves [G]", "identity": "W"}, "illegal",
     "Llanowar Elves is green, outside the PC's color identity (white)."),
    ("tt.deck.lands-match-level", "tell_tale.check_deck", {"decklist": "4 Forest [land G]", "level": "3"}, "illegal",
     "4 lands for a level 3 PC: a PC has as many lands as their level."),
    ("tt.ruling.hybrid-identity", "tell_tale.check_deck", {"decklist": "4 Boros Reckoner [R/W]", "identity": "R"}, "illegal",
     "a hybrid card needs each of its colors"),
    ("tal.ruling.opposed-difficulty", "talislanta.resolve_action", {"rating": "3", "difficulty": "-2", "opposing_rating": "4", "d20": "10"},
     "partial", "Modifier -3: d20 10 - 3 = 7."),
    ("tal.ruling.offset-negative", "talislanta.resolve_action", {"rating": "3", "prior_actions": "1", "offset": "-2", "d20": "10"},
     "partial", "offset by the attribute -2 to -5"),
    ("tal.ruling.offset-negative", "talislanta.resolve_action",
     {"rating": "3", "prior_actions": "1", "offset": "-2", "negative_offset": "worsen", "d20": "10"}, "partial", "offset by the attribute -2 to -7"),
]


@pytest.mark.parametrize("rule,name,place,outcome,headline", FROM_EXAMPLES, ids=[c[0] for c in FROM_EXAMPLES])
def test_a_calculator_example_applies_the_rule(rule, name, place, outcome, headline):
    answer = run(name, dict(get(name).examples[place]))
    assert rule in answer["rules"], (name, answer["rules"])
    assert (answer["outcome"], answer["headline"]) == (outcome, headline)


@pytest.mark.parametrize("rule,name,fields,outcome,words", OWN_CASES, ids=[c[0] for c in OWN_CASES])
def test_a_case_of_its_own_applies_the_rule(rule, name, fields, outcome, words):
    answer = run(name, fields)
    assert rule in answer["rules"], (name, answer["rules"])
    assert answer["outcome"] == outcome
    assert any(words in line for line in [answer["headline"], *answer["details"]]), answer["details"]
