"""Every Tell-Tale encounter action, declared once: its name, label, who acts, its target, its fields (kind, label,
choices) and its dice, its handler, the rules it applies and where its control sits.

`SPECS` is the dispatch table: encounter.encounter_step finds the action's declaration here, `check(action)` holds
the action to it (unknown and missing fields, the dice's shape and every choice are refused here, in words, so a
handler reads only what its declaration allows), and its handler does it. The page draws its forms from the
published declarations (encounter.vocabulary()["actions"]), the coverage page reads each one's rules, and the tests
derive their random actions and their browser driver from them (tests/support/encounter.py). Adding an action is a
declaration here, its handler, and its rule text.
"""

from __future__ import annotations

from typing import Any

from ..checks import Action, InputError, one_of, quote
from ..types import ActionSpec, Param, Pick
from .combat import SITUATION_CHOICES
from .encounter_campaign import add_party, next_encounter
from .encounter_effects import ability, cure, damage, detain, emblem, exile, extort, game, hand, life, tap
from .encounter_fight import attack, charge, first_strike_action, reach_strike
from .encounter_roster import add, another, edit, initiative, order, remove, settings
from .encounter_state import KINDS
from .encounter_turns import dismount, end, equip, mount, move, next_step, other_action, redo, show, start, undo
from .encounter_words import DEAD_CHOICES, OTHER_ACTIONS
from .poison import CURE_LABELS

# ---------------------------------------------------------------- the fields, once

def _who(key: str, label: str, pick: Pick, *, required: bool = True, blank: str = "") -> Param:
    return Param.of(key, "who", label, required=required and not blank, pick=pick, blank=blank)


MODE = Param.of("mode", "choice", "Situation", "Advantage from a surprise attack (never on Vigilance), disadvantage from cover; Haste and poison are added.",
             choices=SITUATION_CHOICES, refusal="The situation gives a normal roll, advantage, disadvantage or a surprise attack")
D20 = Param.of("d20", "d20s", "Attack d20", "Two with advantage or disadvantage; empty to roll.", dice=True, roll=("actor", "mode"))
CRIT = Param.of("crit_d4", "die", "Critical d4", "Only on a kept 20.", sides=4, dice=True)
STRIKES = (
    D20, CRIT,
    Param.of("second_d20", "d20s", "Second d20", "Double Strike's second roll.", dice=True, needs=("actor", ("double-strike",)),
          roll=("actor", "mode")),  # tt.keyword.double-strike
    Param.of("second_crit_d4", "die", "Second critical d4", "Only if the second roll keeps a 20.", sides=4, dice=True, needs=("actor", ("double-strike",))),
)
# The enemy's opposed d20, when the enemy coming in range strikes first too (tt.mechanics.first-strike-meeting).
TARGET_D20 = Param.of("target_d20", "d20s", "Enemy's d20", "It strikes first too: opposed rolls; two with advantage or disadvantage.", dice=True,
                   needs=("target", ("first-strike", "double-strike")), roll=("target", ""))
SAVE = (
    Param.of("effect_d20", "die", "Effect's d20", "Rolled by the side forcing it.", sides=20, dice=True),
    Param.of("save_d20", "d20s", "Saver's d20", "Two with advantage or disadvantage.", dice=True),
)
THROUGH = Param.of("through", "flag", "Pass the steps that ask nothing", form=False)
CURES = ("regenerate", "return", "burn")  # the tracker's cures; life gain is the life action


# ---------------------------------------------------------------- the rules they apply, in groups

