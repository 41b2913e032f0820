"""The encounter tracker's saves, spells and effects: involuntary tapping, Exile,
Detain, damage and life from outside an attack, the cures of poison, Extort
and a planeswalker's ability.

Each uses the same rule functions as the forms (`combat.opposed_save`,
`poison`, `planeswalkers`) on the numbers the state holds.
"""

from __future__ import annotations

from typing import Any

from ..checks import InputError, check_name, whole
from ..checks import Action
from .combat import opposed_save
from .encounter_fight import Act, dice_of, may_take, after_change, able, condition_of, gain, hurt, in_combat, on_turn, present, save_mode, set_condition
from .encounter_state import GONE, STATUSES, TAPPED, Combatant, by_id
from .encounter_words import HAND_LIMIT, MAX_HAND
from .planeswalkers import planeswalker_ability
from .poison import apply_cure, regenerate


def _opposed(act: Act, target: Combatant, dice: dict[str, Any], *, against: str, source: str) -> str:
    smode = save_mode(act, target, reflex=against == "tapping")
    effect = act.die(dice.get("effect_d20"), 20, f"{source}'s d20", "effect_d20")
    saved = act.d20s(dice.get("save_d20"), smode, f"{target['name']}'s save d20", "save_d20")
    r = opposed_save(effect, saved, mode=smode, vigilance="vigilance" in target["keywords"], against=against, tie=act.settings["tie"])
    act.cite("tt.ruling.opposed-saves")
    if r.bonus:
        act.cite("tt.mechanics.vigilance-save")
    act.say(f"Opposed save: {source} rolls {effect}; {target['name']} keeps {r.die}" + (f" + {r.bonus} (Vigilance)" if r.bonus else "")
            + f" = {r.total}: " + ("saved." if r.outcome == "saved" else "the effect works."))
    return r.outcome


def tap(act: Act, action: Action) -> None:
    """Involuntary tapping by a spell or ability: an opposed save, +5 with Vigilance."""
    t = present(act, action["target"], "target")
    source = able(act, action["source"], "source")["name"] if action.get("source") is not None else "The effect"  # one who can act
    if t["status"] in TAPPED:
        raise InputError(f"{t['name']} is {STATUSES[t['status']]} already.", "target")
    act.cite("tt.mechanics.involuntary-tapping", "tt.keyword.tap-untap")
    outcome = _opposed(act, t, dice_of(action), against="tapping", source=source)
    vigilant = "vigilance" in t["keywords"]
    if outcome == "failed":
        t["status"] = "kneeling" if vigilant else "knocked-down"
    if outcome == "failed" and vigilant:
        act.say(f"{t['name']} has Vigilance: it is tapped but never knocked down, so it kneels.")
        act.cite("tt.keyword.vigilance", "tt.ruling.vigilance-knockdown")
    act.outcome = t["status"] if outcome == "failed" else "saved"
    act.headline = f"{t['name']} is forced to its knees: " + (
        "it saves and stays up." if outcome != "failed" else "it kneels (Vigilance: not knocked down)." if vigilant else "knocked down.")


def exile(act: Act, action: Action) -> None:
    caster = able(act, action["caster"], "caster")
    t = present(act, action["target"], "target", dead_ok=True)
    on_turn(act, caster, actions=2)
    act.cite("tt.keyword.exile", "tt.mechanics.exile-cost")
    act.say(f"Exile is cast as a sorcery and takes all of {caster['name']}'s actions this turn.")
    outcome = _opposed(act, t, dice_of(action), against="other", source=caster["name"])
    if outcome == "failed":
        t["status"], t["detained_by"] = "exiled", None
    act.outcome = "exiled" if outcome == "failed" else "saved"
    act.headline = f"{caster['name']} tries to exile {t['name']}: " + ("exiled." if outcome == "failed" else "it beats the save.")


def detain(act: Act, action: Action) -> None:
    """Detain is involuntary tapping (tt.ruling.detain-save): the target's opposed save first, +5 with Vigilance."""
    in_combat(act)
    src = able(act, action["source"], "source")  # Detain is the detainer's doing: one who can act
    t = present(act, action["target"], "target", dead_ok=True)
    if t is src:
        raise InputError(f"{src['name']} cannot detain itself.", "target")
    act.cite("tt.keyword.detain", "tt.ruling.detain-save", "tt.mechanics.involuntary-tapping", "tt.keyword.tap-untap")
    outcome = _opposed(act, t, dice_of(action), against="tapping", source=src["name"])
    if outcome == "failed":
        t["status"], t["detained_by"] = "detained", src["id"]
    act.outcome = "detained" if outcome == "failed" else "saved"
    act.headline = (f"{src['name']} detains {t['name']}: tapped until {src['name']}'s next turn." if outcome == "failed"
                    else f"{src['name']} tries to detain {t['name']}: it saves and is not detained.")


