"""The encounter tracker's fighting: attacks, First Strike, Double Strike and
Trample, and the damage, counters and life gain they bring.

Every roll is made by the same functions as the forms (`combat`,
`trample`, `poison`, `planeswalkers`), on the numbers the state holds, so
the tracker and a form given the same dice cannot disagree. `Act` collects
what one action did: the new state, the dice, the rules and the log's words.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, cast

from ..checks import InputError, die
from ..checks import Action
from .combat import (BAND_LABELS, Attack, Conditions, apply_damage, attack_conditions, double_strike, first_strike, first_strike_needs_d4, kept_d20, needs_crit_d4,
                     power_after_counters, resolve_attack, save_conditions)
from .encounter_state import GONE, MAX_COMBATANTS, STATUSES, STEP_LABELS, TAPPED, Combatant, Encounter, by_id, current_step, derive
from .encounter_chances import OPPORTUNISTS, OPPORTUNITY_NAMES, aloft, can_reach, derive_chances, meeting, refusal, rolls_spent
from .flying import lands_by_attacking
from .poison import Condition, add_counters, deathtouch_hit, gain_life
from .trample import charge_enemy

COUNTER_KEYWORDS = ("deathtouch", "infect", "wither")


def dice_of(action: Action) -> dict[str, Any]:
    """The action's dice object (checked by encounter_actions.check), {} when it gives none."""
    return action.get("dice") or {}


def may_take(c: Combatant, needs: tuple[str, ...]) -> bool:
    """Whether `c` has one of the keywords an action's declaration asks of its taker (none asked: yes)."""
    return not needs or any(c["planeswalker"] if k == "planeswalker" else k in c["keywords"] for k in needs)


class Act:
    """One action being applied to a copy of the state."""

    def __init__(self, state: Encounter, rng: random.Random | None):
        self.state, self.rng, self.settings = state, rng, state["settings"]
        self.headline, self.outcome = "", ""
        self.details: list[str] = []
        self.rules: list[str] = []
        self.dice: dict[str, str] = {}
        self.needs: tuple[str, ...] = ()  # keywords one of which the action's taker needs (its declaration's; the step sets them)

    def cite(self, *ids: str) -> None:
        self.rules.extend(ids)

    def say(self, text: str) -> None:
        self.details.append(text)

    def _record(self, label: str, values: Iterable[object]) -> None:
        key, n = label, 2
        while key in self.dice:
            key, n = f"{label} ({n})", n + 1
        self.dice[key] = " ".join(map(str, values))

    def die(self, given: object, sides: int, label: str, field: str) -> int:
        """A die the action gave, or one rolled with the action's seed."""
        if given is None:
            if self.rng is None:
                raise InputError(f"{label}: type what you rolled, or let the page roll for you.", field)
            value = self.rng.randint(1, sides)
        else:
            value = die(given, sides, field, what=label)
        self._record(label, (value,))
        return value

    def d20s(self, given: object, mode: str, label: str, field: str) -> int | tuple[int, ...]:
        """One d20, or two with advantage or disadvantage: typed (a number or a list) or rolled."""
        want = 1 if mode == "normal" else 2
        if given is None:
            if self.rng is None:
                raise InputError(f"{label}: type what you rolled, or let the page roll for you.", field)
            values = tuple(self.rng.randint(1, 20) for _ in range(want))
        else:
            typed = tuple(given) if isinstance(given, list) else (given,)
            if len(typed) != want:
                raise InputError(f"{label}: this roll is {mode}, so it takes {'one d20' if want == 1 else 'two d20s'}; got {len(typed)}.", field)
            values = tuple(die(v, 20, field, what=label) for v in typed)
        self._record(label, values)
        return values[0] if want == 1 else values

    def crit(self, given: object, d20: object, mode: str, label: str, field: str) -> int | None:
        """The d4 of a critical hit, only when the kept d20 is a 20."""
        return self.die(given, 4, label, field) if needs_crit_d4(d20, mode, field) else None


