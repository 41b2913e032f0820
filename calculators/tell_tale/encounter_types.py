"""The Tell-Tale encounter tracker's shapes: a movement, a combatant, a whole encounter.

Types only (TypedDicts of the JSON-ready state), imported by the state's
check (encounter_state), the attacks of opportunity (encounter_chances) and
the actions, so none of them imports another for a type.
"""

from __future__ import annotations

from typing import Annotated, NotRequired, TypedDict

from ..history import Record


class Movement(TypedDict):
    """A combatant's last movement this turn: whom it came near, whom it flew over, who has struck it since."""

    near: list[str]
    over: list[str]
    struck: list[str]


class Combatant(TypedDict):
    """One combatant of an encounter, as check_combatant gives it: the STORED fields, LATER's, then
    DERIVED's (recomputed by derive, never read from outside)."""

    id: str
    name: str
    kind: str
    side: str
    owner: str | None
    token: bool
    planeswalker: bool
    power: int
    toughness: int
    toughness_now: int
    vitality: int
    max_vitality: int
    speed: int
    initiative: int | None
    keywords: list[str]
    counters: int
    poisoned: bool
    boost: int
    ability_used: bool
    status: str
    detained_by: str | None
    actions: int
    landed: bool
    moved: Movement | None
    hand: int | None  # cards in a player's hand, once the GM gives it (tt.ruling.hand-tracking)
    doubled: bool  # Double Strike's two rolls made this combat turn (a table playing them per turn: tt.ruling.double-strike)
    mount: bool  # an animal companion the GM keeps as a mount, not a familiar (tt.character.familiar-or-mount)
    ridden: bool  # a mount its owner rides: only then is it in the fight (tt.character.mount)
    ranged: bool | None  # its attack is ranged (True) or melee (False) since an equip said so; None: as the GM rules (tt.combat.melee-or-ranged)
    power_now: int
    speed_now: int
    health: str
    band: str
    toughness_full: int
    in_fight: bool
    attack_rolls: dict[str, str]  # situation: its attack roll in words, when Haste, poison or being tapped changes it
    chances: dict[str, list[str]]


class LogEntry(TypedDict):
    """One entry of the action log: its number, round, line and details, the rules it applied and the dice rolled;
    `gm` when it is the GM's own change, which the players' view leaves out."""

    n: int
    round: int
    text: str
    details: list[str]
    rules: list[str]
    dice: dict[str, str]
    gm: NotRequired[bool]


class Encounter(TypedDict):
    """A whole encounter (STATE_KEYS, then STATE_DERIVED), as check_encounter gives it and every step keeps it."""

    tracker: str
    version: int
    settings: dict[str, str]
    combatants: list[Combatant]
    next_id: int
    order_by: str
    order: list[str]
    phase: str
    round: int
    turn: int
    step: str | None
    log: Annotated[list[Record], LogEntry]
    log_start: int
    undo: list[Record]
    redo: NotRequired[list[Record]]  # the steps undone, the last undone last; a fight saved before redo has none
    foes_standing: int  # derived (STATE_DERIVED): how many on the foes' side are still in the fight
