"""Tell-Tale's calculators in the registry: parameters, labels, limits, examples.

What the CLI, the web forms and the docs read. The adapters are in
`reports`, the rules in `combat`, `characters` and `decks`.
"""

from __future__ import annotations

from ..types import YES_NO, Calculator, Param, Tracker
from .characters import STARTING_LEVEL, STAT_LABELS
from .combat import MODE_CHOICES, SITUATION_CHOICES
from .deck_tags import HYBRID, IDENTITY_MAX_LENGTH
from .decks import DECK_RULES, DECKLIST_MAX_LENGTH, EXEMPT_MAX_LENGTH
from .encounter_actions import EVERY_STEP, SPECS as ENCOUNTER_SPECS
from .encounter_state import Encounter, check_encounter, new_encounter
from .encounter import encounter_step, links as encounter_links, vocabulary as encounter_vocabulary
from .hands import MAX_MULLIGANS
from .party import PARTY_TRACKER
from .planeswalkers import MAX_LOYALTY_COST
from .poison import CURE_LABELS, MAX_TRACK_TURNS
from .reports import (
    resolve_attack_report, apply_damage_report, double_strike_report, first_strike_report, opposed_save_report,
    haste_speed_report,
    create_character_report, level_up_report, check_deck_report, trample_charge_report, poison_track_report,
    planeswalker_ability_report,
    mulligan_report, describe_encounter,
)
from .trample import MAX_ENEMIES

__all__ = ["CALCULATORS", "TRACKERS", "YES_NO", "MODE_CHOICES", "BOTH_CHOICES", "ATTACK_RULES", "MODE_PARAMS", "POWER"]

BOTH_CHOICES = (("cancel", "Cancel: one d20 (ruling)"), ("count", "More sources wins"))
ATTACK_RULES = (
    "tt.combat.attack-roll",
    "tt.combat.attack-table",
    "tt.combat.rounding",
    # what combat.roll_conditions may cite
    "tt.advantage.roll",
    "tt.advantage.conditions",
    "tt.keyword.haste",
    "tt.mechanics.deathtouch-disadvantage",
    "tt.ruling.poisoned-rolls",
    "tt.ruling.prone-attacker",
    "tt.ruling.advantage-and-disadvantage",
)

MODE_PARAMS = (
    Param("mode", "Roll", kind="choice", default="normal", choices=MODE_CHOICES,
          help="Advantage or disadvantage from the situation (surprise, cover)."),
    Param("haste", "Haste", kind="yes_no", default="no", help="Haste grants advantage."),
    Param("poisoned", "Poisoned by Deathtouch", kind="yes_no", default="no",
          help="A poisoned character has disadvantage."),
    Param("both", "When advantage and disadvantage both apply", kind="choice", default="cancel", choices=BOTH_CHOICES,
          help="Ruling tt.ruling.advantage-and-disadvantage.", ruling="tt.ruling.advantage-and-disadvantage"),
)
# An attack's roll: MODE_PARAMS with a surprise attack among the situations (tt.ruling.surprise-attacks); saves keep
# MODE_PARAMS.
ATTACK_MODE_PARAMS = (
    Param("mode", "Roll", kind="choice", default="normal", choices=SITUATION_CHOICES,
          help="Advantage or disadvantage from the situation (cover); a surprise attack has advantage, and a character with Vigilance cannot be attacked by surprise."),
    *MODE_PARAMS[1:],
)
# tt.ruling.double-strike and its alternative, a setting a table chooses (the encounter tracker follows it too)
DOUBLE_ROLLS = Param("double_rolls", "Double Strike's two rolls", kind="choice", default="attack",
                     choices=(("attack", "Two per attack action (ruling)"), ("turn", "Two per turn in all")),
                     help="Ruling tt.ruling.double-strike.", ruling="tt.ruling.double-strike")
TAPPED = Param("tapped", "Attacker is tapped", kind="yes_no", default="no",
               help="Kneeling, knocked down or detained: disadvantage (ruling tt.ruling.prone-attacker).")
POWER = Param("power", "Power", minimum=0, maximum=1000, help="The attacker's Power after counters and equipment.")
OVERFLOW = Param("overflow", "Damage beyond Toughness", kind="choice", default="carry",
                 choices=(("carry", "On to Vitality (ruling)"), ("stop", "Stops at Toughness 0")),
                 help="Ruling tt.ruling.damage-overflow.", ruling="tt.ruling.damage-overflow")