# ---------------------------------------------------------------- fields and who may act


def present(act: Act, cid: object, field: str, *, dead_ok: bool = False) -> Combatant:
    """A combatant on the battlefield: not exiled or dispelled, nor a mount nobody rides (nor dead, unless dead_ok)."""
    c = by_id(act.state, cid, field)
    if c["status"] in GONE:
        raise InputError(f"{c['name']} is {STATUSES[c['status']]} and out of the fight.", field)
    if c["mount"] and not c["ridden"]:
        raise InputError(f"{c['name']} is a mount nobody rides, and out of the fight until its rider mounts (tt.character.mount).", field)
    if not dead_ok and c["vitality"] < 0:
        raise InputError(f"{c['name']} is dead (Vitality {c['vitality']}).", field)
    return c


def able(act: Act, cid: object, field: str) -> Combatant:
    """A combatant that can act: present and conscious."""
    c = present(act, cid, field)
    if c["vitality"] <= 0:
        raise InputError(f"{c['name']} is unconscious (Vitality 0) and cannot act.", field)
    return c


def in_combat(act: Act) -> None:
    if act.state["phase"] != "combat":
        raise InputError("The fight is not under way: start it first (tt.combat.initiation).", "action")


def holder_of(c: Combatant) -> str:
    return cast("str", c["owner"] or c["id"])


def on_turn(act: Act, c: Combatant, *, actions: int = 1) -> None:
    """`c` acts in the character actions step of its (or its owner's) turn, with actions left."""
    in_combat(act)
    s = act.state
    current = s["order"][s["turn"]]
    if holder_of(c) != current:
        raise InputError(f"It is {by_id(s, current)['name']}'s turn: {c['name']} acts in {'its own' if c['kind'] in ('pc', 'npc') else 'its owner’s'} turn.", "action")
    if s["step"] != "actions":
        raise InputError(f"{c['name']} acts in the character actions step; this is the {STEP_LABELS[current_step(s)][3:].lower()}.", "action")
    if c["actions"] < actions:
        need = "both its actions" if actions == 2 else "an action"
        raise InputError(f"{c['name']} has {c['actions']} action{'s' if c['actions'] != 1 else ''} left this turn; this takes {need} (tt.combat.actions).", "action")
    c["actions"] -= actions
    act.cite("tt.combat.actions")


def movement(act: Act, c: Combatant, near: list[Combatant], over: list[Combatant]) -> None:
    """`c`'s movement this turn, a move's or a Trample charge's: whom it came in range of and whom it flew over, for the
    attacks of opportunity they open (tt.ruling.opportunity-movement), which the log names as the page will offer them."""
    s = act.state
    c["moved"] = {"near": [x["id"] for x in near], "over": [x["id"] for x in over], "struck": []}
    for x in s["combatants"]:
        derive(x, s["settings"])  # who is still in the fight after what the action did (a charge's hits)
    derive_chances(s)
    open_ = [f"{x['name']} ({OPPORTUNITY_NAMES[kind]})" for kind in OPPORTUNISTS for x in near + over if c["id"] in x["chances"].get(kind, ())]
    act.say(f"Attacks of opportunity open: {', '.join(open_)}." if open_ else "It opens no attack of opportunity.")
    act.cite("tt.ruling.opportunity-movement")


def no_defender(c: Combatant) -> None:
    if "defender" in c["keywords"]:
        raise InputError(f"{c['name']} has Defender: it cannot attack (tt.keyword.defender).", "attacker")


def within_reach(act: Act, attacker: Combatant, target: Combatant, field: str) -> None:
    """Refuse an attack on a flyer in the air by a character with neither Flying nor Reach (tt.keyword.flying, tt.keyword.reach)."""
    if not can_reach(attacker, target):
        raise InputError(f"{target['name']} is flying: only a character with Flying or Reach can attack it until it lands "
                         "or attacks something on the ground (tt.ruling.flying-reach).", field)
    if aloft(target):
        act.cite("tt.keyword.flying", "tt.ruling.flying-reach", *(("tt.keyword.reach",) if "flying" not in attacker["keywords"] else ()))