# What every step applies whatever its action: each combatant's numbers derived again (advantage, Haste, poison,
# Power), the chances it opens, and the state checked again.
EVERY_STEP = (
    "tt.advantage.conditions", "tt.advantage.roll", "tt.keyword.defender", "tt.keyword.haste", "tt.keyword.reach", "tt.keyword.vigilance",
    "tt.mechanics.deathtouch-disadvantage", "tt.mechanics.first-strike-meeting", "tt.mechanics.unlisted", "tt.ruling.advantage-and-disadvantage",
    "tt.ruling.deathtouch-damage", "tt.ruling.double-strike", "tt.ruling.flying-reach", "tt.ruling.haste-rounding", "tt.ruling.opportunist-attacks",
    "tt.ruling.opportunity-movement", "tt.ruling.poisoned-rolls", "tt.ruling.prone-attacker", "tt.ruling.summon-turns", "tt.ruling.surprise-attacks",
    "tt.stats.power-minimum", "tt.stats.vitality", "tt.summoning.permanent",
)
UPKEEP = ("tt.stats.toughness-upkeep", "tt.summoning.toughness-upkeep")  # a Toughness that changed: a summon's upkeep
# Damage dealt (encounter_fight.hurt), and life gained or lost after it.
LIFE = ("tt.mechanics.deathtouch-counters", "tt.keyword.lifelink", "tt.ruling.vitality-above-full", "tt.mechanics.deathtouch-cure")
DAMAGE = ("tt.stats.damage-order", "tt.keyword.deathtouch", "tt.keyword.indestructible", "tt.keyword.infect", "tt.keyword.wither",
          "tt.mechanics.indestructible-bypass", "tt.stats.toughness", "tt.ruling.damage-overflow", *UPKEEP, "tt.mechanics.lifelink-order", *LIFE)
STRIKE = ("tt.combat.initiation", "tt.keyword.flying", "tt.combat.attack-table", "tt.keyword.double-strike", "tt.combat.attack-roll", "tt.combat.rounding",
          *DAMAGE)  # an attack roll on the table, and its damage
ON_TURN = ("tt.combat.initiation", "tt.combat.actions")  # an action of the turn's two (encounter_fight.on_turn)
SAVING = ("tt.ruling.opposed-saves", "tt.mechanics.vigilance-save")
TAPPING = ("tt.mechanics.involuntary-tapping", "tt.keyword.tap-untap")
INITIATIVE = ("tt.ruling.four-d6", "tt.combat.npc-initiative", "tt.ruling.npc-initiative-roll", "tt.ruling.initiative-ties", "tt.stats.initiative")
ADDING = ("tt.character.companion", "tt.summoning.toughness-upkeep", "tt.summoning.one-summon", "tt.summoning.tokens", *ON_TURN, "tt.summoning.timing",
          "tt.ruling.summon-timing", "tt.summoning.replacing", "tt.ruling.initiative-ties", "tt.stats.initiative", "tt.character.familiar", "tt.stats.tracking",
          "tt.character.familiar-or-mount", "tt.character.mount")
# A step of a turn reached (encounter_turns._enter): its rule, and what happens at it.
STEPPING = ("tt.combat.turn", "tt.combat.untap-step", "tt.combat.upkeep-step", "tt.combat.draw-step", "tt.combat.actions", "tt.combat.end-step",
            "tt.keyword.detain", "tt.planeswalker.ability-cost", "tt.ruling.planeswalker-toughness", *UPKEEP, "tt.ruling.poison-timing",
            "tt.stats.damage-order", "tt.keyword.deathtouch", "tt.ruling.hand-tracking", "tt.ruling.detainer-gone")
AFTER_COMBAT = ("tt.stats.toughness-regeneration", "tt.stats.vitality-no-regeneration", "tt.ruling.counters-after-combat")

# ---------------------------------------------------------------- the actions, in the menu's order