def damage(act: Act, action: Action) -> None:
    t = present(act, action["target"], "target", dead_ok=True)
    src = present(act, action["source"], "source", dead_ok=True) if action.get("source") is not None else None
    amount = whole(action["amount"], "Damage", "amount", minimum=1, maximum=9999)
    dealt = hurt(act, src, t, amount)
    act.outcome = "damage"
    act.headline = f"{t['name']} takes {dealt} damage" + (f" from {src['name']}." if src else ".")


def life(act: Act, action: Action) -> None:
    """Life gained (a cure: tt.mechanics.deathtouch-cure) or lost (past Indestructible)."""
    t = present(act, action["target"], "target")
    amount = whole(action["amount"], "Life gained or lost", "amount", minimum=-9999, maximum=9999)
    if amount == 0:
        raise InputError("Life gained or lost: give a number other than 0.", "amount")
    act.cite("tt.mechanics.life-redirect")
    if amount > 0:
        gain(act, t, amount)
        act.outcome, act.headline = "life", f"{t['name']} gains {amount} Vitality."
        return
    v0 = t["vitality"]
    t["vitality"] -= -amount
    act.say(f"{t['name']} loses {-amount} Vitality: {v0} to {t['vitality']}.")
    act.cite("tt.keyword.lifelink", "tt.stats.vitality")
    if "indestructible" in t["keywords"]:
        act.cite("tt.mechanics.indestructible-bypass")
    after_change(act, t, t["toughness_now"], v0)
    act.outcome, act.headline = "life", f"{t['name']} loses {-amount} Vitality."


def cure(act: Act, action: Action) -> None:
    """Regeneration, a PC's or companion's return, or burning one's own PC."""
    how = action["how"]  # one of CURES (encounter_actions.check)
    t = by_id(act.state, action["target"], "target")
    was, v0 = t["poisoned"], t["vitality"]
    if how == "return":
        if t["kind"] == "npc":
            raise InputError(f"Returning {t['name']}, an NPC, takes it out of the fight: remove it instead.", "target")
        act.cite("tt.keyword.return")
        back = t["kind"] == "summon" and not t["token"] and action.get("summon_to") == "battlefield"  # tt.ruling.summon-return
        if t["kind"] == "summon" and not back:
            t["status"], t["detained_by"] = "dispelled", None
            act.say(f"{t['name']} " + ("is a creature token: it dispels for good." if t["token"] else "goes back to its caster as a summon scroll."))
            act.outcome, act.headline = "returned", f"{t['name']} is returned and leaves the battlefield."
            return
        if back:
            t = present(act, t["id"], "target")  # a summon on the battlefield: only a PC or companion returns from anywhere
            act.say(f"{t['name']} returns to the battlefield as a summoned creature, as if summoned anew; {by_id(act.state, t['owner'])['name']} still maintains it.")
        t["status"], t["detained_by"] = "standing", None
        act.cite("tt.ruling.summon-return" if back else "tt.mechanics.return-characters")
    else:
        t = present(act, t["id"], "target", dead_ok=how == "burn")
        if how == "regenerate" and t["vitality"] < 0:
            raise InputError(f"{t['name']} is dead: regeneration does not raise the dead (Return does, for a PC or companion).", "target")
        if how == "burn" and t["kind"] != "pc":
            raise InputError("Burning cures only one's own PC.", "target")
    amount = whole(action.get("amount") or 0, "Burn damage", "amount", minimum=0, maximum=9999)
    if how == "burn" and amount < 1:
        raise InputError("Burn damage: give the damage the burn spell deals, 1 or more.", "amount")
    t0 = t["toughness_now"]
    cond, removed = apply_cure(condition_of(t), "burn" if how == "burn" else "regenerate", amount=amount, full_vitality=t["max_vitality"])
    set_condition(t, cond)
    if how != "burn" and t["boost"] < 0:
        t["boost"] = 0  # a de-buff gone with the rest
    act.cite("tt.keyword.regenerate" if how != "burn" else "tt.mechanics.deathtouch-cure")
    if was or removed:
        act.cite("tt.mechanics.deathtouch-cure", "tt.mechanics.deathtouch-counters")
    if how == "burn":
        act.say(f"{t['name']} burns itself for {amount}: Vitality {v0} to {t['vitality']}" + ("; the poison stops." if was else "."))
        after_change(act, t, t0, v0)
    else:
        act.say(f"{t['name']} is regenerated: Toughness {t['toughness_now']}, Vitality {t['vitality']}"
                + (f", {removed} -1/-1 counter{'s' if removed != 1 else ''} removed" if removed else "") + ("; the poison is cured." if was else "."))
        act.cite("tt.ruling.vitality-above-full")
    act.outcome, act.headline = "cured", f"{t['name']}: {'returned and regenerated' if how == 'return' else 'regenerated' if how == 'regenerate' else 'burned'}."