def land(act: Act, attacker: Combatant, ground: bool) -> None:
    """A flyer in the air that attacked something on the ground lands until its next turn (tt.mechanics.flying-landing)."""
    if lands_by_attacking(aloft(attacker), not ground):
        attacker["landed"] = True
        act.say(f"{attacker['name']} attacked something on the ground: ground forces can attack it until its next turn.")
        act.cite("tt.mechanics.flying-landing", "tt.ruling.flying-reach")


def situation(action: Action) -> str:
    """The situation's roll (one of MODE's choices: encounter_actions.check), normal when left out."""
    return cast("str", action.get("mode") or "normal")


def attack_mode(act: Act, c: Combatant, given: str, *targets: Combatant) -> str:
    """The attacker's roll: the situation, Haste, poison and a tapped attacker, combined (combat.attack_conditions).
    A surprise attack on any of `targets` with Vigilance is refused (tt.keyword.vigilance, tt.ruling.surprise-attacks)."""
    if given == "surprise":
        vigilant = [t["name"] for t in targets if "vigilance" in t["keywords"]]
        if vigilant:
            raise InputError(f"{vigilant[0]} has Vigilance and cannot be attacked by surprise: choose another situation "
                             "(tt.keyword.vigilance, tt.ruling.surprise-attacks).", "mode")
    cond = attack_conditions(situation=given, haste="haste" in c["keywords"], poisoned=c["poisoned"], tapped=c["status"] in TAPPED,
                             both=act.settings["both"])
    return _told(act, cond, f"{c['name']}'s attack")


def save_mode(act: Act, c: Combatant, reflex: bool) -> str:
    """A saver's roll: Haste helps reflex saves, poison hinders every save (combat.save_conditions)."""
    cond = save_conditions(reflex=reflex, haste="haste" in c["keywords"], poisoned=c["poisoned"], both=act.settings["both"])
    return _told(act, cond, f"{c['name']}'s save")


def _told(act: Act, cond: Conditions, roll: str) -> str:
    act.cite(*cond.rules)
    told = cond.sentence(roll)
    if told:
        act.say(told)
    return cond.mode


# ---------------------------------------------------------------- numbers change


def power_now(c: Combatant) -> int:
    """Power less the -1/-1 counters, never below 0 (tt.stats.power-minimum)."""
    return power_after_counters(c["power"], c["counters"])


def condition_of(c: Combatant) -> Condition:
    return Condition(c["power"], c["toughness"] + max(0, c["boost"]), c["toughness_now"], c["vitality"], c["counters"], c["poisoned"])


def set_condition(c: Combatant, cond: Condition) -> None:
    c["toughness_now"], c["vitality"], c["counters"], c["poisoned"] = cond.toughness_now, cond.vitality, cond.counters, cond.poisoned


def after_change(act: Act, c: Combatant, toughness_before: int, vitality_before: int) -> None:
    """What follows a change of Toughness or Vitality: summons dispel at Toughness 0, unconscious, dead."""
    if toughness_before > 0 and c["toughness_now"] == 0:
        gone = [s for s in act.state["combatants"] if s["owner"] == c["id"] and s["kind"] == "summon" and s["status"] != "dispelled"]
        for s in gone:
            s["status"], s["detained_by"] = "dispelled", None
        if gone:
            act.say(f"{c['name']}'s Toughness is 0: {', '.join(s['name'] for s in gone)} dispel{'s' if len(gone) == 1 else ''}.")
            act.cite("tt.stats.toughness-upkeep", "tt.summoning.toughness-upkeep")
    if vitality_before > 0 >= c["vitality"] or vitality_before >= 0 > c["vitality"]:
        act.say(f"{c['name']} is {'unconscious (Vitality 0)' if c['vitality'] == 0 else 'dead (Vitality below 0)'}.")
        act.cite("tt.stats.vitality")


