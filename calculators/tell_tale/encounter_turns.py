"""The Tell-Tale encounter's turns and steps, its other actions and its history.

Handlers of the actions declared in encounter_actions: the start of the
fight, each next step of each combat turn (tt.combat.turn) with what happens
at each (actions renewed, a planeswalker's Toughness change ending, Detain
ending, poison's counter at the upkeep), a move, the other character
actions, the end of the encounter; and undo, redo and show, which are not
steps of the fight and answer with the state itself.
"""

from __future__ import annotations

from ..checks import Action, InputError, check_name
from ..history import records, redone, state_length, undone, undone_for_redo
from ..types import Report
from .encounter_effects import count_hand
from .encounter_chances import aloft
from .encounter_fight import Act, able, after_change, condition_of, movement, on_turn, set_condition
from .encounter_roster import roll_initiative, sort_order
from .encounter_state import (
    ACTIONS_PER_TURN, GONE, HOLDERS, MAX_COMBATANTS, MAX_ROUND, NOTHING_TO_DECIDE, STATE_BUDGET, STATUSES, STEP_LABELS, STEP_RULES, STEPS, UNDO_CAP,
    Combatant, Encounter, by_id, check_core, current_step,
)
from .encounter_words import OTHER_ACTIONS
from .poison import poison_tick

def group(s: Encounter, holder: str) -> list[Combatant]:
    """The holder of a turn and the familiars and summons that act in it."""
    return [c for c in s["combatants"] if c["id"] == holder or c["owner"] == holder]


def _on_field(c: Combatant) -> bool:
    """Not exiled or dispelled, nor a mount nobody rides (tt.character.mount)."""
    return c["status"] not in GONE and (c["ridden"] or not c["mount"])


def _in_play(s: Encounter, holder: str) -> bool:
    return any(_on_field(c) and c["vitality"] >= 0 for c in group(s, holder))


def _can_act(s: Encounter, holder: str) -> bool:
    """Somebody in the holder's turn is conscious and in the fight (tt.stats.vitality: 0 is unconscious)."""
    return any(_on_field(c) and c["vitality"] > 0 for c in group(s, holder))


def _enter(act: Act) -> None:
    """What happens as the current turn reaches its current step."""
    s = act.state
    holder = by_id(s, s["order"][s["turn"]])
    members = group(s, holder["id"])
    step = current_step(s)
    act.cite(STEP_RULES[step])
    if step == "untap":
        act.cite("tt.combat.turn")
        for c in members:
            c["actions"] = ACTIONS_PER_TURN
            if c["landed"]:
                c["landed"] = False
                act.say(f"{c['name']} is in the air again: only flyers and characters with Reach can attack it.")
                act.cite("tt.ruling.flying-reach")
        if len(members) > 1:
            act.cite("tt.ruling.summon-turns")
        _release(act, holder["id"])
        if holder["boost"]:
            t0, boost = holder["toughness_now"], holder["boost"]
            holder["toughness_now"] = max(0, t0 - boost) if boost > 0 else min(holder["toughness"], t0 - boost)
            holder["boost"] = 0
            act.say(f"{holder['name']}'s Toughness change from its ability ends: Toughness {t0} to {holder['toughness_now']}.")
            act.cite("tt.planeswalker.ability-cost", "tt.ruling.planeswalker-toughness")
            after_change(act, holder, t0, holder["vitality"])
        if s["round"] == 1:  # a reminder once, at each holder's first turn
            act.say("Tapped mana untaps; tapped characters stay tapped.")
    elif step == "upkeep":
        for c in members:
            if c["poisoned"] and c["vitality"] >= 0 and c["status"] not in GONE:
                t0, v0 = c["toughness_now"], c["vitality"]
                cond, hit = poison_tick(condition_of(c))
                assert hit is not None  # poisoned and not dead: the tick always adds its counter
                set_condition(c, cond)
                act.say(f"Poison: a -1/-1 counter on {c['name']} ({c['counters']} in all): "
                        + (f"Toughness {t0} to {c['toughness_now']}." if hit.to_toughness else f"Vitality {v0} to {c['vitality']}."))
                act.cite("tt.keyword.deathtouch", "tt.ruling.poison-timing")
                after_change(act, c, t0, v0)
    elif step == "draw":  # a counted hand draws, and says its number (tt.ruling.hand-tracking); else a reminder
        if not count_hand(act, holder, "draw") and s["round"] == 1:  # each holder's first turn: a reminder once, not every turn
            act.say("A player draws a card; the GM draws up to 7 cards. Count them at the table: the tracker does not keep hands.")
    elif step == "actions":
        able_ones = [c["name"] for c in members if _on_field(c) and c["vitality"] > 0]
        act.say(f"{ACTIONS_PER_TURN} actions each: {', '.join(able_ones) or 'nobody can act'}.")
    elif not count_hand(act, holder, "end") and s["round"] == 1:
        act.say("A player holding more than 7 cards discards down to 7 (the GM has no maximum). The tracker does not keep hands.")