SPECS: tuple[ActionSpec, ...] = (
    ActionSpec("attack", "Attack", (_who("attacker", "Attacker", "actor"), _who("target", "Target", "others"), MODE, *STRIKES),
               handler=attack, rules=(*STRIKE, "tt.combat.actions", "tt.mechanics.flying-landing"), actor="attacker", target="target"),
    ActionSpec("move", "Move", (
        _who("id", "Who moves", "actor"),
        Param.of("near", "ids", "Comes in range of", "Those it comes within reach of: a First Striker among them may strike first.", pick="others"),
        Param.of("over", "ids", "Flies over", "A character with Reach it passes over may strike it.", pick="others", needs=("actor", ("flying",))),
    ), handler=move, rules=ON_TURN, actor="id"),
    ActionSpec("charge", "Trample charge through a line", (
        _who("attacker", "Charger", "actor"), MODE,
        Param.of("targets", "line", "Enemies in the line, in order (dice empty to roll)", required=True, pick="enemies", each=(
            Param.of("d20", "d20s", "Attack d20", roll=("actor", "mode")), Param.of("crit_d4", "die", "Critical d4", sides=4),
            Param.of("effect_d20", "die", "Knock-down d20 (charger)", sides=20), Param.of("save_d20", "d20s", "Save d20 (enemy)")),
            flag=Param.of("jump", "flag", "Jumps aside (Vigilance)")),
    ), handler=charge, rules=(*STRIKE, "tt.combat.actions", "tt.keyword.trample", "tt.ruling.trample-charge", "tt.ruling.opposed-saves",
                              "tt.keyword.tap-untap", "tt.ruling.vigilance-knockdown", "tt.mechanics.flying-landing"),
       needs=("trample",), actor="attacker"),
    ActionSpec("first_strike", "First Strike (an enemy comes in range)", (
        _who("attacker", "First Striker", "actor"), _who("target", "Enemy coming in range", "chances"), MODE, D20, TARGET_D20, *STRIKES[1:],
    ), handler=first_strike_action, rules=(*STRIKE, "tt.keyword.first-strike", "tt.ruling.first-strike-tie", "tt.keyword.fight", "tt.mechanics.flying-landing"),
       needs=("first-strike", "double-strike"), actor="attacker", target="target", chance=True),
    ActionSpec("reach", "Reach: a flyer passes over", (
        _who("attacker", "Reach character", "actor"), _who("target", "Flyer passing over", "chances"), MODE, *STRIKES,
    ), handler=reach_strike, rules=STRIKE, needs=("reach",), actor="attacker", target="target", chance=True),
    ActionSpec("act", "Kneel, get up, hide…", (
        _who("id", "Who", "actor"),
        Param.of("what", "choice", "Action", required=True, choices=tuple((k, menu) for k, (menu, _) in OTHER_ACTIONS.items()),
              refusal=f"The action is one of {', '.join(OTHER_ACTIONS)}"),
    ), handler=other_action, rules=(*ON_TURN, "tt.keyword.tap-untap", "tt.mechanics.tapping-actions", "tt.mechanics.voluntary-tapping"), actor="id"),
    # tt.combat.equipment-changes-range: ranged equipment on a melee character, or the other way round, changes its attack
    ActionSpec("equip", "Equip: melee or ranged attack", (
        _who("id", "Who", "actor"),
        Param.of("attack", "choice", "Its attack becomes", required=True, choices=(("ranged", "Ranged (a bow, a sling)"), ("melee", "Melee (a blade, claws)")),
                 refusal="An attack is ranged or melee"),
        Param.of("item", "text", "What is equipped", "A longbow, a sword. Empty: a weapon."),
    ), handler=equip, rules=(*ON_TURN, "tt.keyword.equip", "tt.combat.melee-or-ranged", "tt.combat.equipment-changes-range", "tt.ruling.equip-attack"),
       actor="id"),
    # tt.character.mount: a companion kept as a mount fights only while ridden; getting on or off is a rider's action in a fight
    ActionSpec("mount", "Mount (ride a companion)", (_who("rider", "Rider", "actor"),), handler=mount,
               rules=(*ON_TURN, "tt.character.mount", "tt.character.familiar-or-mount", "tt.ruling.mount-stats"), actor="rider"),
    ActionSpec("dismount", "Dismount", (_who("rider", "Rider", "anyone"),), handler=dismount,
               rules=(*ON_TURN, "tt.character.mount", "tt.character.familiar-or-mount", "tt.ruling.mount-stats"), target="rider"),
    ActionSpec("tap", "Force to its knees (save)", (_who("source", "Forced by", "actor", blank="(none)"), _who("target", "Target", "others"), *SAVE),
               handler=tap, rules=(*TAPPING, *SAVING, "tt.ruling.vigilance-knockdown"), actor="source", target="target"),
    ActionSpec("exile", "Exile (takes all actions)", (_who("caster", "Caster", "actor"), _who("target", "Target", "others"), *SAVE),
               handler=exile, rules=(*ON_TURN, "tt.keyword.exile", "tt.mechanics.exile-cost", *SAVING), actor="caster", target="target"),
    ActionSpec("detain", "Detain (opposed save)", (_who("source", "Detained by", "actor"), _who("target", "Target", "others"), *SAVE),
               handler=detain, rules=("tt.ruling.detain-save", "tt.combat.initiation", "tt.keyword.detain", *TAPPING, *SAVING), actor="source", target="target"),
    ActionSpec("damage", "Damage from a spell or effect", (
        _who("source", "Source", "anyone", blank="(none)"), _who("target", "Target", "anyone"),  # a dead source's effect still deals damage
        Param.of("amount", "number", "Damage", "1 or more.", required=True),
    ), handler=damage, rules=DAMAGE, actor="source", target="target"),
    ActionSpec("life", "Gain or lose life", (
        _who("target", "Who", "anyone"), Param.of("amount", "number", "Life gained or lost", "Below 0 to lose it.", required=True),
    ), handler=life, rules=(*LIFE, "tt.mechanics.life-redirect", "tt.mechanics.indestructible-bypass", *UPKEEP), target="target"),
    ActionSpec("cure", "Regenerate, return or burn", (
        _who("target", "Who", "anyone"),
        Param.of("how", "choice", "How", required=True, choices=tuple((k, CURE_LABELS[k]) for k in CURES),
              refusal="A cure here is regenerate, return or burn (life gain is the life action)"),
        Param.of("amount", "number", "Burn damage", "Only to burn: the damage the spell deals." ),
        # tt.keyword.return, tt.ruling.summon-return: a summon that is not a token goes back as a scroll, or onto the battlefield
        Param.of("summon_to", "choice", "A returned summon goes", "Only for a summon that is not a token; onto the battlefield, as if summoned anew.",
              choices=(("scroll", "As a summon scroll"), ("battlefield", "Onto the battlefield")),
              refusal="A returned summon goes back as a scroll or onto the battlefield"),
    ), handler=cure, rules=("tt.keyword.return", "tt.ruling.summon-return", "tt.mechanics.return-characters", "tt.keyword.regenerate", *LIFE, *UPKEEP),
       target="target"),
    ActionSpec("extort", "Extort", (_who("user", "Who", "actor"),), handler=extort, rules=("tt.combat.initiation", "tt.keyword.extort", *UPKEEP, *LIFE),
               needs=("extort",), actor="user"),
    ActionSpec("ability", "Planeswalker ability", (
        _who("user", "Planeswalker", "actor"), Param.of("cost", "text", "Loyalty cost", "As printed: +1, -3, 0.", required=True),
        Param.of("mana", "number", "Mana available", "Empty: not checked."),
    ), handler=ability, rules=("tt.planeswalker.abilities", "tt.ruling.planeswalker-toughness", *ON_TURN, "tt.planeswalker.ability-cost", *UPKEEP),
       needs=("planeswalker",), actor="user"),
    # tt.planeswalker.effects: an emblem the ability made, noted in the log; it ends with the encounter
    ActionSpec("emblem", "Planeswalker emblem (until the encounter ends)", (
        _who("user", "Planeswalker", "actor"), Param.of("text", "text", "What the emblem says", "As printed on the card.", required=True),
    ), handler=emblem, rules=("tt.planeswalker.effects",), needs=("planeswalker",), actor="user"),
    # tt.ruling.hand-tracking: the GM gives a player's hand size; the draw and end steps then count it
    ActionSpec("hand", "Cards in a player's hand", (
        _who("id", "Player", "anyone"), Param.of("cards", "number", "Cards in hand", "Empty to stop counting this hand."),
    ), handler=hand, rules=("tt.ruling.hand-tracking",), target="id"),
    # tt.keyword.win-or-lose-the-game, tt.ruling.win-or-lose: a card's effect; the game goes on
    ActionSpec("game", "Win or lose the game (a card)", (
        _who("who", "Whose card says it", "anyone"),
        Param.of("result", "choice", "The card says", required=True, choices=(("win", "You win the game"), ("lose", "You lose the game")),
              refusal="The card says win or lose"),
    ), handler=game, rules=("tt.keyword.win-or-lose-the-game", "tt.ruling.win-or-lose", "tt.ruling.vitality-above-full", "tt.keyword.regenerate"),
       target="who"),
    # The actions with controls of their own: the add form, a card's editor and buttons, the set-up, the bar.
    ActionSpec("add", "Add a combatant", (
        Param.of("name", "text", "Name", required=True), Param.of("kind", "choice", "Kind", required=True, choices=tuple(KINDS.items()), refusal="A combatant is a pc, npc, familiar or summon"), Param.of("power", "number", "Power", required=True),
        Param.of("toughness", "number", "Toughness", required=True), Param.of("vitality", "number", "Vitality", required=True),
        Param.of("side", "choice", "Side"), _who("owner", "Belongs to", "anyone", required=False), Param.of("token", "flag", "Token"),
        Param.of("planeswalker", "flag", "Planeswalker"), Param.of("speed", "number", "Speed"), Param.of("initiative", "number", "Initiative"),
        Param.of("keywords", "list", "Keywords"), Param.of("mount", "flag", "Kept as a mount", "A companion the GM keeps as a mount: it fights only while ridden."),
    ), handler=add, rules=ADDING, place="roster"),
    ActionSpec("another", "Another like it", (_who("id", "Like", "anyone"),), handler=another, rules=ADDING, place="roster"),
    ActionSpec("edit", "Change", (_who("id", "Who", "anyone"), Param.of("set", "object", "Changes", required=True)), handler=edit,
               rules=(*UPKEEP, "tt.ruling.initiative-ties", "tt.stats.initiative", "tt.stats.seating", "tt.stats.tracking"), place="roster"),
    ActionSpec("remove", "Remove", (_who("id", "Who", "anyone"),), handler=remove, rules=("tt.stats.tracking",), place="roster"),
    ActionSpec("settings", "The table's rulings", (Param.of("settings", "object", "Rulings", required=True),), handler=settings,
               rules=("tt.ruling.damage-overflow", "tt.ruling.first-strike-tie", "tt.ruling.opposed-saves", "tt.ruling.four-d6", "tt.ruling.planeswalker-toughness"),
               place="setup"),
    ActionSpec("initiative", "Initiative", (_who("id", "Who", "anyone", required=False), Param.of("value", "number", "Initiative"),
                                            Param.of("dice", "list", "4d6"), Param.of("all", "flag", "Every NPC")),
               handler=initiative, rules=(*INITIATIVE, "tt.stats.seating"), place="roster"),
    ActionSpec("order", "Turn order", (Param.of("by", "choice", "Turn order", choices=(("initiative", "By Initiative"), ("hand", "By hand, from whoever began")),
                                             refusal="The order is by initiative or by hand"),
                                       Param.of("ids", "list", "The order")),
               handler=order, rules=("tt.ruling.initiative-ties", "tt.stats.initiative", "tt.combat.npc-initiative"), place="setup"),
    ActionSpec("start", "Start the fight", (_who("first", "Who began the fight", "anyone", required=False), THROUGH), handler=start,
               rules=(*INITIATIVE, "tt.combat.initiation", *STEPPING), place="bar"),
    ActionSpec("next", "Next step", (THROUGH,), handler=next_step, rules=STEPPING, place="bar"),
    ActionSpec("end", "End the encounter", handler=end, rules=("tt.planeswalker.effects", *AFTER_COMBAT), place="bar"),
    # tt.ruling.next-encounter: once the fight is over, the same party's next set-up (encounter_campaign)
    ActionSpec("next_encounter", "Next encounter with this party", (
        Param.of("dead", "choice", "The dead and the exiled", choices=DEAD_CHOICES,
              refusal="The dead and the exiled either come along or are left behind (along or behind)"),
        # tt.ruling.next-encounter-party: the party kept on this device, as stored (party.py checks it)
        Param.of("party", "object", "The party kept on this device", form=False)),
        handler=next_encounter, rules=("tt.character.not-summoned", "tt.ruling.next-encounter-party", "tt.levels.level-up", *AFTER_COMBAT, "tt.ruling.next-encounter",
                                       "tt.ruling.planeswalker-toughness", "tt.ruling.dead-between-encounters", "tt.mechanics.return-characters"), place="bar"),
    ActionSpec("add_party", "Add the party", (Param.of("members", "list", "The party's members", required=True),),  # party.py
               handler=add_party, rules=("tt.ruling.initiative-ties", "tt.stats.initiative", *AFTER_COMBAT), place="setup"),
    ActionSpec("undo", "Undo", handler=undo, place="bar", records=False),
    ActionSpec("redo", "Redo", handler=redo, place="bar", records=False),
    ActionSpec("show", "Show", handler=show, place="shell", records=False),
)
ACTION_SPECS = {spec.name: spec for spec in SPECS}
# Who may take an action that not everyone can (derived from the declarations): the handlers refuse anyone else.
ACTION_NEEDS = {spec.name: spec.needs for spec in SPECS if spec.needs}