TIE = Param("tie", "A tie goes to", kind="choice", default="saver",
            choices=(("saver", "The saver (ruling)"), ("effect", "The effect")), ruling="tt.ruling.opposed-saves")

# Form inputs from the pages' worked examples (strings, as a form sends them).
_EXAMPLE_DICE = "6 5 4 3 6 6 2 1 5 5 5 5 1 1 1 1 3 4 5 6 2 2 3 3 6 6 6 6"
_TAGGED_DECK = ("4 Lightning Bolt [R]\n4 Lava Spike [R]\n4 Rift Bolt [R]\n4 Skewer the Critics [R]\n4 Light Up the Stage [R]\n"
                 "4 Boros Charm [RW]\n4 Lightning Helix [RW]\n4 Boros Reckoner [R/W]\n4 Goblin Guide [R]\n4 Ornithopter [C]\n"
                 "2 Mountain [land R]\n1 Sacred Foundry [land RW]")
_EXAMPLE_DECK = "4 Lightning Bolt\n4 Lava Spike\n4 Rift Bolt\n4 Skewer the Critics\n4 Light Up the Stage\n4 Searing Blaze\n4 Skullcrack\n4 Monastery Swiftspear\n4 Goblin Guide\n4 Eidolon of the Great Revel"

CALCULATORS = (
    Calculator(
        name="tell_tale.resolve_attack",
        title="Attack roll",
        summary="Roll a d20 (2d20 with advantage or disadvantage) on the attack table and read the damage.",
        params=(
            POWER,
            Param("d20", "Attack d20", kind="dice", help="One d20, or both d20s with advantage or disadvantage."),
            *ATTACK_MODE_PARAMS,
            TAPPED,
            Param("crit_d4", "Critical d4", kind="dice", help="Only on a 20: the d4 that multiplies the Power."),
        ),
        adapter=resolve_attack_report,
        outcomes=("miss", "half", "full", "critical"),
        examples=(
            # tt.combat.attack-table, one of each band with Power 5
            {"power": "5", "d20": "3"},
            {"power": "5", "d20": "10"},
            {"power": "5", "d20": "17"},
            {"power": "5", "d20": "20", "crit_d4": "3"},
            # tt.combat.rounding: Power 1 on half damage deals nothing
            {"power": "1", "d20": "10"},
            # tt.advantage.roll: 4 and 17 kept high, kept low
            {"power": "5", "d20": "4 17", "mode": "advantage"},
            {"power": "5", "d20": "4 17", "mode": "disadvantage"},
            {"power": "5", "d20": "20 9", "mode": "advantage", "crit_d4": "4"},
            # Haste and poison together cancel to one d20
            {"power": "4", "d20": "12", "haste": "yes", "poisoned": "yes"},
            # tt.ruling.prone-attacker: a knocked-down attacker keeps the lower die
            {"power": "4", "d20": "18 7", "tapped": "yes"},
            # tt.ruling.surprise-attacks: a surprise attack keeps the higher die
            {"power": "5", "d20": "8 16", "mode": "surprise"},
            {"power": "5", "seed": "2024"},
        ),
        rules=(*ATTACK_RULES, "tt.ruling.surprise-attacks"),
    ),
    Calculator(
        name="tell_tale.apply_damage",
        title="Damage to Toughness and Vitality",
        summary="Take damage off Toughness first, then Vitality; see who is unconscious, dead, or loses their summons.",
        params=(
            Param("toughness", "Toughness", minimum=0, maximum=1000),
            Param("vitality", "Vitality", minimum=-1000, maximum=1000),
            Param("damage", "Damage", minimum=0, maximum=10000),
            OVERFLOW,
        ),
        adapter=apply_damage_report,
        outcomes=("standing", "unconscious", "dead"),
        examples=(
            # tt.stats.damage-order: Toughness 3, Vitality 12
            {"toughness": "3", "vitality": "12", "damage": "2"},
            {"toughness": "3", "vitality": "12", "damage": "5"},
            {"toughness": "3", "vitality": "12", "damage": "15"},
            {"toughness": "3", "vitality": "12", "damage": "16"},
            {"toughness": "3", "vitality": "12", "damage": "5", "overflow": "stop"},
        ),
        rules=("tt.stats.damage-order", "tt.stats.toughness", "tt.stats.vitality", "tt.summoning.toughness-upkeep",
               "tt.ruling.damage-overflow"),
    ),
    Calculator(
        name="tell_tale.double_strike",
        title="Double Strike",
        summary="Two independent attack rolls for one attack; the damage adds up.",
        params=(
            POWER,
            Param("first_d20", "First attack d20", kind="dice"),
            Param("second_d20", "Second attack d20", kind="dice"),
            *ATTACK_MODE_PARAMS,
            TAPPED,
            Param("first_crit_d4", "First critical d4", kind="dice", help="Only if the first roll is a 20."),
            Param("second_crit_d4", "Second critical d4", kind="dice", help="Only if the second roll is a 20."),
            Param("which", "This attack action is", kind="choice", default="first",
                  choices=(("first", "The first this turn"), ("second", "A second one this turn"))),
            DOUBLE_ROLLS,
        ),
        adapter=double_strike_report,
        outcomes=("none", "one", "two", "spent"),
        examples=(
            # tt.ruling.double-strike, Power 4
            {"power": "4", "first_d20": "12", "second_d20": "20", "second_crit_d4": "2"},
            {"power": "4", "first_d20": "3", "second_d20": "16"},
            {"power": "4", "first_d20": "3", "second_d20": "2"},
            {"power": "4", "first_d20": "18 7", "second_d20": "3 15", "poisoned": "yes"},
            {"power": "4", "first_d20": "9", "second_d20": "15", "which": "second"},
            {"power": "4", "which": "second", "double_rolls": "turn"},
            {"power": "4", "first_d20": "12 17", "second_d20": "5 16", "mode": "surprise"},
        ),
        rules=("tt.keyword.double-strike", "tt.ruling.double-strike", "tt.combat.attack-table", "tt.combat.rounding",
               *ATTACK_RULES[3:], "tt.ruling.surprise-attacks"),
    ),
    Calculator(
        name="tell_tale.first_strike",
        title="First Strike against First Strike",
        summary="Two characters with First Strike meet: opposed attack rolls decide who deals damage.",
        params=(
            Param("first_power", "First character's Power", minimum=0, maximum=1000),
            Param("first_d20", "First character's d20", kind="dice", help="Two with advantage or disadvantage."),
            Param("first_mode", "First character's roll", kind="choice", default="normal", choices=MODE_CHOICES,
                  help="As for any attack: Haste, the situation; poison and being tapped give disadvantage."),
            Param("second_power", "Second character's Power", minimum=0, maximum=1000),
            Param("second_d20", "Second character's d20", kind="dice", help="Two with advantage or disadvantage."),
            Param("second_mode", "Second character's roll", kind="choice", default="normal", choices=MODE_CHOICES),
            Param("winner_damage", "The winner deals", kind="choice", default="full",
                  choices=(("full", "Its full Power (ruling)"), ("table", "Read on the attack table")),
                  help="Ruling tt.ruling.first-strike-tie.", ruling="tt.ruling.first-strike-tie"),
            Param("crit_d4", "Critical d4", kind="dice",
                  help="Only if the winner rolled a 20 and its damage is read on the table."),
        ),
        adapter=first_strike_report,
        outcomes=("first", "second", "tie"),
        examples=(
            # tt.ruling.first-strike-tie: Power 3 against Power 5
            {"first_power": "3", "first_d20": "16", "second_power": "5", "second_d20": "9"},
            {"first_power": "3", "first_d20": "4", "second_power": "5", "second_d20": "9"},
            {"first_power": "3", "first_d20": "11", "second_power": "5", "second_d20": "11"},
            {"first_power": "3", "first_d20": "4", "second_power": "5", "second_d20": "9", "winner_damage": "table"},
            {"first_power": "3", "first_d20": "20", "second_power": "5", "second_d20": "9", "winner_damage": "table",
             "crit_d4": "2"},
            {"first_power": "3", "first_d20": "4 16", "first_mode": "advantage", "second_power": "5",
             "second_d20": "12 9", "second_mode": "disadvantage"},
        ),
        rules=("tt.keyword.first-strike", "tt.ruling.first-strike-tie", "tt.combat.attack-table", "tt.advantage.roll"),
    ),
    Calculator(
        name="tell_tale.opposed_save",
        title="Opposed saving throw",
        summary="Exile, involuntary tapping or a Trample knock-down: the effect's d20 against the saver's d20.",
        params=(
            Param("effect_d20", "Effect's d20", kind="dice",
                  help="Rolled by the side casting the spell or making the attack."),
            Param("save_d20", "Saver's d20", kind="dice", help="One d20, or both with advantage or disadvantage."),
            *MODE_PARAMS,
            Param("vigilance", "Saver has Vigilance", kind="yes_no", default="no"),
            Param("against", "Saving against", kind="choice", default="tapping",
                  choices=(("knockdown", "Trample knockdown (reflex)"), ("tapping", "Forced tapping (reflex)"),
                           ("other", "Other, such as Exile"))),
            TIE,
        ),
        adapter=opposed_save_report,
        outcomes=("saved", "failed", "immune"),
        examples=(
            # tt.ruling.opposed-saves: the effect rolls 14
            {"effect_d20": "14", "save_d20": "9"},
            {"effect_d20": "14", "save_d20": "14"},
            {"effect_d20": "14", "save_d20": "14", "tie": "effect"},
            {"effect_d20": "14", "save_d20": "10", "vigilance": "yes"},
            {"effect_d20": "14", "save_d20": "10", "vigilance": "yes", "against": "knockdown"},
            {"effect_d20": "14", "save_d20": "3 15", "haste": "yes"},
            {"effect_d20": "12", "save_d20": "15", "against": "other"},
        ),
        rules=("tt.ruling.opposed-saves", "tt.keyword.vigilance", "tt.ruling.vigilance-knockdown", *ATTACK_RULES[3:]),
    ),
    Calculator(
        name="tell_tale.haste_speed",
        title="Speed with Haste",
        summary="Haste raises Speed by 50%.",
        params=(
            Param("speed", "Speed", minimum=0, maximum=1000),
            Param("rounding", "Round the half", kind="choice", default="down",
                  choices=(("down", "Down (ruling)"), ("up", "Up")), ruling="tt.ruling.haste-rounding"),
        ),
        adapter=haste_speed_report,
        outcomes=("hasted",),
        examples=(
            # tt.ruling.haste-rounding
            {"speed": "5"},
            {"speed": "6"},
            {"speed": "5", "rounding": "up"},
        ),
        rules=("tt.keyword.haste", "tt.ruling.haste-rounding", "tt.combat.rounding"),
    ),
    Calculator(
        name="tell_tale.create_character",
        title="Character stats",
        summary="Seven rolls of 4d6 and, if you like, a check of how you give them to the stats.",
        params=(
            Param("dice", "Stat dice (28 d6)", kind="dice",
                  help="28 d6, four per roll, in order; leave empty to roll."),
            Param("method", "4xD6 means", kind="choice", default="sum",
                  choices=(("sum", "Sum of four d6 (ruling)"), ("drop-lowest", "Four d6, drop the lowest")),
                  ruling="tt.ruling.four-d6"),
            Param("companion", "Animal companion", kind="yes_no", default="no"),
            Param("initiative", "Initiative", optional=True, minimum=0, maximum=24),
            Param("vitality", "PC Vitality", optional=True, minimum=0, maximum=24),
            Param("speed", "PC Speed", optional=True, minimum=0, maximum=24),
            Param("companion_vitality", "Companion Vitality", optional=True, minimum=0, maximum=24),
            Param("companion_speed", "Companion Speed", optional=True, minimum=0, maximum=24),
        ),
        adapter=create_character_report,
        outcomes=("rolled", "assigned"),
        examples=(
            # tt.character.stat-rolls and tt.character.companion-cost, the page's 28 dice
            {"dice": _EXAMPLE_DICE},
            {"dice": _EXAMPLE_DICE, "method": "drop-lowest"},
            {"dice": _EXAMPLE_DICE, "initiative": "15", "vitality": "24", "speed": "20"},
            {"dice": _EXAMPLE_DICE, "companion": "yes", "initiative": "15", "vitality": "24", "speed": "20",
             "companion_vitality": "18", "companion_speed": "18"},
            {"seed": "7"},
        ),
        rules=("tt.character.stat-rolls", "tt.ruling.four-d6", "tt.character.stat-assignment"),
    ),
    Calculator(
        name="tell_tale.level_up",
        title="Level up",
        summary="A land more, +1 to one stat of your choice, and regenerate.",
        params=(
            Param("level", "Current level", minimum=STARTING_LEVEL, maximum=1000),
            Param("initiative", "Initiative", minimum=0, maximum=1000),
            Param("vitality", "PC Vitality (full)", minimum=0, maximum=1000),
            Param("speed", "PC Speed", minimum=0, maximum=1000),
            Param("companion_vitality", "Companion Vitality (full)", optional=True, minimum=0, maximum=1000),
            Param("companion_speed", "Companion Speed", optional=True, minimum=0, maximum=1000),
            Param("stat", "Stat to raise", kind="choice", default="vitality", choices=tuple(STAT_LABELS.items())),
        ),
        adapter=level_up_report,
        outcomes=("level-up",),
        examples=(
            # tt.levels.level-up
            {"level": "3", "initiative": "15", "vitality": "18", "speed": "12", "stat": "vitality"},
            {"level": "4", "initiative": "15", "vitality": "18", "speed": "12", "companion_vitality": "10",
             "companion_speed": "9", "stat": "companion_speed"},
        ),
        rules=("tt.levels.level-up", "tt.levels.lands", "tt.keyword.regenerate"),
    ),
    Calculator(
        name="tell_tale.check_deck",
        title="Deck check",
        summary="40 to 100 cards, no more than 4 of a card, and what your tags say of colors, legends and lands.",
        params=(
            Param("decklist", "Decklist", kind="text", max_length=DECKLIST_MAX_LENGTH,
                  help=f"One card per line, like '4 Lightning Bolt'. Tag what you know at the line's end: colors [G], [WU], "
                       f"hybrid [W/U], colorless [C], [legendary], and [land] for the land stack ('3 Forest [land G]'). "
                       f"Up to {DECKLIST_MAX_LENGTH:,} characters."),
            Param("identity", "The PC's color identity", kind="text", optional=True, max_length=IDENTITY_MAX_LENGTH,
                  help=f"Color letters, like G, WU or WUB (C for colorless); left empty, colors are not checked. Up to {IDENTITY_MAX_LENGTH} characters."),
            Param("level", "The PC's level", optional=True, minimum=STARTING_LEVEL, maximum=1000,
                  help="Left empty, the lands are not counted against it."),
            Param("exempt", "Cards allowed past 4 copies", kind="text", optional=True, max_length=EXEMPT_MAX_LENGTH,
                  help=f"Comma-separated; none by the ruling tt.ruling.deck-limits. Up to {EXEMPT_MAX_LENGTH:,} characters."),
            Param("hybrid", "A hybrid card such as [W/U] needs", kind="choice", default="every", choices=HYBRID,
                  help="Ruling tt.ruling.hybrid-identity.", ruling="tt.ruling.hybrid-identity"),
        ),
        adapter=check_deck_report,
        outcomes=("legal", "illegal"),
        examples=(
            # tt.deck.size, tt.deck.copies, tt.ruling.deck-limits
            {"decklist": _EXAMPLE_DECK},
            {"decklist": "4 Lightning Bolt\n4 Shock\n4 Lava Spike\n28 Goblin Guide"},
            {"decklist": "4 Lightning Bolt\n4 Shock"},
            {"decklist": "30 Relentless Rats\n4 Thoughtseize\n4 Fatal Push\n4 Dark Ritual"},
            {"decklist": "30 Relentless Rats\n4 Thoughtseize\n4 Fatal Push\n4 Dark Ritual",
             "exempt": "Relentless Rats"},
            # tt.deck.color-identity, tt.deck.legendary, tt.deck.lands-match-level, tt.ruling.hybrid-identity
            {"decklist": _TAGGED_DECK, "identity": "RW", "level": "3"},
            {"decklist": _TAGGED_DECK + "\n1 Ajani Goldmane [legendary W]\n4 Llanowar Elves [G]\n1 Mountain [land R]",
             "identity": "R", "level": "3", "hybrid": "any"},
        ),
        rules=DECK_RULES,
    ),
    Calculator(
        name="tell_tale.trample_charge",
        title="Trample charge",
        summary="A charge in a straight line: one attack roll per enemy, a knock-down save after each hit.",
        params=(
            POWER,
            Param("enemies", "Enemies in the line", default=3, minimum=1, maximum=MAX_ENEMIES),
            Param("attack_d20", "Attack d20s", kind="dice",
                  help="One d20 per enemy, in the order of the line (two each with advantage or disadvantage)."),
            *ATTACK_MODE_PARAMS,
            TAPPED,
            Param("crit_d4", "Critical d4s", kind="dice", help="One d4 per critical hit (a kept 20), in order."),
            Param("effect_d20", "Knock-down d20s", kind="dice", help="The charger's d20s: one per hit, in order."),
            Param("save_d20", "Save d20s", kind="dice",
                  help="The enemies' d20s: one per hit (two each with advantage or disadvantage), in order."),
            Param("save_haste", "Enemies have Haste", kind="yes_no", default="no",
                  help="Advantage on the reflex save."),
            Param("save_poisoned", "Enemies are poisoned", kind="yes_no", default="no",
                  help="Disadvantage on the save."),
            Param("vigilance", "Enemies have Vigilance", kind="yes_no", default="no",
                  help="Never knocked down (they may also jump aside: leave them out of the line)."),
            TIE,
        ),
        adapter=trample_charge_report,
        outcomes=("clear", "hits", "some-down", "all-down"),
        examples=(
            # tt.ruling.trample-charge: Power 4 through three enemies
            {"power": "4", "enemies": "3", "attack_d20": "12 3 20", "crit_d4": "2", "effect_d20": "10 8",
             "save_d20": "5 15"},
            {"power": "4", "enemies": "2", "attack_d20": "3 5"},
            {"power": "4", "enemies": "2", "attack_d20": "16 9", "effect_d20": "6 4", "save_d20": "11 13"},
            {"power": "4", "enemies": "2", "attack_d20": "16 9", "effect_d20": "14 12", "save_d20": "9 3"},
            {"power": "4", "enemies": "2", "attack_d20": "16 9", "vigilance": "yes"},
            {"power": "5", "enemies": "2", "attack_d20": "4 17 9 2", "haste": "yes", "effect_d20": "13 7",
             "save_d20": "13 9", "tie": "effect"},
            {"power": "4", "enemies": "3", "seed": "16"},
        ),
        rules=("tt.keyword.trample", "tt.ruling.trample-charge", "tt.combat.attack-table", "tt.ruling.opposed-saves",
               "tt.keyword.vigilance",
               "tt.ruling.vigilance-knockdown", *ATTACK_RULES[3:], "tt.ruling.surprise-attacks"),
    ),
    Calculator(
        name="tell_tale.poison_track",
        title="Deathtouch poison track",
        summary="A Deathtouch hit's -1/-1 counters, then the poison's counter every turn until death or a cure.",
        params=(
            Param("power", "Power", minimum=0, maximum=1000),
            Param("toughness", "Toughness left", minimum=0, maximum=1000),
            Param("vitality", "Vitality", minimum=-1000, maximum=1000),
            Param("damage", "Deathtouch damage", minimum=1, maximum=1000,
                  help="The damage of the hit: that many -1/-1 counters."),
            Param("turns", "Turns to follow", default=5, minimum=1, maximum=MAX_TRACK_TURNS),
            Param("cure", "Cure", kind="choice", default="none", choices=tuple(CURE_LABELS.items())),
            Param("cure_turn", "Turn of the cure", default=1, minimum=0, maximum=MAX_TRACK_TURNS,
                  help="After that turn's upkeep counter; 0 is right after the hit."),
            Param("life", "Life gained or burn damage", optional=True, minimum=0, maximum=1000),
            Param("full_vitality", "Full Vitality", optional=True, minimum=0, maximum=1000,
                  help="What regeneration restores; empty: the Vitality above."),
            OVERFLOW,
        ),
        adapter=poison_track_report,
        outcomes=("poisoned", "cured", "unconscious", "dead"),
        examples=(
            # tt.ruling.poison-timing and tt.mechanics.deathtouch-counters: Power 3, Toughness 2, Vitality 5, hit for 3
            {"power": "3", "toughness": "2", "vitality": "5", "damage": "3", "turns": "2"},
            {"power": "3", "toughness": "2", "vitality": "5", "damage": "3", "turns": "6"},
            {"power": "3", "toughness": "2", "vitality": "5", "damage": "3", "turns": "4"},
            {"power": "3", "toughness": "2", "vitality": "5", "damage": "3", "turns": "6", "cure": "life",
             "cure_turn": "2", "life": "2"},
            {"power": "3", "toughness": "2", "vitality": "5", "damage": "3", "turns": "6", "cure": "regenerate",
             "cure_turn": "1", "full_vitality": "12"},
            {"power": "3", "toughness": "2", "vitality": "5", "damage": "3", "turns": "3", "cure": "burn",
             "cure_turn": "0", "life": "1"},
            {"power": "3", "toughness": "2", "vitality": "5", "damage": "3", "turns": "3", "overflow": "stop"},
        ),
        rules=("tt.keyword.deathtouch", "tt.ruling.poison-timing", "tt.ruling.deathtouch-damage",
               "tt.stats.damage-order",
               "tt.mechanics.deathtouch-cure", "tt.mechanics.deathtouch-counters", "tt.ruling.damage-overflow"),
    ),
    Calculator(
        name="tell_tale.planeswalker_ability",
        title="Planeswalker ability cost",
        summary="A loyalty cost of +X or -X: (X) mana, and Toughness +X or -X until your next turn.",
        params=(
            Param("cost", "Loyalty cost", minimum=-MAX_LOYALTY_COST, maximum=MAX_LOYALTY_COST,
                  help="As printed: +1, -3, 0."),
            Param("toughness", "Toughness left", minimum=0, maximum=1000),
            Param("vitality", "Vitality", minimum=-1000, maximum=1000),
            Param("full_toughness", "Full Toughness", optional=True, minimum=0, maximum=1000,
                  help="Caps what comes back at your next turn; empty: no cap."),
            Param("mana", "Mana available", optional=True, minimum=0, maximum=99, help="Empty: not checked."),
            Param("shortfall", "A minus cost beyond the Toughness left", kind="choice", default="refuse",
                  choices=(("refuse", "Refused (ruling)"), ("vitality", "Rest off Vitality")),
                  ruling="tt.ruling.planeswalker-toughness"),
        ),
        adapter=planeswalker_ability_report,
        outcomes=("raise", "lower", "free", "dispel", "unpaid"),
        examples=(
            # tt.planeswalker.ability-cost and tt.ruling.planeswalker-toughness: Toughness 5, Vitality 10
            {"cost": "2", "toughness": "5", "vitality": "10"},
            {"cost": "-3", "toughness": "5", "vitality": "10"},
            {"cost": "0", "toughness": "5", "vitality": "10"},
            {"cost": "-5", "toughness": "5", "vitality": "10"},
            {"cost": "-6", "toughness": "5", "vitality": "10"},
            {"cost": "-6", "toughness": "5", "vitality": "10", "shortfall": "vitality"},
            {"cost": "3", "toughness": "5", "vitality": "10", "mana": "2"},
        ),
        rules=("tt.planeswalker.abilities", "tt.planeswalker.ability-cost", "tt.ruling.planeswalker-toughness",
               "tt.summoning.toughness-upkeep"),
    ),
    Calculator(
        name="tell_tale.mulligan",
        title="Mulligans",
        summary="The hand after each mulligan (the first is free) and the chance it holds a card you want.",
        params=(
            Param("mulligans", "Mulligans taken", default=0, minimum=0, maximum=MAX_MULLIGANS),
            Param("deck", "Cards in the deck", default=40, minimum=7, maximum=1000,
                  help="Lands are a stack of their own and not counted."),
            Param("copies", "Copies of the card you want", default=4, minimum=0, maximum=1000),
            Param("rule", "Mulligans after the free one", kind="choice", default="smaller",
                  choices=(("smaller", "One card fewer (ruling)"), ("london", "Draw 7, bottom one")),
                  ruling="tt.ruling.mulligans"),
        ),
        adapter=mulligan_report,
        outcomes=("opening", "free", "reduced"),
        examples=(
            # tt.gameplay.mulligans and tt.ruling.mulligans: 4 copies in 40 cards
            {"mulligans": "0"},
            {"mulligans": "1"},
            {"mulligans": "2"},
            {"mulligans": "3", "rule": "london"},
            {"mulligans": "2", "deck": "60", "copies": "12"},
        ),
        rules=("tt.gameplay.opening-hand", "tt.gameplay.mulligans", "tt.ruling.mulligans", "tt.deck.land-stack"),
    ),
)

TRACKERS = (
    Tracker(
        name="tell_tale.encounter",
        title="Encounter",
        summary="A whole fight: combatants, Initiative, the five steps of each turn, attacks, saves, damage, poison and cures, with undo.",
        new=new_encounter,
        check=check_encounter,
        step=encounter_step,
        specs=ENCOUNTER_SPECS,
        step_rules=EVERY_STEP,
        describe=describe_encounter,
        vocabulary=encounter_vocabulary,
        links=encounter_links,
        state_type=Encounter,
    ),
    PARTY_TRACKER,  # the party between encounters (party.py)
)