def hurt(act: Act, source: Combatant | None, target: Combatant, amount: int) -> int:
    """`amount` damage from `source` to `target`; returns the damage dealt."""
    if amount <= 0:
        return 0
    t0, v0 = target["toughness_now"], target["vitality"]
    kind = next((k for k in COUNTER_KEYWORDS if source and k in source["keywords"]), None)
    overflow = act.settings["overflow"]
    if kind:
        assert source is not None  # only a source's keyword gives a kind
        cond = condition_of(target)
        cond, hit = (deathtouch_hit if kind == "deathtouch" else add_counters)(cond, amount, overflow=overflow)
        set_condition(target, cond)
        act.say(f"{source['name']}'s {kind.capitalize()}: {amount} -1/-1 counter{'s' if amount > 1 else ''} on {target['name']} "
                f"({'; '.join(f'{k} -{v}' for k, v in (('Toughness', hit.to_toughness), ('Vitality', hit.to_vitality)) if v) or 'nothing left to take'}; "
                f"Power now {power_now(target)})"
                + ("; poisoned." if kind == "deathtouch" else "."))
        act.cite(f"tt.keyword.{kind}", "tt.ruling.deathtouch-damage", "tt.stats.damage-order")
        if "indestructible" in target["keywords"]:
            act.cite("tt.mechanics.indestructible-bypass")
        dealt = amount
    elif "indestructible" in target["keywords"]:
        act.say(f"{target['name']} is indestructible: the {amount} damage is not dealt.")
        act.cite("tt.keyword.indestructible")
        return 0
    else:
        r = apply_damage(t0, v0, amount, overflow=overflow)
        target["toughness_now"], target["vitality"] = r.toughness, r.vitality
        dealt = r.to_toughness + r.to_vitality  # with overflow "stop", what a hit has beyond Toughness is not dealt
        stopped = f" ({dealt} dealt: the rest stops at Toughness 0)" if dealt < amount else ""
        act.say(f"{amount} damage to {target['name']}{stopped}: Toughness {t0} to {r.toughness}"
                + (f", Vitality {v0} to {r.vitality}." if r.to_vitality else "."))
        act.cite("tt.stats.damage-order", "tt.stats.toughness")
        if amount > t0 > 0:
            act.cite("tt.ruling.damage-overflow")
    if target["vitality"] < v0:
        act.cite("tt.stats.vitality")
    after_change(act, target, t0, v0)
    if source and "lifelink" in source["keywords"] and source["vitality"] >= 0:
        act.cite("tt.keyword.lifelink", "tt.mechanics.lifelink-order")
        gain(act, source, dealt)
    return dealt


def gain(act: Act, c: Combatant, amount: int) -> None:
    """Life gained: Vitality up; poison cured and that many counters off (tt.mechanics.deathtouch-counters)."""
    was = c["poisoned"]
    cond, removed = gain_life(condition_of(c), amount)
    v0 = c["vitality"]
    set_condition(c, cond)
    act.say(f"{c['name']} gains {amount} Vitality: {v0} to {c['vitality']}"
            + (f"; {removed} -1/-1 counter{'s' if removed != 1 else ''} removed" if removed else "")
            + ("; the poison is cured." if was else "."))
    act.cite("tt.keyword.lifelink", "tt.ruling.vitality-above-full")
    if was or removed:
        act.cite("tt.mechanics.deathtouch-cure", "tt.mechanics.deathtouch-counters", "tt.ruling.deathtouch-damage")


# ---------------------------------------------------------------- attacks


