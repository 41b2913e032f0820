"""The encounter tracker between fights: the next encounter with the same party.

Tell-Tale is played as a campaign: Toughness comes back when a combat
encounter ends and Vitality does not (tt.stats.toughness-regeneration,
tt.stats.vitality-no-regeneration), -1/-1 counters and poison stay until a
cure (tt.ruling.counters-after-combat). `next_encounter` turns a fight that
is over into the set-up of the next one: the PCs and their animal companions
carry on as they stand, everyone else is gone (tt.ruling.next-encounter), and
the dead and the exiled come along or are left behind as the GM chooses
(tt.ruling.dead-between-encounters). It is one step like any other, so Undo
brings the old fight back.

The party kept on the device (party.py) is the one truth between fights:
when it was kept from this very fight's end, whatever the party page did to
it since (a level-up, a regeneration) is what the next encounter starts
from; when it was kept from another fight, this fight's end is used, and
the step says so by name (tt.ruling.next-encounter-party).
"""

from __future__ import annotations

from typing import Any, cast

from ..checks import Action, InputError
from .encounter_fight import Act
from .encounter_roster import sort_order
from .encounter_state import ACTIONS_PER_TURN, GONE, MAX_COMBATANTS, MAX_ID, Combatant, check_combatant
from .party import Companion, Member, check_members, check_party, fight_mark


def _names(cs: list[Combatant]) -> str:
    return ", ".join(c["name"] for c in cs)


def _out(c: Combatant) -> bool:
    """Dead (tt.stats.vitality) or exiled: out of the story until a Return (tt.character.not-summoned)."""
    return c["vitality"] < 0 or c["status"] in GONE


# What the party page may change in a member, as the log names it: a level-up's stats and its regeneration, and
# whether a companion is kept as a mount (tt.character.familiar-or-mount).
KEPT_STATS = ("power", "toughness", "vitality", "max_vitality", "speed", "initiative", "keywords", "counters", "poisoned", "hand", "mount")


def _as_kept(c: Combatant, m: Member | Companion) -> list[str]:
    """`c` given what the party holds for it (`m`): the numbers that changed, as the log says them."""
    changed = [k for k in KEPT_STATS if k in m and m[k] != c[k]]  # type: ignore[literal-required]
    for k in changed:
        c[k] = m[k]  # type: ignore[literal-required]
    c["ridden"] = c["ridden"] and c["mount"]  # a mount kept as a familiar since is nobody's ride
    if m["exiled"] != (c["status"] == "exiled"):
        c["status"] = "exiled" if m["exiled"] else "standing"
        changed.append("exiled")
    return changed


def _from_party(act: Act, party_raw: object, party: list[Combatant], over: str) -> None:
    """The carrying-on PCs and companions given what the party kept on this device holds for them, when it was kept
    from this fight (`over`: its mark); else the step names who the party page holds otherwise and why it is not used."""
    kept = check_party(party_raw)
    members = {m["name"].casefold(): m for m in kept["members"]}
    pairs: list[tuple[Combatant, Member | Companion]] = []
    for c in party:
        if c["kind"] == "pc" and (m := members.get(c["name"].casefold())):
            pairs.append((c, m))
            comp = next((f for f in party if f["kind"] == "familiar" and f["owner"] == c["id"]), None)
            if comp and m["companion"] and m["companion"]["name"].casefold() == comp["name"].casefold():
                pairs.append((comp, m["companion"]))
    if not pairs:
        return
    if kept["fight"] != over:
        differ = [c["name"] for c, held in pairs if _as_kept(cast("Combatant", dict(c)), held)]
        if differ:
            act.say(f"The party page holds {_names_of(differ)} otherwise, kept from another fight: this fight's end is used. "
                    "Keep this party from this fight, then level up, to start from the party page.")
            act.cite("tt.ruling.next-encounter-party")
        return
    levels = {m["name"]: m["level"] for m in kept["members"]}
    told = []
    for c, held in pairs:
        if _as_kept(c, held):
            told.append(f"{c['name']}" + (f" (level {levels[c['name']]})" if c["name"] in levels else "")
                        + f" Vitality {c['vitality']}/{c['max_vitality']}, Speed {c['speed']}")
    if told:
        act.say(f"As the party page has them since this fight ended: {'; '.join(told)}.")
        act.cite("tt.ruling.next-encounter-party", "tt.levels.level-up")