def extort(act: Act, action: Action) -> None:
    in_combat(act)
    u = able(act, action["user"], "user")
    if not may_take(u, act.needs):
        raise InputError(f"{u['name']} has no Extort.", "user")
    foes = [c for c in act.state["combatants"] if c["side"] != u["side"] and c["status"] not in GONE and c["vitality"] >= 0]
    for c in foes:
        v0 = c["vitality"]
        c["vitality"] -= 1
        after_change(act, c, c["toughness_now"], v0)
    act.say(f"Each enemy loses 1 Vitality: {', '.join(c['name'] for c in foes) or 'nobody'}.")
    act.cite("tt.keyword.extort")
    if foes:
        gain(act, u, len(foes))
    act.outcome, act.headline = "extort", f"{u['name']} extorts: {len(foes)} enem{'y' if len(foes) == 1 else 'ies'} lose 1 Vitality each, {u['name']} gains {len(foes)}."


MAX_EMBLEM = 160  # characters of an emblem's words, as the card prints them


def emblem(act: Act, action: Action) -> None:
    """An emblem a planeswalker PC's ability made this encounter (tt.planeswalker.effects): its words go in the log,
    and it lasts until the encounter ends, which the end of the encounter says. The table applies what it says."""
    u = able(act, action["user"], "user")
    if not may_take(u, act.needs):
        raise InputError(f"{u['name']} is not a planeswalker PC.", "user")
    if not u["ability_used"]:
        raise InputError(f"{u['name']} has used no planeswalker ability this encounter: an emblem comes from one (tt.planeswalker.effects).", "action")
    words = check_name(action["text"], "The emblem's words", "text", most=MAX_EMBLEM)
    act.cite("tt.planeswalker.effects")
    act.say("The tracker keeps no emblem's effect: apply it at the table. It ends with the encounter.")
    act.outcome, act.headline = "emblem", f"{u['name']}'s ability makes an emblem: {words} It lasts until the encounter ends."

def ability(act: Act, action: Action) -> None:
    """A planeswalker PC's ability, once per encounter: (X) mana and +/-X Toughness until its next turn."""
    u = able(act, action["user"], "user")
    if not may_take(u, act.needs):
        raise InputError(f"{u['name']} is not a planeswalker PC.", "user")
    if u["ability_used"]:
        raise InputError(f"{u['name']} has used a planeswalker ability this encounter already (tt.planeswalker.abilities).", "user")
    mana = None if action.get("mana") is None else whole(action["mana"], "Mana available", "mana", minimum=0, maximum=99)
    r = planeswalker_ability(action["cost"], u["toughness_now"], u["vitality"], mana=mana, full_toughness=u["toughness"] + max(0, u["boost"]),
                             shortfall=act.settings["shortfall"])
    if not r.paid:
        why = f"it needs ({r.mana}) mana" if r.reason == "mana" else f"it costs {r.mana} Toughness and {u['name']} has {u['toughness_now']} left"
        raise InputError(f"{u['name']} cannot activate this ability: {why} (tt.ruling.planeswalker-toughness).", "cost")
    on_turn(act, u)
    t0, v0 = u["toughness_now"], u["vitality"]
    u["toughness_now"], u["vitality"], u["boost"], u["ability_used"] = r.toughness, r.vitality, r.to_toughness, True
    act.cite("tt.planeswalker.abilities", "tt.planeswalker.ability-cost", "tt.ruling.planeswalker-toughness")
    act.say(f"Loyalty cost {r.cost:+d}: ({r.mana}) mana, and Toughness {t0} to {r.toughness} until {u['name']}'s next turn"
            + (f"; {r.to_vitality} more comes off Vitality ({v0} to {r.vitality})." if r.to_vitality else "."))
    after_change(act, u, t0, v0)
    act.outcome, act.headline = "ability", f"{u['name']} activates a {r.cost:+d} ability: ({r.mana}) mana, Toughness {r.to_toughness:+d} until its next turn."