def _strike(act: Act, attacker: Combatant, target: Combatant, mode: str, dice: dict[str, Any], label: str) -> int:
    """One attack action's rolls (two with Double Strike), their damage dealt; returns the total."""
    name, power = attacker["name"], power_now(attacker)
    rolls: tuple[Attack, ...]
    if "double-strike" in attacker["keywords"]:
        d1 = act.d20s(dice.get("d20"), mode, f"{name}'s first {label} d20", "d20")
        c1 = act.crit(dice.get("crit_d4"), d1, mode, f"{name}'s first critical d4", "crit_d4")
        d2 = act.d20s(dice.get("second_d20"), mode, f"{name}'s second {label} d20", "second_d20")
        c2 = act.crit(dice.get("second_crit_d4"), d2, mode, f"{name}'s second critical d4", "second_crit_d4")
        r = double_strike(power, d1, d2, mode=mode, first_crit_d4=c1, second_crit_d4=c2)
        rolls = (r.first, r.second)
        act.cite("tt.keyword.double-strike", "tt.ruling.double-strike")
        if act.settings["double_rolls"] == "turn":  # the table's alternative: these are the turn's two rolls (rolls_spent refuses more)
            attacker["doubled"] = True
            act.say(f"Double Strike: {name}'s two attack rolls for this turn (your table plays two per turn in all).")
    else:
        d1 = act.d20s(dice.get("d20"), mode, f"{name}'s {label} d20", "d20")
        rolls = (resolve_attack(power, d1, mode=mode, crit_d4=act.crit(dice.get("crit_d4"), d1, mode, f"{name}'s critical d4", "crit_d4")),)
    act.cite("tt.combat.attack-roll", "tt.combat.attack-table")
    total = 0
    for a in rolls:
        kept = f"kept {a.die} of {a.dice[0]} and {a.dice[1]} ({mode})" if len(a.dice) == 2 else f"d20 {a.die}"
        extra = f" x d4 {a.crit_d4}" if a.crit_d4 else ""
        act.say(f"{name} attacks {target['name']}: {kept}, {BAND_LABELS[a.outcome].lower()}{extra}: {a.damage} damage (Power {power}).")
        if a.outcome == "half":
            act.cite("tt.combat.rounding")
        total += hurt(act, attacker, target, a.damage) if a.damage else 0
    outcomes = [a.outcome for a in rolls]
    act.outcome = "miss" if all(o == "miss" for o in outcomes) else "hit"
    return total


def attack(act: Act, action: Action) -> None:
    in_combat(act)
    attacker = able(act, action["attacker"], "attacker")
    no_defender(attacker)
    target = present(act, action["target"], "target", dead_ok=True)
    if target is attacker:
        raise InputError(f"{attacker['name']} cannot attack itself.", "target")
    within_reach(act, attacker, target, "target")
    ground = not aloft(target)
    spent = rolls_spent(act.state, attacker)
    if spent:
        raise InputError(*spent)
    on_turn(act, attacker)
    mode = attack_mode(act, attacker, situation(action), target)
    total = _strike(act, attacker, target, mode, dice_of(action), "attack")
    land(act, attacker, ground)
    act.headline = f"{attacker['name']} attacks {target['name']}: " + (f"{total} damage." if act.outcome == "hit" else "a miss.")


def opportunity(act: Act, action: Action, kind: str) -> tuple[Combatant, Combatant]:
    """The striker and the mover of an attack of opportunity open now (encounter_chances.refusal), the strike
    counted against the movement that opened it: once per movement."""
    in_combat(act)
    a = able(act, action["attacker"], "attacker")
    b = able(act, action["target"], "target") if kind == "first_strike" else present(act, action["target"], "target")
    if a is b:
        raise InputError(f"{a['name']} cannot strike itself.", "target")
    why = refusal(act.state, a, b, kind)
    if why:
        raise InputError(*why)
    moved = b["moved"]
    assert moved is not None  # refusal asks for the movement
    moved["struck"].append(a["id"])
    act.cite("tt.ruling.opportunity-movement")
    return a, b