def start(act: Act, action: Action) -> None:
    through = _through(action)
    s = act.state
    if s["phase"] == "combat":
        raise InputError("The fight is under way already.", "action")
    if not s["order"]:
        raise InputError("Add at least one PC or NPC before the fight starts.", "action")
    if s["order_by"] == "initiative":
        missing = [c for c in s["combatants"] if c["kind"] in HOLDERS and c["initiative"] is None]
        pcs = [c["name"] for c in missing if c["kind"] == "pc"]
        if pcs:
            raise InputError(f"Give {', '.join(pcs)} an Initiative (a PC's Initiative is its stat) before the fight starts.", "action")
        for c in missing:
            c["initiative"] = roll_initiative(act, c, None)
        sort_order(act)
    if action.get("first") is not None:
        first = by_id(s, action["first"], "first")
        if first["id"] not in s["order"]:
            raise InputError(f"{first['name']} acts in its owner's turn.", "first")
        if s["order_by"] == "initiative":
            raise InputError("Who goes first is set by Initiative; choose the order by hand to start with whoever began the fight.", "first")
        i = s["order"].index(first["id"])
        s["order"] = s["order"][i:] + s["order"][:i]
        act.cite("tt.combat.npc-initiative")
    if not any(_can_act(s, h) for h in s["order"]):
        raise InputError("Nobody in the turn order can take a turn (all unconscious, dead or gone).", "action")
    again = s["phase"] == "over"
    s["phase"], s["round"], s["turn"], s["step"] = "combat", 1, 0, "untap"
    for c in s["combatants"]:
        c["actions"], c["moved"], c["doubled"] = ACTIONS_PER_TURN, None, False
    act.cite("tt.combat.initiation")
    if again:  # the fight that was over, started again as it stands (the page's "Same fight again")
        act.say("The same combatants fight again from round 1, as they stand: nobody heals or comes back, and the dead "
                "and the exiled take no turn. Undo brings back the fight that was over.")
    names = [by_id(s, i)["name"] for i in s["order"]]
    act.say(f"Turn order: {', '.join(names)}.")
    skipped: list[str] = []  # the first turns pass as in any round when their holders cannot act (tt.stats.vitality)
    _to_a_turn_that_acts(act, skipped)
    s["step"] = "untap"
    _enter(act)
    passed = _pass_through(act, skipped, through)
    act.outcome = "started"
    act.headline = f"The fight starts. Round {s['round']}: {by_id(s, s['order'][s['turn']])['name']}'s turn, {STEP_LABELS[current_step(s)].lower()[3:]}.{passed}"


def next_step(act: Act, action: Action) -> None:
    """The next step; with "through", on past every step that asks nothing of
    the tracker (NOTHING_TO_DECIDE) to the next that does, each one's effects
    applied and said in order, as if Next were pressed at each."""
    through = _through(action)
    s = act.state
    if s["phase"] != "combat":
        raise InputError("The fight is not under way: start it first.", "action")
    skipped: list[str] = []  # unconscious holders whose turns passed
    _advance(act, skipped)
    passed = _pass_through(act, skipped, through)
    act.outcome = "step"
    act.headline = f"Round {s['round']}, {by_id(s, s['order'][s['turn']])['name']}'s turn: {STEP_LABELS[current_step(s)]}.{passed}"


def _through(action: Action) -> bool:
    """The action's "through": left out (or null), one step."""
    through = action.get("through") or False
    if not isinstance(through, bool):
        raise InputError("through is true or false.", "through")
    return through


def _pass_through(act: Act, skipped: list[str], through: bool) -> str:
    """With `through`, on past the steps that ask nothing (NOTHING_TO_DECIDE), said in one line of the details;
    what the headline adds: the unconscious holders skipped."""
    s = act.state
    went_by: list[str] = []
    while through and s["step"] in NOTHING_TO_DECIDE:
        went_by.append(f"{by_id(s, s['order'][s['turn']])['name']}'s {STEP_LABELS[s['step']][3:].lower()}")
        _advance(act, skipped)
    if went_by:  # one quiet line, last: what changed on the way leads (encounter_step)
        act.say(f"Passed on their own: {', '.join(went_by)}.")
    return f" Skipped, unconscious: {', '.join(skipped)}." if skipped else ""


