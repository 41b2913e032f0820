"""The Tell-Tale encounter tracker's words and numbers: kinds, sides, keywords,
statuses, steps, the table's rulings, every rule it can cite, and its limits.

Plain data with no imports of the tracker's own: the state's check
(encounter_state), the action declarations (encounter_actions) and the
attacks of opportunity (encounter_chances) all read it.
"""

from __future__ import annotations

import re

# ---------------------------------------------------------------- rule data

KINDS = {"pc": "PC", "npc": "NPC", "familiar": "familiar", "summon": "summon"}
HOLDERS = ("pc", "npc")  # have turns of their own; familiars and summons act in their owner's (tt.ruling.summon-turns)
SIDES = {"party": "the party", "foes": "the foes"}
USUAL_SIDES = {"pc": "party", "npc": "foes"}  # an added PC's or NPC's side when none is given; a familiar or summon takes its owner's
# Keywords with an effect on the tracked numbers, rolls or status (docs/tell-tale/keywords.md).
KEYWORDS = {
    "first-strike": "First Strike",
    "double-strike": "Double Strike",
    "trample": "Trample",
    "vigilance": "Vigilance",
    "haste": "Haste",
    "deathtouch": "Deathtouch",
    "infect": "Infect",
    "wither": "Wither",
    "lifelink": "Lifelink",
    "indestructible": "Indestructible",
    "defender": "Defender",
    "extort": "Extort",
    "flying": "Flying",
    "reach": "Reach",
}
STATUSES = {
    "standing": "standing",
    "kneeling": "kneeling (tapped)",
    "knocked-down": "knocked down (tapped)",
    "detained": "detained (tapped)",
    "exiled": "exiled",
    "dispelled": "dispelled",
}
TAPPED = ("kneeling", "knocked-down", "detained")
GONE = ("exiled", "dispelled")
STEPS = ("untap", "upkeep", "draw", "actions", "end")
# The steps that ask nothing of the tracker: what they do happens on its own
# (untapping, Detain's end, a poison counter), and the draw and the discard
# are counted at the table (the tracker keeps no hands). Next with "through"
# passes them, saying what each did.
NOTHING_TO_DECIDE = ("untap", "upkeep", "draw", "end")
STEP_LABELS = {"untap": "1. Untap step", "upkeep": "2. Upkeep step", "draw": "3. Draw step", "actions": "4. Character actions", "end": "5. End step"}
STEP_RULES = {"untap": "tt.combat.untap-step", "upkeep": "tt.combat.upkeep-step", "draw": "tt.combat.draw-step", "actions": "tt.combat.actions", "end": "tt.combat.end-step"}
PHASES = ("setup", "combat", "over")
ORDER_BY = ("initiative", "hand")
ACTIONS_PER_TURN = 2  # tt.combat.actions
# The d20s each roll mode takes (tt.advantage.roll), as the action form says them before an attack (encounter_state.attack_rolls).
MODE_DICE = {"normal": "One d20.", "advantage": "Two d20s; the higher counts.", "disadvantage": "Two d20s; the lower counts."}
HAND_LIMIT = 7  # tt.combat.draw-step, tt.combat.end-step: a player's maximum hand size (the GM has none)
MAX_HAND = 99  # cards a tracked hand may hold (tt.ruling.hand-tracking): a limit of the page
# The GM's own changes: their log entries are marked "gm" and the players' view does not show them (their
# headlines name a foe's numbers: "Ogre: Vitality 14 to 9", "Ogre's Initiative is 12").
GM_ONLY = ("edit", "settings", "initiative")
# The table's house rulings the tracker follows (the forms' Param.ruling names).
SETTINGS = {
    "both": ("cancel", "count"),  # tt.ruling.advantage-and-disadvantage
    "overflow": ("carry", "stop"),  # tt.ruling.damage-overflow
    "winner_damage": ("full", "table"),  # tt.ruling.first-strike-tie
    "tie": ("saver", "effect"),  # tt.ruling.opposed-saves
    "rounding": ("down", "up"),  # tt.ruling.haste-rounding
    "method": ("sum", "drop-lowest"),  # tt.ruling.four-d6 (an NPC's rolled Initiative)
    "shortfall": ("refuse", "vitality"),  # tt.ruling.planeswalker-toughness
    "double_rolls": ("attack", "turn"),  # tt.ruling.double-strike: two rolls per attack action, or two per combat turn in all
}
DEFAULT_SETTINGS = {name: choices[0] for name, choices in SETTINGS.items()}
LATER_SETTINGS = ("double_rolls",)  # settings added since fights were first saved: one saved without it reads the ruling
# The next encounter with the party (encounter_campaign): the dead (Vitality below 0) and the exiled
# come along or are left behind (tt.ruling.dead-between-encounters).
DEAD_CHOICES = (("along", "Come along, to be returned"), ("behind", "Are left behind"))