def first_strike_action(act: Act, action: Action) -> None:
    """A First Striker's attack as an enemy comes in range (its move names it), or two First Strikers meeting."""
    a, b = opportunity(act, action, "first_strike")
    within_reach(act, a, b, "target")
    ground, ground_a = not aloft(b), not aloft(a)
    act.cite("tt.keyword.first-strike", "tt.ruling.opportunist-attacks")
    # The dice of both cases may come together (a form cannot know which case it is): each case reads its own.
    dice = dice_of(action)
    if meeting(a, b):  # opposed attack rolls: each as its attack would be rolled, the kept d20s compared (tt.ruling.first-strike-tie)
        mode_a, mode_b = attack_mode(act, a, situation(action), b), attack_mode(act, b, "normal")
        r1 = kept_d20(act.d20s(dice.get("d20"), mode_a, f"{a['name']}'s opposed d20", "d20"), mode_a, "d20")
        r2 = kept_d20(act.d20s(dice.get("target_d20"), mode_b, f"{b['name']}'s opposed d20", "target_d20"), mode_b, "target_d20")
        table = act.settings["winner_damage"] == "table"
        d4 = act.die(dice.get("crit_d4"), 4, "the winner's critical d4", "crit_d4") if first_strike_needs_d4(r1, r2, winner_damage=act.settings["winner_damage"]) else None
        r = first_strike(power_now(a), r1, power_now(b), r2, winner_damage=act.settings["winner_damage"], crit_d4=d4)
        act.cite("tt.mechanics.first-strike-meeting", "tt.ruling.first-strike-tie")
        if table and r.winner != "tie":
            act.cite("tt.combat.attack-table")
        act.say(f"Two First Strikers meet: {a['name']} keeps {r1}, {b['name']} keeps {r2}.")
        if r.winner == "tie":
            act.say("A tie: each deals its Power to the other, as in Fight.")
            act.cite("tt.keyword.fight")
        hurt(act, a, b, r.damage_to_second)
        hurt(act, b, a, r.damage_to_first)
        land(act, a, ground)
        land(act, b, ground_a)
        act.outcome = r.winner
        who = {"first": a["name"], "second": b["name"]}.get(r.winner)
        act.headline = (f"{a['name']} and {b['name']} tie and trade blows: {r.damage_to_second} and {r.damage_to_first} damage." if who is None
                        else f"{who} strikes first: {r.damage_to_second or r.damage_to_first} damage.")
        return
    mode = attack_mode(act, a, situation(action), b)
    total = _strike(act, a, b, mode, dice, "opportunist")
    land(act, a, ground)
    act.headline = f"{a['name']} strikes {b['name']} as it comes in range: " + (f"{total} damage." if act.outcome == "hit" else "a miss.")