def _advance(act: Act, passed: list[str]) -> None:
    """One step on (the next turn after the end step), and what happens as it is reached. A turn whose
    characters all fall unconscious at its upkeep step (their poison's counter) passes there, as the turn of
    one unconscious at its start does (tt.stats.vitality): the next turn that can act begins."""
    s = act.state
    i = STEPS.index(s["step"])
    if i + 1 < len(STEPS):
        s["step"] = STEPS[i + 1]
        _enter(act)
        holder = s["order"][s["turn"]]
        if s["step"] != "upkeep" or _can_act(s, holder):
            return
        if not any(_can_act(s, h) for h in s["order"]):
            act.say("Nobody is left who can take a turn (all unconscious, dead or gone): end the encounter.")
            return
        name = by_id(s, holder)["name"]
        act.say(f"{name} is unconscious: its turn passes after its upkeep step; nobody in it can act.")
        act.cite("tt.stats.vitality", "tt.combat.turn")
        passed.append(name)
    elif not any(_can_act(s, h) for h in s["order"]):
        raise InputError("Nobody is left who can take a turn (all unconscious, dead or gone): end the encounter.", "action")
    _next_turn(s)
    _to_a_turn_that_acts(act, passed)
    s["step"] = "untap"
    _enter(act)


def _next_turn(s: Encounter) -> None:
    for c in s["combatants"]:
        c["moved"] = None  # a movement's attacks of opportunity end with its turn (tt.ruling.opportunity-movement)
        c["doubled"] = False  # a new combat turn: Double Strike's two rolls again, at a table playing them per turn (tt.ruling.double-strike)
    s["turn"] += 1
    if s["turn"] == len(s["order"]):
        if s["round"] >= MAX_ROUND:
            raise InputError(f"The fight has reached round {MAX_ROUND}: end the encounter.", "action")
        s["turn"], s["round"] = 0, s["round"] + 1


def _to_a_turn_that_acts(act: Act, passed: list[str]) -> None:
    """From the turn at s["turn"] on to the first whose holder's side can act (somebody can: checked first).
    A turn of one out of the fight is no turn; an unconscious holder's turn passes at once, but what its
    untap and upkeep steps do still happens (Detain by it ends, poison adds its counter)."""
    s = act.state
    while not _can_act(s, holder := s["order"][s["turn"]]):
        if _in_play(s, holder):
            act.say(f"{by_id(s, holder)['name']} is unconscious: its turn passes after its untap and upkeep steps; nobody in it can act.")
            act.cite("tt.stats.vitality", "tt.combat.turn")
            passed.append(by_id(s, holder)["name"])
            for passing in ("untap", "upkeep"):
                s["step"] = passing
                _enter(act)
        else:
            act.say(f"No turn for {by_id(s, holder)['name']}: out of the fight.")
            _release(act, holder, "tt.ruling.detainer-gone")
        _next_turn(s)


def _release(act: Act, holder: str, *rules: str) -> None:
    """Detain by the holder's turn ends (tt.keyword.detain): at its untap step, or where its turn would have come."""
    s = act.state
    members = {m["id"] for m in group(s, holder)}
    for c in s["combatants"]:
        if c["detained_by"] in members:
            c["status"], c["detained_by"] = "standing", None
            act.say(f"{c['name']} is no longer detained.")
            act.cite("tt.keyword.detain", *rules)


def other_action(act: Act, action: Action) -> None:
    c = able(act, action["id"], "id")
    what = action["what"]  # one of OTHER_ACTIONS (encounter_actions.check)
    if what == "kneel" and c["status"] != "standing":
        raise InputError(f"{c['name']} is {STATUSES[c['status']]}, not standing.", "what")
    if what == "get-up":
        if c["status"] == "detained":
            raise InputError(f"{c['name']} is detained until {by_id(act.state, c['detained_by'])['name']}'s next turn.", "what")
        if c["status"] not in ("kneeling", "knocked-down"):
            raise InputError(f"{c['name']} is not down.", "what")
    on_turn(act, c)
    if what in ("kneel", "get-up"):
        c["status"] = "kneeling" if what == "kneel" else "standing"
        act.cite("tt.keyword.tap-untap", "tt.mechanics.tapping-actions", *(("tt.mechanics.voluntary-tapping",) if what == "kneel" else ()))
    act.outcome = what
    act.headline = f"{c['name']} {OTHER_ACTIONS[what][1]}."


MEANS = {True: "at range", False: "in melee"}  # a combatant's `ranged`, as the log says it