def _names_of(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def next_encounter(act: Act, action: Action) -> None:
    s = act.state
    if s["phase"] != "over":
        raise InputError("The next encounter starts once this one is over: end the encounter first.", "action")
    over = fight_mark(s["combatants"])
    dead = action.get("dead") or "along"  # one of DEAD_CHOICES (encounter_actions.check)
    pcs = [c for c in s["combatants"] if c["kind"] == "pc"]
    if dead == "behind":
        left = [c for c in pcs if _out(c)]
        pcs = [c for c in pcs if not _out(c)]
    else:
        left = []
    ids = {c["id"] for c in pcs}
    companions = [c for c in s["combatants"] if c["kind"] == "familiar" and c["owner"] in ids]
    if dead == "behind":  # a PC left behind takes its companion along; a companion dead or exiled stays behind alone
        gone_pcs = {c["id"] for c in left}
        left += [c for c in s["combatants"] if c["kind"] == "familiar" and c["owner"] in gone_pcs] + [c for c in companions if _out(c)]
        companions = [c for c in companions if not _out(c)]
    if not pcs:
        raise InputError("There is no PC to carry on: add the party in a new encounter." if dead == "along" or not left
                         else "Every PC is dead or exiled: let the dead come along to be returned, or start a new encounter.", "dead")
    party = pcs + companions
    kept = {c["id"] for c in party}
    behind = {c["id"] for c in left}
    foes = [c for c in s["combatants"] if c["id"] not in kept and c["id"] not in behind and c["kind"] != "summon"]  # NPCs and theirs
    summons = [c for c in s["combatants"] if c["kind"] == "summon"]
    if action.get("party") is not None:
        try:
            _from_party(act, action["party"], party, over)
        except InputError as err:
            raise InputError(f"The party kept on this device cannot be read: {err}", "party") from None
    restored = [c for c in party if c["toughness_now"] != c["toughness"]]
    for c in party:
        c["toughness_now"], c["boost"], c["ability_used"] = c["toughness"], 0, False
        c["actions"], c["landed"], c["moved"] = ACTIONS_PER_TURN, False, None
        if c["status"] not in GONE:
            c["status"], c["detained_by"] = "standing", None
    s["combatants"] = [c for c in s["combatants"] if c["id"] in kept]
    s["order"] = [i for i in s["order"] if i in kept]
    s["phase"], s["round"], s["turn"], s["step"] = "setup", 0, 0, None

    act.say("Toughness in full" + (f" (restored: {_names(restored)})" if restored else "") + ": it comes back when an encounter ends.")
    act.cite("tt.stats.toughness-regeneration")
    act.say("Vitality as it stood: " + ", ".join(f"{c['name']} {c['vitality']}/{c['max_vitality']}" for c in party) + ".")
    act.cite("tt.stats.vitality-no-regeneration")
    marked = [f"{c['name']} {c['counters']} counter{'s' if c['counters'] != 1 else ''}" + (", poisoned" if c["poisoned"] else "")
              for c in party if c["counters"] or c["poisoned"]]
    if marked:
        act.say(f"-1/-1 counters and poison stay until cured: {'; '.join(marked)}.")
        act.cite("tt.ruling.counters-after-combat")
    gone = ([f"the NPCs and theirs ({_names(foes)})"] if foes else []) + ([f"the summons ({_names(summons)})"] if summons else [])
    if gone:
        act.say(f"Gone with the fight: {' and '.join(gone)}.")
    act.say("Everyone starts the set-up standing, with 2 actions; a planeswalker's Toughness change from its ability has ended.")
    act.cite("tt.ruling.next-encounter", "tt.ruling.planeswalker-toughness")
    out = [c for c in party if _out(c)]
    if out:
        act.say(f"Dead or exiled, come along to be returned: {_names(out)}.")
    if left:
        act.say(f"Left behind, dead or exiled: {_names(left)}.")
    if out or left or dead == "behind":
        act.cite("tt.ruling.dead-between-encounters", "tt.mechanics.return-characters")
    act.outcome = "next-encounter"
    act.headline = f"The next encounter: {_names(party)} carry on."


def _combatant(s: dict[str, Any], m: Member | Companion, kind: str, owner: str | None) -> dict[str, Any]:
    """A party member as the set-up's combatant: Toughness full (the party is kept between fights), standing unless exiled."""
    return {"id": f"c{s['next_id']}", "name": m["name"], "kind": kind, "side": "party", "owner": owner, "token": False,
            "planeswalker": bool(m.get("planeswalker")), "power": m["power"], "toughness": m["toughness"], "toughness_now": m["toughness"],
            "vitality": m["vitality"], "max_vitality": m["max_vitality"], "speed": m["speed"], "initiative": m.get("initiative"),
            "keywords": list(m["keywords"]), "counters": m["counters"], "poisoned": m["poisoned"], "boost": 0, "ability_used": False,
            "status": "exiled" if m["exiled"] else "standing", "detained_by": None, "actions": ACTIONS_PER_TURN, "landed": False, "moved": None,
            "hand": m.get("hand") if kind == "pc" else None, "mount": bool(m.get("mount"))}


def add_party(act: Act, action: Action) -> None:
    """The party kept on the device (party.py) joins the set-up: each PC and its companion as the party has them."""
    s = act.state
    if s["phase"] != "setup":
        raise InputError("The party joins while the fight is being set up: start a new encounter, or go on to the next one first.", "members")
    members = check_members(action["members"])
    if not members:
        raise InputError("The party has nobody in it yet: keep a party from an encounter first.", "members")
    here = {c["name"].casefold() for c in s["combatants"]}
    joining = [m for m in members if m["name"].casefold() not in here]
    if not joining:
        raise InputError("Everyone in the party is in this encounter already.", "members")
    if len(s["combatants"]) + sum(1 + bool(m["companion"]) for m in joining) > MAX_COMBATANTS:
        raise InputError(f"An encounter holds at most {MAX_COMBATANTS} combatants: the party does not fit in this one.", "members")
    for m in joining:
        for kind, who, owner in (("pc", m, None), ("familiar", m["companion"], f"c{s['next_id']}")):
            if who is None:
                continue
            if s["next_id"] > MAX_ID:
                raise InputError("This encounter has used up its ids: start a new one.", "members")
            s["combatants"].append(check_combatant(_combatant(dict(s), who, kind, owner), len(s["combatants"]) + 1, s["settings"]))
            if kind == "pc":
                s["order"].append(f"c{s['next_id']}")
            s["next_id"] += 1
    if s["order_by"] == "initiative":
        sort_order(act)
    act.say("As the party keeps them: " + "; ".join(
        f"{c['name']} Vitality {c['vitality']}/{c['max_vitality']}" + (f", {c['counters']} counters" if c["counters"] else "") + (", poisoned" if c["poisoned"] else "")
        for c in s["combatants"][-sum(1 + bool(m["companion"]) for m in joining):]) + "; Toughness full.")
    act.cite("tt.stats.vitality-no-regeneration", "tt.ruling.counters-after-combat", "tt.stats.toughness-regeneration")
    if len(joining) < len(members):
        act.say(f"In this encounter already: {', '.join(m['name'] for m in members if m not in joining)}.")
    act.outcome = "party"
    act.headline = f"The party joins the encounter: {', '.join(m['name'] + (' with ' + m['companion']['name'] if m['companion'] else '') for m in joining)}."