# Every rule the tracker can cite (its log entries are checked against these).
RULES = tuple(dict.fromkeys((
    "tt.combat.initiation", "tt.combat.npc-initiative", "tt.stats.initiative", "tt.stats.seating", "tt.ruling.initiative-ties",
    "tt.ruling.npc-initiative-roll", "tt.ruling.four-d6", "tt.combat.turn", *STEP_RULES.values(), "tt.ruling.summon-turns",
    "tt.character.familiar", "tt.character.familiar-or-mount", "tt.character.mount", "tt.ruling.mount-stats", "tt.stats.tracking",
    "tt.keyword.equip", "tt.combat.melee-or-ranged", "tt.combat.equipment-changes-range", "tt.ruling.equip-attack", "tt.combat.attack-roll", "tt.combat.attack-table", "tt.combat.rounding",
    "tt.advantage.roll", "tt.advantage.conditions", "tt.ruling.prone-attacker", "tt.ruling.advantage-and-disadvantage",
    "tt.stats.damage-order", "tt.stats.toughness", "tt.stats.vitality", "tt.ruling.damage-overflow", "tt.stats.power-minimum",
    "tt.stats.toughness-upkeep", "tt.summoning.toughness-upkeep", "tt.summoning.one-summon", "tt.summoning.replacing",
    "tt.summoning.tokens", "tt.summoning.permanent", "tt.summoning.timing", "tt.ruling.summon-timing", "tt.stats.toughness-regeneration", "tt.ruling.counters-after-combat",
    "tt.ruling.double-strike", "tt.ruling.surprise-attacks", "tt.ruling.win-or-lose", "tt.ruling.summon-return", "tt.planeswalker.effects", "tt.ruling.hand-tracking", "tt.keyword.win-or-lose-the-game", "tt.mechanics.first-strike-meeting", "tt.ruling.first-strike-tie", "tt.ruling.opportunist-attacks",
    "tt.ruling.trample-charge", "tt.ruling.opposed-saves", "tt.ruling.vigilance-knockdown", "tt.mechanics.vigilance-save",
    "tt.mechanics.involuntary-tapping", "tt.mechanics.voluntary-tapping", "tt.mechanics.tapping-actions",
    "tt.mechanics.exile-cost", "tt.mechanics.indestructible-bypass", "tt.mechanics.deathtouch-disadvantage",
    "tt.ruling.poisoned-rolls", "tt.ruling.poison-timing", "tt.ruling.deathtouch-damage", "tt.mechanics.deathtouch-cure",
    "tt.mechanics.deathtouch-counters", "tt.mechanics.life-redirect", "tt.mechanics.lifelink-order", "tt.ruling.vitality-above-full",
    "tt.mechanics.return-characters", "tt.planeswalker.abilities", "tt.planeswalker.ability-cost", "tt.ruling.planeswalker-toughness",
    "tt.ruling.haste-rounding", "tt.ruling.detain-save", "tt.ruling.detainer-gone", "tt.ruling.opportunity-movement", "tt.ruling.flying-reach", "tt.mechanics.flying-landing", "tt.mechanics.unlisted", "tt.stats.vitality-no-regeneration", "tt.keyword.fight",
    "tt.ruling.next-encounter", "tt.ruling.dead-between-encounters", "tt.ruling.next-encounter-party", "tt.levels.level-up",  # encounter_campaign
    *(f"tt.keyword.{k}" for k in (*KEYWORDS, "tap-untap", "regenerate", "return", "exile", "detain")),
)))

# ---------------------------------------------------------------- limits

MAX_COMBATANTS = 24
MAX_STAT = 999  # Power, Toughness, Speed, Initiative, counters; Vitality from -999 to 999
MAX_ROUND = 999
MAX_ID = 9999
LOG_CAP = 150  # entries kept; older ones are counted in log_start
UNDO_CAP = 30  # actions that can be undone
MAX_TEXT = 400  # characters of one log line
MAX_DETAILS = 60
STATE_BUDGET = 150_000  # characters of compact JSON (as the page keeps it); past it the oldest undo records go
ID = re.compile(r"c[1-9][0-9]{0,3}")
RULE_ID = re.compile(r"[a-z0-9.-]{1,80}")
# tt.combat.actions: the character actions that change no number (moving is its own action: it opens
# attacks of opportunity), as the menu names each and as the log says it.
OTHER_ACTIONS = {
    "kneel": ("Kneel", "kneels"), "get-up": ("Get up", "gets up"),
    "pick-up": ("Pick up or equip", "picks something up or equips it"), "sorcery": ("Cast a sorcery", "casts a sorcery"),
    "hide": ("Hide", "hides"), "flee": ("Flee", "flees"), "other": ("Something else", "takes an action"),
}