def equip(act: Act, action: Action) -> None:
    """Equipment that changes a character's attack from melee to ranged or back (tt.combat.equipment-changes-range):
    one of its actions in a fight (tt.keyword.equip), none before or after one; from its next attack (tt.ruling.equip-attack)."""
    c = able(act, action["id"], "id")
    ranged: bool = action["attack"] == "ranged"  # ranged or melee (encounter_actions.check)
    item = check_name(action["item"], "What is equipped", "item") if action.get("item") else "a weapon"
    if c["ranged"] is ranged:
        raise InputError(f"{c['name']} attacks {MEANS[ranged]} already: equipping {item} changes nothing of it (tt.combat.equipment-changes-range).", "attack")
    if act.state["phase"] == "combat":
        on_turn(act, c)
    before = c["ranged"]
    c["ranged"] = ranged
    act.cite("tt.keyword.equip", "tt.combat.equipment-changes-range", "tt.combat.melee-or-ranged", "tt.ruling.equip-attack")
    act.say(f"From its next attack, {c['name']} attacks {MEANS[ranged]}"
            + (f", no longer {MEANS[before]}" if before is not None else "") + "; which targets are in range stays the GM's call, and a Power "
            "the equipment changes is typed with Change (tt.ruling.equip-attack).")
    act.outcome = "equip"
    act.headline = f"{c['name']} equips {item}: its attack is {'ranged' if ranged else 'melee'} from now on."


def _mounts(act: Act, rider: Combatant) -> list[Combatant]:
    """The rider's companions kept as mounts (tt.character.familiar-or-mount), or InputError when it has none."""
    own = [c for c in act.state["combatants"] if c["owner"] == rider["id"] and c["mount"]]
    if not own:
        raise InputError(f"{rider['name']} has no companion kept as a mount (tt.character.familiar-or-mount).", "rider")
    return own


def _riding(act: Act, rider: Combatant) -> None:
    """In a fight, mounting or dismounting is one of the rider's actions (tt.ruling.mount-stats); before or after one, none."""
    if act.state["phase"] == "combat":
        on_turn(act, rider)


def mount(act: Act, action: Action) -> None:
    """The rider gets on its mount (tt.character.mount): the mount is in the fight from now on, in its rider's turn."""
    rider = able(act, action["rider"], "rider")
    own = _mounts(act, rider)
    steed = next((c for c in own if not c["ridden"]), None)
    if steed is None:
        raise InputError(f"{rider['name']} rides {own[0]['name']} already.", "rider")
    if steed["status"] in GONE or steed["vitality"] <= 0:
        state = STATUSES[steed["status"]] if steed["status"] in GONE else "unconscious" if steed["vitality"] == 0 else "dead"
        raise InputError(f"{steed['name']} is {state}: nobody can ride it.", "rider")
    _riding(act, rider)
    steed["ridden"] = True
    act.cite("tt.character.mount", "tt.character.familiar-or-mount", "tt.ruling.mount-stats")
    act.say(f"{steed['name']} fights while ridden, with its own {ACTIONS_PER_TURN} actions in {rider['name']}'s turn; "
            "give the rider the numbers its mount changes with Change (tt.ruling.mount-stats).")
    act.outcome, act.headline = "mount", f"{rider['name']} mounts {steed['name']}."


def dismount(act: Act, action: Action) -> None:
    """The rider gets off (tt.character.mount): the mount leaves the fight. A rider who can no longer act (unconscious,
    dead, exiled) is off at no cost, at any time (tt.ruling.mount-stats)."""
    rider = by_id(act.state, action["rider"], "rider")
    steed = next((c for c in _mounts(act, rider) if c["ridden"]), None)
    if steed is None:
        raise InputError(f"{rider['name']} rides no mount.", "rider")
    fallen = rider["status"] in GONE or rider["vitality"] <= 0
    if not fallen:
        _riding(act, rider)
    steed["ridden"] = False
    act.cite("tt.character.mount", "tt.ruling.mount-stats")
    act.say(f"{steed['name']} takes no part in the fight until it is ridden again; give {rider['name']} back its own numbers with Change "
            "if the mount changed them (tt.ruling.mount-stats).")
    act.outcome = "dismount"
    act.headline = f"{steed['name']} is riderless: {rider['name']} can no longer ride." if fallen else f"{rider['name']} dismounts {steed['name']}."


def _names(act: Act, mover: Combatant, ids: object, field: str) -> list[Combatant]:
    if not isinstance(ids, list) or len(ids) > MAX_COMBATANTS or len(set(map(str, ids))) != len(ids):
        raise InputError(f"{field}: a list of other combatants, each once.", field)
    out = [by_id(act.state, i, field) for i in ids]
    if mover in out:
        raise InputError(f"{mover['name']} cannot pass itself.", field)
    return out