def game(act: Act, action: Action) -> None:
    """A card's "win the game" or "lose the game" (tt.keyword.win-or-lose-the-game, tt.ruling.win-or-lose): the game goes on;
    the character's whole side (itself, its allies, the creatures they control) is raised and regenerated, or brought to 1 Vitality."""
    c = by_id(act.state, action["who"], "who")
    side = [x for x in act.state["combatants"] if x["side"] == c["side"] and x["status"] not in GONE]
    act.cite("tt.keyword.win-or-lose-the-game", "tt.ruling.win-or-lose")
    if action["result"] == "win":
        for x in side:
            before = (x["toughness_now"], x["vitality"], x["counters"], x["poisoned"], x["status"])
            v0, was = x["vitality"], x["status"]
            set_condition(x, regenerate(condition_of(x), x["max_vitality"]))
            if x["boost"] < 0:
                x["boost"] = 0  # a planeswalker's lowered Toughness is a de-buff: it goes with the rest
            if x["status"] in ("knocked-down", "detained"):  # negative effects; kneeling may be chosen, so it stays
                x["status"], x["detained_by"] = "standing", None
            if before != (x["toughness_now"], x["vitality"], x["counters"], x["poisoned"], x["status"]):
                act.say(f"{x['name']}: " + ("raised from the dead, " if v0 < 0 else "") + f"Toughness {x['toughness_now']}, Vitality {x['vitality']}"
                        + (f", {STATUSES[x['status']]} again" if was != x["status"] else "") + ".")
        act.cite("tt.keyword.regenerate")
        act.outcome = "won"
        act.headline = f"{c['name']} wins the game: the game goes on, and {c['name']}'s side is raised and regenerated."
        return
    for x in side:
        if x["vitality"] > 1:
            v0 = x["vitality"]
            x["vitality"] = 1
            act.say(f"{x['name']}: Vitality {v0} to 1.")
    act.cite("tt.stats.vitality")
    act.outcome = "lost"
    act.headline = f"{c['name']} loses the game: the game goes on, and {c['name']}'s side is brought to 1 Vitality."


def hand(act: Act, action: Action) -> None:
    """The GM gives a player's hand size (tt.ruling.hand-tracking): the draw and end steps count it from then on."""
    c = by_id(act.state, action["id"], "id")
    if c["kind"] != "pc":
        raise InputError(f"{c['name']} is no PC: only a player's hand is counted (the GM's is not kept).", "id")
    cards = None if action.get("cards") is None else whole(action["cards"], "Cards in hand", "cards", minimum=0, maximum=MAX_HAND)
    c["hand"] = cards
    act.cite("tt.ruling.hand-tracking")
    act.outcome = "hand"
    act.headline = f"{c['name']} holds {cards} card{'s' if cards != 1 else ''}." if cards is not None else f"{c['name']}'s hand is no longer counted."


def count_hand(act: Act, holder: Combatant, step: str) -> bool:
    """A counted hand at its player's draw step (one card more) or end step (down to 7); False when the turn's hand is not counted."""
    if holder["kind"] != "pc" or holder["hand"] is None:
        return False
    n = holder["hand"]
    if step == "draw":
        holder["hand"] = min(n + 1, MAX_HAND)
        act.say(f"{holder['name']} draws a card: {holder['hand']} in hand" + (f" (more than {HAND_LIMIT}: discard at the end step)." if holder["hand"] > HAND_LIMIT else "."))
        act.cite("tt.combat.draw-step", "tt.ruling.hand-tracking")
    elif n > HAND_LIMIT:
        holder["hand"] = HAND_LIMIT
        act.say(f"{holder['name']} discards {n - HAND_LIMIT} card{'s' if n - HAND_LIMIT != 1 else ''} down to {HAND_LIMIT}.")
        act.cite("tt.combat.end-step", "tt.ruling.hand-tracking")
    return True