def charge(act: Act, action: Action) -> None:
    """A Trample charge: an attack roll per enemy in the line, a knock-down save after each hit."""
    in_combat(act)
    a = able(act, action["attacker"], "attacker")
    if not may_take(a, act.needs):
        raise InputError(f"{a['name']} has no Trample: it cannot charge through a line (tt.keyword.trample).", "attacker")
    no_defender(a)
    ids, jump = action["targets"], action.get("jump") or []
    if not isinstance(ids, list) or not 1 <= len(ids) <= MAX_COMBATANTS or len(set(map(str, ids))) != len(ids):
        raise InputError("A charge runs through a list of 1 or more different enemies.", "targets")
    targets = [present(act, t, "targets") for t in ids]
    for t in targets:
        if t is a or t["side"] == a["side"]:
            raise InputError(f"A charge runs through enemies; {t['name']} is on {a['name']}'s side.", "targets")
        within_reach(act, a, t, "targets")
    ground = any(not aloft(t) for t in targets)
    if not isinstance(jump, list) or not set(map(str, jump)) <= set(ids):
        raise InputError("Those who jump aside are enemies in the line.", "jump")
    dice = action.get("dice") or [{}] * len(ids)
    if not isinstance(dice, list) or len(dice) != len(ids):
        raise InputError(f"The charge's dice are a list with one entry per enemy ({len(ids)}).", "dice")
    on_turn(act, a)
    mode = attack_mode(act, a, situation(action), *(t for t in targets if t["id"] not in jump))
    act.cite("tt.keyword.trample", "tt.ruling.trample-charge", "tt.combat.attack-roll", "tt.combat.attack-table")
    tally = {"down": 0, "hit": 0, "damage": 0}
    for i, t in enumerate(targets):
        d = dice[i] or {}
        vigilant = "vigilance" in t["keywords"]
        if t["id"] in jump:
            charge_enemy(power_now(a), None, vigilance=vigilant, jump=True)  # refuses one without Vigilance
            act.say(f"{t['name']} has Vigilance and jumps aside: no attack roll.")
            act.cite("tt.keyword.vigilance")
            continue
        d20 = act.d20s(d.get("d20"), mode, f"{a['name']}'s charge d20 against {t['name']}", "d20")
        d4 = act.crit(d.get("crit_d4"), d20, mode, f"{a['name']}'s critical d4 against {t['name']}", "crit_d4")
        hit = resolve_attack(power_now(a), d20, mode=mode, crit_d4=d4)
        act.say(f"Charge through {t['name']}: kept d20 {hit.die}, {BAND_LABELS[hit.outcome].lower()}: {hit.damage} damage.")
        if hit.outcome == "half":
            act.cite("tt.combat.rounding")
        if hit.outcome == "miss":
            continue
        tally["hit"] += 1
        tally["damage"] += hurt(act, a, t, hit.damage)
        down = t["vitality"] <= 0 or t["status"] in GONE
        tapped = t["status"] in TAPPED
        effect = saved = None
        smode = "normal"
        if not vigilant and not down and not tapped:
            smode = save_mode(act, t, reflex=True)
            effect = act.die(d.get("effect_d20"), 20, f"{a['name']}'s knock-down d20 against {t['name']}", "effect_d20")
            saved = act.d20s(d.get("save_d20"), smode, f"{t['name']}'s save d20", "save_d20")
        r = charge_enemy(power_now(a), d20, mode=mode, crit_d4=d4, effect_d20=effect, save_d20=saved, save_mode=smode,
                         vigilance=vigilant, tie=act.settings["tie"], down=down, tapped=tapped)
        if r.outcome == "already-down":
            act.say(f"{t['name']} is {STATUSES[t['status']]} already: no knock-down save, and it is not knocked down again.")
            act.cite("tt.keyword.tap-untap")
        elif r.outcome == "immune":
            act.say(f"{t['name']} has Vigilance: it is not knocked down.")
            act.cite("tt.keyword.vigilance", "tt.ruling.vigilance-knockdown")
        elif r.save is not None:
            act.cite("tt.ruling.opposed-saves")
            tied = " (a tie goes to the " + act.settings["tie"] + ")" if r.save.total == r.save.effect else ""
            act.say(f"Knock-down save: {a['name']} rolls {r.save.effect}, {t['name']} keeps {r.save.die}{tied}: "
                    + ("knocked down." if r.outcome == "knocked-down" else "stays up."))
            if r.outcome == "knocked-down":
                tally["down"] += 1
                t["status"] = "knocked-down"
                act.cite("tt.keyword.tap-untap")
    land(act, a, ground)
    movement(act, a, targets, [])  # running through the line brings the charger in range of each enemy in it
    act.outcome = "clear" if not tally["hit"] else "hits" if not tally["down"] else "knocked-down"
    act.headline = (f"{a['name']} charges through {len(targets)} enem{'y' if len(targets) == 1 else 'ies'}: "
                    f"{tally['hit']} hit{'s' if tally['hit'] != 1 else ''}, {tally['damage']} damage, {tally['down']} knocked down.")


def reach_strike(act: Act, action: Action) -> None:
    """A Reach character's attack of opportunity on a flyer passing over it (its move names it): out of turn, for none of its actions."""
    a, b = opportunity(act, action, "reach")
    act.cite("tt.keyword.reach", "tt.keyword.flying", "tt.ruling.flying-reach")
    mode = attack_mode(act, a, situation(action), b)
    total = _strike(act, a, b, mode, dice_of(action), "opportunity")
    act.headline = f"{a['name']} strikes {b['name']} as it flies over: " + (f"{total} damage." if act.outcome == "hit" else "a miss.")