def move(act: Act, action: Action) -> None:
    """A move (tt.combat.actions), up to Speed: whom it comes in range of and, for a flyer, whom it flies over,
    recorded for the attacks of opportunity they open (tt.ruling.opportunity-movement)."""
    c = able(act, action["id"], "id")
    near, over = _names(act, c, action.get("near") or [], "near"), _names(act, c, action.get("over") or [], "over")
    if over and not aloft(c):
        raise InputError(f"{c['name']} is not in the air: only a flyer passes over others (tt.ruling.flying-reach).", "over")
    on_turn(act, c)
    speed = f"up to Speed {c['speed_now']}"
    if "haste" in c["keywords"]:
        speed += f" (Haste: Speed {c['speed']} + half, rounded {act.settings['rounding']})"
        act.cite("tt.keyword.haste", "tt.ruling.haste-rounding")
    movement(act, c, near, over)
    act.outcome = "moved"
    act.headline = (f"{c['name']} moves {speed}" + (f", into range of {', '.join(x['name'] for x in near)}" if near else "")
                    + (f", over {', '.join(x['name'] for x in over)}" if over else "") + ".")


def end(act: Act, action: Action) -> None:
    s = act.state
    if s["phase"] != "combat":
        raise InputError("The fight is not under way.", "action")
    s["phase"], s["turn"], s["step"] = "over", 0, None
    walkers = [c["name"] for c in s["combatants"] if c["ability_used"]]
    if walkers:  # tt.planeswalker.effects: the tracker keeps no emblems, but says when they end
        act.say(f"Emblems from {', '.join(walkers)}'s planeswalker abilit{'y' if len(walkers) == 1 else 'ies'} end with the encounter.")
        act.cite("tt.planeswalker.effects")
    for c in s["combatants"]:
        c["toughness_now"], c["boost"], c["actions"], c["ability_used"], c["landed"], c["moved"] = c["toughness"], 0, ACTIONS_PER_TURN, False, False, None
        c["doubled"] = False
        if c["status"] == "detained":
            c["status"], c["detained_by"] = "standing", None
    poisoned = [c["name"] for c in s["combatants"] if c["poisoned"] and c["vitality"] >= 0]
    act.say("Toughness is restored in full; Vitality is not.")
    if poisoned or any(c["counters"] for c in s["combatants"]):
        act.say("-1/-1 counters stay until cured" + (f"; still poisoned: {', '.join(poisoned)}." if poisoned else "."))
        act.cite("tt.ruling.counters-after-combat")
    act.cite("tt.stats.toughness-regeneration", "tt.stats.vitality-no-regeneration")
    act.outcome, act.headline = "over", f"The encounter is over after {s['round']} round{'s' if s['round'] != 1 else ''}."


def undo(state: Encounter) -> tuple[Encounter, Report]:
    if not state["undo"]:
        raise InputError("There is nothing to undo.", "action")
    gone = state["log"][-1]
    back = undone(state, state["undo"][-1])
    # The log and the records were checked where the state came in (check_encounter
    # walks every undo back); the rest is checked again, as after any step.
    core = check_core({**back, "log": [], "log_start": 0, "undo": []})
    before: Encounter = {**core, "log": records(back["log"]), "log_start": back["log_start"], "undo": back["undo"]}
    before = undone_for_redo(state, before, UNDO_CAP)  # Redo does it again (history.py), until a new step
    while before["redo"] and state_length(before) > STATE_BUDGET:
        before["redo"] = before["redo"][1:]
    return before, Report("undone", f"Undone: {gone['text']}")


def redo(state: Encounter) -> tuple[Encounter, Report]:
    """The step undone last, done again as it was (its dice as they came)."""
    if not state.get("redo"):
        raise InputError("There is nothing to redo: no step has been undone since the last one.", "action")
    after = redone(state, state["redo"][-1])
    core = check_core({**after, "log": [], "log_start": 0, "undo": [], "redo": []})
    again: Encounter = {**core, "log": records(after["log"]), "log_start": after["log_start"], "undo": after["undo"][-UNDO_CAP:], "redo": after["redo"]}
    return again, Report("redone", f"Redone: {again['log'][-1]['text']}")


def show(state: Encounter) -> tuple[Encounter, Report]:
    """The state as it is: how the page checks a saved, imported or linked one."""
    n = len(state["combatants"])
    where = {"setup": "not started", "over": "over"}.get(state["phase"], f"round {state['round']}")
    return state, Report("shown", f"An encounter of {n} combatant{'s' if n != 1 else ''}, {where}.")
