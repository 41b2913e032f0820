"""Attacks of opportunity, tied to the movement that opens them (tt.ruling.opportunity-movement).

A move records whom the mover came in range of ("near") and, for a flyer,
whom it flew over ("over"). A First Striker it came near may strike it
(tt.keyword.first-strike, tt.ruling.opportunist-attacks), a Reach character
it flew over may strike it (tt.ruling.flying-reach): each once for that
movement, outside the striker's own turn, against an enemy. The movement's
chances end with the turn it was made in, or when the mover moves again.

`refusal` says why one such strike is not open; the handlers raise it, and
`derive_chances` publishes, on each combatant, the strikes open to it now
(the page offers only those).
"""

from __future__ import annotations

from typing import Any

from ..checks import InputError, quote
from .encounter_types import Combatant, Encounter, Movement
from .encounter_words import GONE, ID, MAX_COMBATANTS, TAPPED
from .flying import can_attack, in_the_air, reach_opportunity


# The keywords that give each attack of opportunity (a move's "near" opens First Strike's, its "over" Reach's).
OPPORTUNISTS = {"first_strike": ("first-strike", "double-strike"), "reach": ("reach",)}
OPPORTUNITY_NAMES = {"first_strike": "First Strike", "reach": "Reach"}
MOVED_KEYS = ("near", "over", "struck")


def aloft(c: Combatant) -> bool:
    """A flyer in the air: not tapped, not landed (tt.ruling.flying-reach)."""
    return in_the_air("flying" in c["keywords"], c["status"] in TAPPED, c["landed"])


def can_reach(attacker: Combatant, target: Combatant) -> bool:
    return can_attack("flying" in attacker["keywords"], "reach" in attacker["keywords"], aloft(target))


def meeting(a: Combatant, b: Combatant) -> bool:
    """Two First Strikers meet: the one coming in range strikes first too, and can reach back (tt.mechanics.first-strike-meeting)."""
    return any(k in b["keywords"] for k in OPPORTUNISTS["first_strike"]) and "defender" not in b["keywords"] and can_reach(b, a)


def rolls_spent(s: Encounter, a: Combatant) -> tuple[str, str] | None:
    """Why Double Striker `a` may make no more attack rolls this combat turn, at a table playing Double Strike's two
    rolls per turn in all (tt.ruling.double-strike: setting double_rolls "turn"); None: it may, or the table plays two per attack."""
    if s["settings"]["double_rolls"] == "turn" and "double-strike" in a["keywords"] and a.get("doubled", False):
        return (f"{a['name']} has made Double Strike's two attack rolls this turn: your table plays two rolls per turn in all, "
                "whatever the actions (tt.ruling.double-strike)."), "attacker"
    return None


def refusal(s: Encounter, a: Combatant, b: Combatant, kind: str) -> tuple[str, str] | None:
    """Why `a` may not make the attack of opportunity `kind` on `b` now, as (sentence, field at fault); None: it may.
    Whether each can act or be struck at all is the handler's (present, able)."""
    an, bn = a["name"], b["name"]
    if kind == "reach":
        why = reach_opportunity("reach" in a["keywords"], "flying" in b["keywords"], b["status"] in TAPPED, "vigilance" in b["keywords"])
        if why:
            return f"No attack of opportunity for {an} on {bn}: {why} (tt.keyword.reach).", "attacker" if "reach" not in a["keywords"] else "target"
    elif not any(k in a["keywords"] for k in OPPORTUNISTS[kind]):
        return f"{an} has neither First Strike nor Double Strike.", "attacker"
    if "defender" in a["keywords"]:
        return f"{an} has Defender: it cannot attack (tt.keyword.defender).", "attacker"
    if kind == "first_strike":
        if not can_reach(a, b):
            return (f"{bn} is flying: only a character with Flying or Reach can attack it until it lands "
                    "or attacks something on the ground (tt.ruling.flying-reach)."), "target"
        if "vigilance" in b["keywords"] and not meeting(a, b):
            return f"{bn} has Vigilance: it provokes no attacks of opportunity (tt.keyword.vigilance).", "target"
    moved = b["moved"]
    if moved is None or a["id"] not in (moved["near"] if kind == "first_strike" else moved["over"]):
        came = "come in range of" if kind == "first_strike" else "flown over"
        return f"{bn} has not {came} {an} this turn: record {bn}'s move first (tt.ruling.opportunity-movement).", "target"
    if a["id"] in moved["struck"]:
        return f"{an} has struck {bn} once for this movement already (tt.ruling.opportunity-movement).", "target"
    if a["side"] == b["side"]:
        return f"{bn} is on {an}'s side: an attack of opportunity strikes an enemy (tt.ruling.opportunity-movement).", "target"
    if (a["owner"] or a["id"]) == s["order"][s["turn"]]:
        return f"It is {an}'s own turn: an attack of opportunity comes outside it (tt.ruling.opportunist-attacks).", "attacker"
    return rolls_spent(s, a)


def derive_chances(s: Encounter) -> None:
    """Each combatant's `chances`: the attacks of opportunity open to it now, as {action: [ids it may strike]}."""
    for a in s["combatants"]:
        a["chances"] = {}
    if s["phase"] != "combat" or not any(c["moved"] for c in s["combatants"]):
        return
    for a in s["combatants"]:
        if not a["in_fight"]:
            continue
        for kind in OPPORTUNISTS:
            ids = [b["id"] for b in s["combatants"] if b is not a and b["moved"] and b["status"] not in GONE
                   and (b["in_fight"] if kind == "first_strike" else b["vitality"] >= 0) and refusal(s, a, b, kind) is None]
            if ids:
                a["chances"][kind] = ids


def check_moved(raw: object, who: str, own: str) -> Movement | None:
    """A stored movement: None, or its three lists of other combatants' ids, each id once."""
    if raw is None:
        return None
    if not isinstance(raw, dict) or set(raw) != set(MOVED_KEYS):
        raise InputError(f"{who}: a movement lists near, over and struck; got {quote(raw)}.", "state")
    out: dict[str, Any] = {}
    for key in MOVED_KEYS:
        ids = raw[key]
        if (not isinstance(ids, list) or len(ids) > MAX_COMBATANTS or len(set(map(str, ids))) != len(ids)
                or not all(isinstance(i, str) and ID.fullmatch(i) and i != own for i in ids)):
            raise InputError(f"{who}: the movement's {key} lists the ids of other combatants, each once.", "state")
        out[key] = list(ids)
    if not set(out["struck"]) <= set(out["near"]) | set(out["over"]):
        raise InputError(f"{who}: only those it came near or flew over can have struck it.", "state")
    return Movement(near=out["near"], over=out["over"], struck=out["struck"])