# ---------------------------------------------------------------- holding an action to its declaration


def _dice_keys(spec: ActionSpec, dice: object, keys: tuple[str, ...], where: str) -> None:
    if dice is not None and (not isinstance(dice, dict) or set(dice) - set(keys)):
        raise InputError(f"The dice of {spec.name}{where} are an object with {', '.join(keys)}.", "dice")


def check(action: Action) -> ActionSpec:
    """Refuse what `action` holds beyond its declaration: unknown or missing fields, dice not in its dice
    object, a choice not among its choices. Its values' ranges and the combatants named are the handler's."""
    spec = ACTION_SPECS[action["do"]]
    top = {f.key for f in spec.fields if not f.dice} | ({"dice"} if spec.rolls else set())
    top |= {f.flag.key for f in spec.fields if f.flag}
    for key in action:
        if key != "do" and key not in top:
            raise InputError(f"The action {spec.name} takes no {quote(key)}.", "action")
    for f in spec.fields:
        if f.required and action.get(f.key) is None:
            raise InputError(f"The action {spec.name} needs {quote(f.key)}.", "action")
        if f.kind == "choice" and f.choices and action.get(f.key) is not None:
            one_of(action[f.key], tuple(v for v, _ in f.choices), f.key, f.refusal)
        if f.kind == "line" and isinstance(action.get("dice"), list):
            for i, d in enumerate(action["dice"]):
                _dice_keys(spec, d, tuple(e.key for e in f.each), f" (enemy {i + 1})")
    if not any(f.kind == "line" for f in spec.fields):
        _dice_keys(spec, action.get("dice"), tuple(f.key for f in spec.fields if f.dice), "")
    return spec


def published() -> list[dict[str, Any]]:
    """The declarations as the page reads them (encounter.vocabulary()["actions"]): each `ActionSpec.public`, an
    attack roll's field with the situation to word it in when its action has no situation's field."""
    def usual(field: dict[str, Any]) -> dict[str, Any]:
        if "roll" in field:  # [whose roll, the situation's field, the situation when there is none]
            field["roll"] = [*field["roll"], SITUATION_CHOICES[0][0]]
        for e in field.get("each", []):
            usual(e)
        return field
    return [{**public, "fields": [usual(f) for f in public["fields"]]} for public in (s.public() for s in SPECS)]
