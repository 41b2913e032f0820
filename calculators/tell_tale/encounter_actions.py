"""Every Tell-Tale encounter action, declared once: its name, label, who acts, its
target, its fields (kind, label, choices) and its dice.

`check(action)` holds an incoming action to its declaration before its
handler runs (encounter.encounter_step): unknown and missing fields, the
dice's shape and every choice are refused here, in words, so a handler reads
only what its declaration allows. The page draws one generic form from the
published declarations (encounter.vocabulary()["actions"]), and the tests
derive their random actions and their browser driver from them
(tests/support/encounter.py). Adding an action is a declaration here, its
handler, and its rule text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from ..checks import Action, InputError, one_of, quote
from .combat import SITUATION_CHOICES
from .encounter_words import DEAD_CHOICES
from .encounter_state import KINDS
from .poison import CURE_LABELS

if TYPE_CHECKING:
    from .encounter_state import Combatant

# What a field holds:
#   who     a combatant's id                       choice  one of `choices`
#   number  a whole number (typed)                 text    free text (a loyalty cost, a name)
#   die     one die of `sides`                     d20s    one d20, or two with advantage or disadvantage
#   ids     a list of combatants' ids              line    a charge's line: ids in order, with each one's dice and flag
#   flag    true or false                          list    a list the handler checks (4d6, keywords, an order)
#   object  an object the handler checks (an edit's changes, the rulings)
Kind = Literal["who", "choice", "number", "text", "die", "d20s", "ids", "line", "flag", "list", "object"]
# Whom a `who` or `ids` field offers on the page: those who may take the action and can act now ("actor":
# Python's derived `in_fight`), anybody but the actor ("others"; the nearest living enemy first), the actor's
# enemies ("enemies"), anybody ("anyone"), or those the actor has a chance to strike now (derived `chances`).
Pick = Literal["", "actor", "others", "enemies", "anyone", "chances"]


@dataclass(frozen=True)
class Field:
    """One field of an action, as JSON names it and as the form asks for it."""

    key: str
    kind: Kind
    label: str = ""
    help: str = ""
    required: bool = False
    choices: tuple[tuple[str, str], ...] = ()  # choice: (value, label); the first is the default
    refusal: str = ""  # choice: the sentence that says what it may be
    sides: int = 0  # die: its sides
    pick: Pick = ""
    blank: str = ""  # who: what choosing nobody is called (the field is then left out)
    needs: tuple[str, tuple[str, ...]] | None = None  # asked only when the actor's or the target's keywords hold one of these
    dice: bool = False  # in the action's "dice" object (or, for a line, in each entry of its "dice" list)
    each: tuple[Field, ...] = ()  # line: each enemy's dice
    flag: Field | None = None  # line: a flag per enemy, sent as the list of ids it is set for
    form: bool = True  # the action form asks for it (False: the page sets it from elsewhere)
    # d20s: whose attack roll it is ("actor" or "target") and the field whose choice is its situation ("": none, the
    # usual one); the form says before the roll what that combatant's derived `attack_rolls` says of it
    roll: tuple[str, str] | None = None


@dataclass(frozen=True)
class ActionSpec:
    """One action: what the menu calls it, who takes it, what it asks."""

    name: str
    label: str
    fields: tuple[Field, ...] = ()
    needs: tuple[str, ...] = ()  # keywords one of which its taker needs ("planeswalker": a planeswalker PC)
    actor: str = ""  # the field naming who acts
    target: str = ""  # the field naming who is acted on
    menu: bool = True  # in the form's "What happens" menu; else the page has a control of its own (Add, Next...)
    chance: bool = False  # offered only to an actor with a chance for it now (Python's derived `chances`)

    @property
    def rolls(self) -> bool:
        """Whether it has dice the page can roll ("Roll for me")."""
        return any(f.dice or f.kind == "line" for f in self.fields)

    def field(self, key: str) -> Field:
        return next(f for f in self.fields if f.key == key)


# ---------------------------------------------------------------- the fields, once

def _who(key: str, label: str, pick: Pick, *, required: bool = True, blank: str = "") -> Field:
    return Field(key, "who", label, required=required and not blank, pick=pick, blank=blank)


MODE = Field("mode", "choice", "Situation", "Advantage from a surprise attack (never on Vigilance), disadvantage from cover; Haste and poison are added.",
             choices=SITUATION_CHOICES, refusal="The situation gives a normal roll, advantage, disadvantage or a surprise attack")
D20 = Field("d20", "d20s", "Attack d20", "Two with advantage or disadvantage; empty to roll.", dice=True, roll=("actor", "mode"))
CRIT = Field("crit_d4", "die", "Critical d4", "Only on a kept 20.", sides=4, dice=True)
STRIKES = (
    D20, CRIT,
    Field("second_d20", "d20s", "Second d20", "Double Strike's second roll.", dice=True, needs=("actor", ("double-strike",)),
          roll=("actor", "mode")),  # tt.keyword.double-strike
    Field("second_crit_d4", "die", "Second critical d4", "Only if the second roll keeps a 20.", sides=4, dice=True, needs=("actor", ("double-strike",))),
)
# The enemy's opposed d20, when the enemy coming in range strikes first too (tt.mechanics.first-strike-meeting).
TARGET_D20 = Field("target_d20", "d20s", "Enemy's d20", "It strikes first too: opposed rolls; two with advantage or disadvantage.", dice=True,
                   needs=("target", ("first-strike", "double-strike")), roll=("target", ""))
SAVE = (
    Field("effect_d20", "die", "Effect's d20", "Rolled by the side forcing it.", sides=20, dice=True),
    Field("save_d20", "d20s", "Saver's d20", "Two with advantage or disadvantage.", dice=True),
)
THROUGH = Field("through", "flag", "Pass the steps that ask nothing", form=False)
CURES = ("regenerate", "return", "burn")  # the tracker's cures; life gain is the life action
# tt.combat.actions: the character actions that change no number (moving is its own action: it opens
# attacks of opportunity), as the menu names each and as the log says it.
OTHER_ACTIONS = {
    "kneel": ("Kneel", "kneels"), "get-up": ("Get up", "gets up"),
    "pick-up": ("Pick up or equip", "picks something up or equips it"), "sorcery": ("Cast a sorcery", "casts a sorcery"),
    "hide": ("Hide", "hides"), "flee": ("Flee", "flees"), "other": ("Something else", "takes an action"),
}

# ---------------------------------------------------------------- the actions, in the menu's order

SPECS: tuple[ActionSpec, ...] = (
    ActionSpec("attack", "Attack", (_who("attacker", "Attacker", "actor"), _who("target", "Target", "others"), MODE, *STRIKES),
               actor="attacker", target="target"),
    ActionSpec("move", "Move", (
        _who("id", "Who moves", "actor"),
        Field("near", "ids", "Comes in range of", "Those it comes within reach of: a First Striker among them may strike first.", pick="others"),
        Field("over", "ids", "Flies over", "A character with Reach it passes over may strike it.", pick="others", needs=("actor", ("flying",))),
    ), actor="id"),
    ActionSpec("charge", "Trample charge through a line", (
        _who("attacker", "Charger", "actor"), MODE,
        Field("targets", "line", "Enemies in the line, in order (dice empty to roll)", required=True, pick="enemies", each=(
            Field("d20", "d20s", "Attack d20", roll=("actor", "mode")), Field("crit_d4", "die", "Critical d4", sides=4),
            Field("effect_d20", "die", "Knock-down d20 (charger)", sides=20), Field("save_d20", "d20s", "Save d20 (enemy)")),
            flag=Field("jump", "flag", "Jumps aside (Vigilance)")),
    ), needs=("trample",), actor="attacker"),  # tt.keyword.trample
    ActionSpec("first_strike", "First Strike (an enemy comes in range)", (
        _who("attacker", "First Striker", "actor"), _who("target", "Enemy coming in range", "chances"), MODE, D20, TARGET_D20, *STRIKES[1:],
    ), needs=("first-strike", "double-strike"), actor="attacker", target="target", chance=True),  # tt.keyword.first-strike, tt.ruling.opportunist-attacks
    ActionSpec("reach", "Reach: a flyer passes over", (
        _who("attacker", "Reach character", "actor"), _who("target", "Flyer passing over", "chances"), MODE, *STRIKES,
    ), needs=("reach",), actor="attacker", target="target", chance=True),  # tt.keyword.reach
    ActionSpec("act", "Kneel, get up, hide…", (
        _who("id", "Who", "actor"),
        Field("what", "choice", "Action", required=True, choices=tuple((k, menu) for k, (menu, _) in OTHER_ACTIONS.items()),
              refusal=f"The action is one of {', '.join(OTHER_ACTIONS)}"),
    ), actor="id"),
    ActionSpec("tap", "Force to its knees (save)", (_who("source", "Forced by", "actor", blank="(none)"), _who("target", "Target", "others"), *SAVE),
               actor="source", target="target"),
    ActionSpec("exile", "Exile (takes all actions)", (_who("caster", "Caster", "actor"), _who("target", "Target", "others"), *SAVE),
               actor="caster", target="target"),
    ActionSpec("detain", "Detain (opposed save)", (_who("source", "Detained by", "actor"), _who("target", "Target", "others"), *SAVE),
               actor="source", target="target"),
    ActionSpec("damage", "Damage from a spell or effect", (
        _who("source", "Source", "anyone", blank="(none)"), _who("target", "Target", "anyone"),  # a dead source's effect still deals damage
        Field("amount", "number", "Damage", "1 or more.", required=True),
    ), actor="source", target="target"),
    ActionSpec("life", "Gain or lose life", (
        _who("target", "Who", "anyone"), Field("amount", "number", "Life gained or lost", "Below 0 to lose it.", required=True),
    ), target="target"),
    ActionSpec("cure", "Regenerate, return or burn", (
        _who("target", "Who", "anyone"),
        Field("how", "choice", "How", required=True, choices=tuple((k, CURE_LABELS[k]) for k in CURES),
              refusal="A cure here is regenerate, return or burn (life gain is the life action)"),
        Field("amount", "number", "Burn damage", "Only to burn: the damage the spell deals." ),
        # tt.keyword.return, tt.ruling.summon-return: a summon that is not a token goes back as a scroll, or onto the battlefield
        Field("summon_to", "choice", "A returned summon goes", "Only for a summon that is not a token; onto the battlefield, as if summoned anew.",
              choices=(("scroll", "As a summon scroll"), ("battlefield", "Onto the battlefield")),
              refusal="A returned summon goes back as a scroll or onto the battlefield"),
    ), target="target"),
    ActionSpec("extort", "Extort", (_who("user", "Who", "actor"),), needs=("extort",), actor="user"),  # tt.keyword.extort
    ActionSpec("ability", "Planeswalker ability", (
        _who("user", "Planeswalker", "actor"), Field("cost", "text", "Loyalty cost", "As printed: +1, -3, 0.", required=True),
        Field("mana", "number", "Mana available", "Empty: not checked."),
    ), needs=("planeswalker",), actor="user"),  # tt.planeswalker.abilities
    # tt.ruling.hand-tracking: the GM gives a player's hand size; the draw and end steps then count it
    ActionSpec("hand", "Cards in a player's hand", (
        _who("id", "Player", "anyone"), Field("cards", "number", "Cards in hand", "Empty to stop counting this hand."),
    ), target="id"),
    # tt.keyword.win-or-lose-the-game, tt.ruling.win-or-lose: a card's effect; the game goes on
    ActionSpec("game", "Win or lose the game (a card)", (
        _who("who", "Whose card says it", "anyone"),
        Field("result", "choice", "The card says", required=True, choices=(("win", "You win the game"), ("lose", "You lose the game")),
              refusal="The card says win or lose"),
    ), target="who"),
    # The actions with controls of their own: the add form, a card's editor and buttons, the banner, the bar.
    ActionSpec("add", "Add a combatant", (
        Field("name", "text", "Name", required=True), Field("kind", "choice", "Kind", required=True, choices=tuple(KINDS.items()), refusal="A combatant is a pc, npc, familiar or summon"), Field("power", "number", "Power", required=True),
        Field("toughness", "number", "Toughness", required=True), Field("vitality", "number", "Vitality", required=True),
        Field("side", "choice", "Side"), _who("owner", "Belongs to", "anyone", required=False), Field("token", "flag", "Token"),
        Field("planeswalker", "flag", "Planeswalker"), Field("speed", "number", "Speed"), Field("initiative", "number", "Initiative"),
        Field("keywords", "list", "Keywords"),
    ), menu=False),
    ActionSpec("another", "Another like it", (_who("id", "Like", "anyone"),), menu=False),
    ActionSpec("edit", "Change", (_who("id", "Who", "anyone"), Field("set", "object", "Changes", required=True)), menu=False),
    ActionSpec("remove", "Remove", (_who("id", "Who", "anyone"),), menu=False),
    ActionSpec("settings", "The table's rulings", (Field("settings", "object", "Rulings", required=True),), menu=False),
    ActionSpec("initiative", "Initiative", (_who("id", "Who", "anyone", required=False), Field("value", "number", "Initiative"),
                                            Field("dice", "list", "4d6"), Field("all", "flag", "Every NPC")), menu=False),
    ActionSpec("order", "Turn order", (Field("by", "choice", "Turn order", choices=(("initiative", "By Initiative"), ("hand", "By hand, from whoever began")),
                                             refusal="The order is by initiative or by hand"),
                                       Field("ids", "list", "The order")), menu=False),
    ActionSpec("start", "Start the fight", (_who("first", "Who began the fight", "anyone", required=False), THROUGH), menu=False),
    ActionSpec("next", "Next step", (THROUGH,), menu=False),
    ActionSpec("end", "End the encounter", menu=False),
    # tt.ruling.next-encounter: once the fight is over, the same party's next set-up (encounter_campaign)
    ActionSpec("next_encounter", "Next encounter with this party", (
        Field("dead", "choice", "The dead and the exiled", choices=DEAD_CHOICES,
              refusal="The dead and the exiled either come along or are left behind (along or behind)"),
        # tt.ruling.next-encounter-party: the party kept on this device, as stored (party.py checks it)
        Field("party", "object", "The party kept on this device", form=False)), menu=False),
    ActionSpec("add_party", "Add the party", (Field("members", "list", "The party's members", required=True),), menu=False),  # party.py
    ActionSpec("undo", "Undo", menu=False),
    ActionSpec("redo", "Redo", menu=False),
    ActionSpec("show", "Show", menu=False),
)
ACTION_SPECS = {spec.name: spec for spec in SPECS}
# Who may take an action that not everyone can (derived from the declarations): the handlers refuse anyone else.
ACTION_NEEDS = {spec.name: spec.needs for spec in SPECS if spec.needs}


def may_take(c: Combatant, action: str) -> bool:
    """Whether `c` has what its declaration asks of whoever takes `action` (any action asking nothing: yes)."""
    needs = ACTION_NEEDS.get(action)
    return needs is None or any(c["planeswalker"] if k == "planeswalker" else k in c["keywords"] for k in needs)


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


def dice_of(action: Action) -> dict[str, Any]:
    """The action's dice object (checked by `check`), {} when it gives none."""
    return action.get("dice") or {}


def published() -> list[dict[str, Any]]:
    """The declarations as the page reads them (encounter.vocabulary()["actions"])."""
    def field(f: Field) -> dict[str, Any]:
        out: dict[str, Any] = {"key": f.key, "kind": f.kind, "label": f.label}
        for name in ("help", "required", "refusal", "sides", "pick", "blank", "dice"):
            if getattr(f, name):
                out[name] = getattr(f, name)
        if f.choices:
            out["choices"] = [list(c) for c in f.choices]
        if f.needs:
            out["needs"] = [f.needs[0], list(f.needs[1])]
        if f.each:
            out["each"] = [field(e) for e in f.each]
        if f.flag:
            out["flag"] = field(f.flag)
        if not f.form:
            out["form"] = False
        if f.roll:  # [whose roll, the situation's field, the situation when there is none]
            out["roll"] = [*f.roll, SITUATION_CHOICES[0][0]]
        return out
    return [{"name": s.name, "label": s.label, "menu": s.menu, "rolls": s.rolls, "needs": list(s.needs), "actor": s.actor, "target": s.target,
             "chance": s.chance, "fields": [field(f) for f in s.fields]} for s in SPECS]
