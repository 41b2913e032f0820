"""Tell-Tale for players: a form's values in, a `Report` out.

Each adapter reads the form's fields (typed or rolled dice, yes/no
choices), calls the rules, and says what happened in the table's words,
citing the rules and rulings that decided it. No rule is decided here.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction

from ..checks import InputError
from ..dice import dice_or_roll, parse_dice
from ..fmt import about, chance
from ..types import Report
from .characters import DICE_PER_STAT, STAT_LABELS, STAT_ROLLS, STATS, Stats, assign_stats, create_character, level_up, stat_total_odds
from .combat import (BAND_LABELS, BAND_RANGES, apply_damage, attack_band, attack_conditions, double_strike, expected_damage, first_strike,
                     first_strike_needs_d4, first_strike_odds, haste_speed, hits_odds, kept_d20, needs_crit_d4, opposed_save, outcome_odds,
                     resolve_attack, save_conditions, save_odds)
from .deck_tags import parse_identity
from .decks import DECK_RULES, check_deck, parse_exempt
from .encounter_state import Encounter
from .hands import OPENING_HAND, mulligan
from .planeswalkers import planeswalker_ability
from .poison import CURE_LABELS, poison_track
from .trample import charge_expected_damage, charge_odds, trample_charge

__all__ = [
    "resolve_attack_report", "apply_damage_report", "double_strike_report", "first_strike_report", "opposed_save_report", "haste_speed_report",
    "create_character_report", "level_up_report", "check_deck_report", "trample_charge_report", "poison_track_report",
    "planeswalker_ability_report", "mulligan_report", "describe_encounter",
]

BAND_LABEL, BAND_RANGE = BAND_LABELS, BAND_RANGES  # the attack table's words, kept under the names the public API has


def _attack_mode(mode: str, haste: str, poisoned: str, both: str, tapped: str = "no") -> tuple[str, list[str], list[str]]:
    """The attack roll's mode, the rules that decided it and the sentence saying so (combat.attack_conditions)."""
    c = attack_conditions(situation=mode, haste=haste == "yes", poisoned=poisoned == "yes", tapped=tapped == "yes", both=both)
    told = c.sentence("The attack")
    return c.mode, list(c.rules), [told] if told else []


def _d4_for(attack_dice: tuple[int, ...], mode: str, raw: object, rng: random.Random | None, field: str) -> int | None:
    if not needs_crit_d4(attack_dice, mode, field):
        if raw not in (None, ""):
            parse_dice(raw, count=1, sides=4, label="Critical d4", field=field)
        return None
    if raw in (None, "") and rng is None:
        raise InputError("A 20 is a critical hit: roll a d4 to multiply the Power, or let the page roll it.", field)
    return dice_or_roll(raw, rng, count=1, sides=4, label="Critical d4", field=field)[0]


def resolve_attack_report(rng: random.Random | None, *, power: int, d20: str | None, mode: str, haste: str, poisoned: str,
                          both: str, tapped: str, crit_d4: str | None) -> Report:
    final, rules, notes = _attack_mode(mode, haste, poisoned, both, tapped)
    count = 1 if final == "normal" else 2
    dice = dice_or_roll(d20, rng, count=count, sides=20, label="Attack d20", field="d20")
    d4 = _d4_for(dice, final, crit_d4, rng, "crit_d4")
    a = resolve_attack(power, dice, mode=final, crit_d4=d4)
    details = list(notes)
    if final == "normal":
        details.append(f"The d20 shows {a.die}.")
    else:
        keep = "higher" if final == "advantage" else "lower"
        details.append(f"2d20 show {dice[0]} and {dice[1]}; {final} keeps the {keep}, {a.die}.")
    details.append(f"On the attack table {a.die} ({BAND_RANGE[a.outcome]}) is {BAND_LABEL[a.outcome].lower()}.")
    if a.outcome == "half":
        details.append(f"Half of Power {power} is {about(Fraction(power, 2))}; fractions round down, so {a.damage} damage.")
    elif a.outcome == "full":
        details.append(f"Full damage is the Power, {a.damage}.")
    elif a.outcome == "critical":
        details.append(f"The critical d4 shows {a.crit_d4}: Power {power} x {a.crit_d4} = {a.damage} damage.")
    mean = expected_damage(power, mode=final)
    details.append(f"Expected damage of this attack ({final}): {about(mean)}.")
    cited = ["tt.combat.attack-roll", "tt.combat.attack-table", *rules]
    if a.outcome == "half":
        cited.append("tt.combat.rounding")
    odds = outcome_odds(final)
    shown = {"d20": " ".join(map(str, dice))}
    if d4 is not None:
        shown["crit_d4"] = str(d4)
    return Report(
        outcome=a.outcome,
        headline=f"{BAND_LABEL[a.outcome]}: {a.damage} damage (kept d20 {a.die}, Power {power}).",
        details=tuple(details),
        rules=tuple(dict.fromkeys(cited)),
        odds=tuple((f"{BAND_LABEL[o]} ({BAND_RANGE[o]})", p) for o, p in odds.items()),
        odds_title=f"Chance of each band ({final})",
        highlight=f"{BAND_LABEL[a.outcome]} ({BAND_RANGE[a.outcome]})",
        dice=shown,
    )


def apply_damage_report(rng: random.Random | None, *, toughness: int, vitality: int, damage: int, overflow: str) -> Report:
    r = apply_damage(toughness, vitality, damage, overflow=overflow)
    details = [f"{damage} damage: Toughness {toughness} takes {r.to_toughness} first, leaving {r.toughness}."]
    rules = ["tt.stats.damage-order", "tt.stats.toughness"]
    if r.to_vitality:
        details.append(f"The other {r.to_vitality} comes off Vitality: {vitality} to {r.vitality}.")
        rules.append("tt.stats.vitality")
    elif damage > r.to_toughness:
        details.append(f"The hit emptied Toughness; with overflow set to stop, the other {damage - r.to_toughness} does not reach Vitality.")
        rules.append("tt.ruling.damage-overflow")
    if overflow == "carry" and toughness and damage > toughness:
        rules.append("tt.ruling.damage-overflow")
    if r.dispelled:
        details.append("Toughness is at 0: every summon, creature token and enchantment the character maintains is dispelled to the graveyard.")
        rules.append("tt.summoning.toughness-upkeep")
    status = {"standing": "still standing", "unconscious": "unconscious (Vitality 0)", "dead": "dead (Vitality below 0)"}[r.status]
    if r.status != "standing":
        rules.append("tt.stats.vitality")
    details.append(f"Vitality {r.vitality}: {status}.")
    return Report(
        outcome=r.status,
        headline=f"Toughness {r.toughness}, Vitality {r.vitality}: {status}{'; summons and enchantments dispel' if r.dispelled else ''}.",
        details=tuple(details),
        rules=tuple(dict.fromkeys(rules)),
    )


def double_strike_report(rng: random.Random | None, *, power: int, first_d20: str | None, second_d20: str | None, mode: str, haste: str, poisoned: str,
                         both: str, tapped: str, first_crit_d4: str | None, second_crit_d4: str | None, which: str, double_rolls: str) -> Report:
    final, rules, notes = _attack_mode(mode, haste, poisoned, both, tapped)
    if which == "second" and double_rolls == "turn":  # tt.ruling.double-strike's alternative: the first attack action made the turn's two rolls
        return Report("spent", "No roll: Double Strike's two rolls this turn are made.", ("Your table plays two attack rolls per turn in all: the first attack "
                      "action this turn made both, so this second one rolls nothing.",), ("tt.keyword.double-strike", "tt.ruling.double-strike"))
    count = 1 if final == "normal" else 2
    d1 = dice_or_roll(first_d20, rng, count=count, sides=20, label="First attack d20", field="first_d20")
    c1 = _d4_for(d1, final, first_crit_d4, rng, "first_crit_d4")
    d2 = dice_or_roll(second_d20, rng, count=count, sides=20, label="Second attack d20", field="second_d20")
    c2 = _d4_for(d2, final, second_crit_d4, rng, "second_crit_d4")
    r = double_strike(power, d1, d2, mode=final, first_crit_d4=c1, second_crit_d4=c2)
    details = list(notes)
    for name, a in (("First", r.first), ("Second", r.second)):
        extra = f" x d4 {a.crit_d4}" if a.crit_d4 else ""
        details.append(f"{name} roll: kept {a.die}, {BAND_LABEL[a.outcome].lower()}{extra}, {a.damage} damage.")
    mean = 2 * expected_damage(power, mode=final)
    details += [f"Expected damage of both rolls together: {about(mean)}.", "Your table plays two attack rolls per turn in all: a second attack action "
                "this turn rolls nothing." if double_rolls == "turn" else f"Your table plays two rolls per attack action: a second one this turn rolls twice again (four rolls, expected damage {about(2 * mean)})."]
    hits = hits_odds(2, mode=final)
    odds = (("No hit", hits[0]), ("One hit", hits[1]), ("Two hits", hits[2]))
    outcome = ("none", "one", "two")[r.hits]
    cited = ["tt.keyword.double-strike", "tt.ruling.double-strike", "tt.combat.attack-table", *rules]
    if "half" in (r.first.outcome, r.second.outcome):
        cited.append("tt.combat.rounding")
    shown = {"first_d20": " ".join(map(str, d1)), "second_d20": " ".join(map(str, d2))}
    if c1 is not None:
        shown["first_crit_d4"] = str(c1)
    if c2 is not None:
        shown["second_crit_d4"] = str(c2)
    return Report(
        outcome=outcome,
        headline=f"Double Strike: {r.first.damage} + {r.second.damage} = {r.damage} damage.",
        details=tuple(details),
        rules=tuple(dict.fromkeys(cited)),
        odds=odds,
        odds_title=f"Attacks that hit out of two ({final})",
        highlight=odds[r.hits][0],
        dice=shown,
    )


def first_strike_report(rng: random.Random | None, *, first_power: int, first_d20: str | None, first_mode: str, second_power: int,
                        second_d20: str | None, second_mode: str, winner_damage: str, crit_d4: str | None) -> Report:
    # Opposed attack rolls: each side's advantage or disadvantage as for any attack, the kept d20s compared (tt.ruling.first-strike-tie)
    rolled = []
    for d20, mode, label, field in ((first_d20, first_mode, "First character's d20", "first_d20"), (second_d20, second_mode, "Second character's d20", "second_d20")):
        dice = dice_or_roll(d20, rng, count=1 if mode == "normal" else 2, sides=20, label=label, field=field)
        rolled.append((kept_d20(dice, mode, field), dice, mode))
    (r1, dice1, _), (r2, dice2, _) = rolled
    d4 = None
    if first_strike_needs_d4(r1, r2, winner_damage=winner_damage):
        d4 = _d4_for((max(r1, r2),), "normal", crit_d4, rng, "crit_d4")
    elif crit_d4 not in (None, ""):  # not needed, but a typed d4 must still be a d4
        parse_dice(crit_d4, count=1, sides=4, label="Critical d4", field="crit_d4")
    r = first_strike(first_power, r1, second_power, r2, winner_damage=winner_damage, crit_d4=d4)
    told = [f"{r} (kept of {d[0]} and {d[1]}, {m})" if len(d) == 2 else str(r) for r, d, m in rolled]
    details = [f"Opposed attack rolls: the first character rolls {told[0]}, the second {told[1]}."]
    if r.winner == "tie":
        details.append(f"A tie: both deal damage by their Power, as in Fight: {first_power} to the second, {second_power} to the first.")
        headline = f"Tie: the first takes {r.damage_to_first}, the second takes {r.damage_to_second}."
    else:
        roll = max(r1, r2)
        dealt = r.damage_to_second or r.damage_to_first
        if winner_damage == "table":
            extra = f" x d4 {d4}" if d4 else ""
            details.append(f"The {r.winner} character wins; its {roll} reads {BAND_LABEL[attack_band(roll)].lower()} on the attack table{extra}: {dealt} damage.")
        else:
            details.append(f"The {r.winner} character wins and deals its full Power, {dealt}.")
        headline = f"The {r.winner} character strikes first for {dealt} damage; the other deals none."
    odds = first_strike_odds(first_mode, second_mode)
    labels = {"first": "First character wins", "second": "Second character wins", "tie": "Tie: both deal damage"}
    shown = {"first_d20": " ".join(map(str, dice1)), "second_d20": " ".join(map(str, dice2))}
    if d4 is not None:
        shown["crit_d4"] = str(d4)
    cited = ["tt.keyword.first-strike", "tt.ruling.first-strike-tie", *(["tt.advantage.roll"] if {first_mode, second_mode} != {"normal"} else [])]
    if winner_damage == "table" and r.winner != "tie":
        cited.append("tt.combat.attack-table")
    return Report(
        outcome=r.winner,
        headline=headline,
        details=tuple(details),
        rules=tuple(cited),
        odds=tuple((labels[k], p) for k, p in odds.items()),
        odds_title="Opposed d20s",
        highlight=labels[r.winner],
        dice=shown,
    )


def opposed_save_report(rng: random.Random | None, *, effect_d20: str | None, save_d20: str | None, mode: str, haste: str,
                        poisoned: str, both: str, vigilance: str, against: str, tie: str) -> Report:
    labels = {"saved": "Saved: the effect fails", "failed": "Failed: the effect works", "immune": "Immune: Vigilance means no knock-down"}
    if vigilance == "yes" and against == "knockdown":
        return Report(
            outcome="immune",
            headline="Immune: a character with Vigilance is not knocked down, so no save is rolled.",
            details=("Vigilance gives immunity to knock-down; the character may also jump aside from a Trample charge.",),
            rules=("tt.keyword.vigilance", "tt.ruling.vigilance-knockdown"),
            odds=((labels["immune"], Fraction(1)),),
            odds_title="Opposed saving throw",
            highlight=labels["immune"],
        )
    reflex = against in ("knockdown", "tapping")
    c = save_conditions(reflex=reflex, situation=mode, haste=haste == "yes", poisoned=poisoned == "yes", both=both)
    final, rules, notes = c.mode, list(c.rules), [n for n in (c.sentence("The save"),) if n]
    count = 1 if final == "normal" else 2
    e = dice_or_roll(effect_d20, rng, count=1, sides=20, label="Effect's d20", field="effect_d20")[0]
    s = dice_or_roll(save_d20, rng, count=count, sides=20, label="Saver's d20", field="save_d20")
    r = opposed_save(e, s, mode=final, vigilance=vigilance == "yes", against=against, tie=tie)
    details = list(notes)
    if haste == "yes" and not reflex:
        details.append("Haste helps only reflex saves (against being tapped or knocked down), so it does not apply here.")
    if final == "normal":
        kept = f"the saver rolls {r.die}"
    else:
        kept = f"the saver rolls {s[0]} and {s[1]} and keeps {r.die}"
    details.append(f"The effect rolls {e}; {kept}{f' + {r.bonus} for Vigilance' if r.bonus else ''} = {r.total}.")
    if r.total == e:
        details.append(f"A tie goes to the {'saver' if tie == 'saver' else 'effect'}.")
    cited = ["tt.ruling.opposed-saves", *rules]
    if r.bonus:
        cited.append("tt.keyword.vigilance")
    odds = save_odds(mode=final, vigilance=vigilance == "yes", against=against, tie=tie)
    return Report(
        outcome=r.outcome,
        headline=labels[r.outcome] + f" ({r.total} against {e}).",
        details=tuple(details),
        rules=tuple(dict.fromkeys(cited)),
        odds=tuple((labels[k], p) for k, p in odds.items()),
        odds_title="Opposed saving throw",
        highlight=labels[r.outcome],
        dice={"effect_d20": str(e), "save_d20": " ".join(map(str, s))},
    )


def haste_speed_report(rng: random.Random | None, *, speed: int, rounding: str) -> Report:
    new = haste_speed(speed, rounding=rounding)
    return Report(
        outcome="hasted",
        headline=f"Speed {speed} with Haste is {new}.",
        details=(f"Haste adds 50%: {speed} + {about(Fraction(speed, 2))} rounded {rounding} = {new}.",),
        rules=("tt.keyword.haste", "tt.ruling.haste-rounding", "tt.combat.rounding"),
    )


def create_character_report(rng: random.Random | None, *, dice: str | None, method: str, companion: str, initiative: int | None,
                            vitality: int | None, speed: int | None, companion_vitality: int | None,
                            companion_speed: int | None) -> Report:
    rolled = dice_or_roll(dice, rng, count=STAT_ROLLS * DICE_PER_STAT, sides=6, label="Stat dice (28 d6)", field="dice")
    c = create_character(rolled, method=method)
    details = [
        f"Roll {i + 1}: {' + '.join(map(str, rolled[4 * i : 4 * i + 4]))}"
        + (" (lowest dropped)" if method == "drop-lowest" else "")
        + f" = {t}"
        for i, t in enumerate(c.totals)
    ]
    rules = ["tt.character.stat-rolls", "tt.ruling.four-d6"]
    given = {"initiative": initiative, "vitality": vitality, "speed": speed, "companion_vitality": companion_vitality, "companion_speed": companion_speed}
    outcome = "rolled"
    headline = f"Totals: {', '.join(map(str, c.totals))}."
    if any(v is not None for v in given.values()):
        try:
            stats, discarded = assign_stats(c.totals, {k: v for k, v in given.items() if v is not None}, companion=companion == "yes")
        except ValueError as err:
            raise InputError(str(err)) from None
        outcome = "assigned"
        rules.append("tt.character.stat-assignment")
        parts = [f"{STAT_LABELS[s]} {getattr(stats, s)}" for s in STATS if getattr(stats, s) is not None]
        details.append("Assigned: " + ", ".join(parts) + ".")
        details.append("Discarded: " + (", ".join(map(str, discarded)) if discarded else "none") + ".")
        headline = f"Totals {', '.join(map(str, c.totals))}: the assignment is valid."
    else:
        need = 5 if companion == "yes" else 3
        details.append(f"Give {need} of these totals to the stats ({'with' if need == 5 else 'without'} a companion) and discard the rest.")
    odds = stat_total_odds(method=method)
    return Report(
        outcome=outcome,
        headline=headline,
        details=tuple(details),
        rules=tuple(rules),
        odds=tuple((str(k), p) for k, p in odds.items()),
        odds_title="Chance of each total on one roll",
        dice={"dice": " ".join(map(str, rolled))},
    )


def level_up_report(rng: random.Random | None, *, level: int, initiative: int, vitality: int, speed: int,
                    companion_vitality: int | None, companion_speed: int | None, stat: str) -> Report:
    if (companion_vitality is None) != (companion_speed is None):
        raise InputError("A companion has both Vitality and Speed: give both or neither.", "companion_vitality")
    stats = Stats(initiative, vitality, speed, companion_vitality, companion_speed)
    try:
        r = level_up(level, stats, stat)
    except InputError as err:  # the sentence names the stat; the form marks no field, as it always has
        raise InputError(str(err)) from None
    old, new = getattr(stats, stat), getattr(r.stats, stat)
    details = (
        f"Level {level} to {r.level}: put down one more land, {r.lands} in all (lands match the level).",
        f"{STAT_LABELS[stat]} goes up by 1: {old} to {new}.",
        f"Regenerate: Vitality back to full ({r.stats.vitality}), Toughness restored, negative counters and auras removed"
        + (f"; the companion's Vitality back to {r.stats.companion_vitality}." if stats.companion else "."),
        "New lands come in untapped.",
    )
    return Report(
        outcome="level-up",
        headline=f"Level {r.level}: {r.lands} lands, {STAT_LABELS[stat]} {new}.",
        details=details,
        rules=("tt.levels.level-up", "tt.levels.lands", "tt.keyword.regenerate"),
    )


def check_deck_report(rng: random.Random | None, *, decklist: str, identity: str | None, level: int | None,
                      exempt: str | None, hybrid: str) -> Report:
    try:
        free = parse_exempt(exempt or "")
    except ValueError as err:
        raise InputError(str(err), "exempt") from None
    colors = parse_identity(identity)  # its errors name the identity field
    try:
        r = check_deck(decklist, exempt=free, identity=colors, level=level, hybrid=hybrid)
    except InputError as err:
        raise InputError(str(err), err.field if err.field in ("level", "hybrid") else "decklist") from None
    except ValueError as err:
        raise InputError(str(err), "decklist") from None
    details = [f"{r.size} cards in {len(r.counts)} different names (lands, the PC and the companion are not counted)."]
    if r.lands:
        details.append(f"Land stack: {r.land_count} land{'s' if r.land_count != 1 else ''} tagged [land]"
                       + (f", for a level {level} PC." if level is not None else "."))
    details += list(r.problems)
    details += [f"Not checked: {note}" for note in r.unchecked]
    return Report(
        outcome="legal" if r.legal else "illegal",
        headline=f"{r.size} cards: " + ("legal, as far as the tags tell." if r.legal else f"not legal ({len(r.problems)} problem{'s' if len(r.problems) > 1 else ''})."),
        details=tuple(details),
        rules=DECK_RULES,
    )


# ---------------------------------------------------------------- charge, poison, planeswalker, mulligan, encounter


def _several(raw: object, rng: random.Random | None, count: int, label: str, field: str, sides: int = 20) -> list[int]:
    """`count` dice typed in one field, or rolled; none needed: the field must be empty."""
    if count:
        return list(dice_or_roll(raw, rng, count=count, sides=sides, label=label, field=field))
    if raw not in (None, "") and str(raw).strip():
        raise InputError(f"{label}: none are needed for these rolls; leave it empty.", field)
    return []


def trample_charge_report(rng: random.Random | None, *, power: int, enemies: int, attack_d20: str | None, mode: str, haste: str,
                          poisoned: str, both: str, tapped: str, crit_d4: str | None, effect_d20: str | None,
                          save_d20: str | None, save_haste: str, save_poisoned: str, vigilance: str, tie: str) -> Report:
    if mode == "surprise" and vigilance == "yes":  # tt.keyword.vigilance
        raise InputError("Enemies with Vigilance cannot be attacked by surprise: choose another roll (tt.ruling.surprise-attacks).", "mode")
    final, rules, notes = _attack_mode(mode, haste, poisoned, both, tapped)
    sc = save_conditions(reflex=True, haste=save_haste == "yes", poisoned=save_poisoned == "yes", both=both)
    smode, srules, snotes = sc.mode, list(sc.rules), [n for n in (sc.sentence("Each knock-down save"),) if n]
    per = 1 if final == "normal" else 2
    flat = _several(attack_d20, rng, enemies * per, "Attack d20s", "attack_d20")
    attacks = [tuple(flat[i * per:(i + 1) * per]) if per == 2 else flat[i] for i in range(enemies)]
    kept = [kept_d20(d, final, "attack_d20") for d in attacks]
    crits = _several(crit_d4, rng, kept.count(20), "Critical d4s", "crit_d4", sides=4)
    hits = 0 if vigilance == "yes" else sum(attack_band(k) != "miss" for k in kept)
    effects = _several(effect_d20, rng, hits, "Knock-down d20s", "effect_d20")
    sper = 1 if smode == "normal" else 2
    sflat = _several(save_d20, rng, hits * sper, "Save d20s", "save_d20")
    saves = [(effects[i], tuple(sflat[i * sper:(i + 1) * sper]) if sper == 2 else sflat[i]) for i in range(hits)]
    r = trample_charge(power, attacks, saves, mode=final, crit_d4s=crits, save_mode=smode, vigilance=vigilance == "yes", tie=tie)
    details = notes + snotes
    words = {"miss": "missed", "standing": "hit and stays up", "knocked-down": "hit and knocked down", "immune": "hit; Vigilance: not knocked down"}
    for i, h in enumerate(r.hits):
        assert h.attack is not None  # only an enemy that jumps aside has no attack, and trample_charge has none jump
        save = f"; save: charger {h.save.effect} against {h.save.total}" if h.save else ""
        details.append(f"Enemy {i + 1}: kept {h.attack.die}, {BAND_LABEL[h.attack.outcome].lower()}, {h.damage} damage{save}: {words[h.outcome]}.")
    details.append(f"Expected damage of the whole charge ({final}): {about(charge_expected_damage(power, enemies, mode=final))}.")
    odds = charge_odds(enemies, mode=final, save_mode=smode, vigilance=vigilance == "yes", tie=tie)
    cited = ["tt.keyword.trample", "tt.ruling.trample-charge", "tt.combat.attack-table", *rules, *srules]
    cited += ["tt.ruling.opposed-saves"] if hits else []
    cited += ["tt.keyword.vigilance", "tt.ruling.vigilance-knockdown"] if vigilance == "yes" else []
    shown = {"attack_d20": " ".join(map(str, flat))}
    for name, values in (("crit_d4", crits), ("effect_d20", effects), ("save_d20", sflat)):
        if values:
            shown[name] = " ".join(map(str, values))
    label: Callable[[int], str] = lambda k: f"{k} knocked down" + (" (none)" if k == 0 else "")  # noqa: E731
    landed = sum(h.outcome != "miss" for h in r.hits)
    return Report(
        outcome=r.outcome,
        headline=f"{landed} of {enemies} hit, {r.knocked_down} knocked down: {r.damage} damage in all.",
        details=tuple(details), rules=tuple(dict.fromkeys(cited)),
        odds=tuple((label(k), p) for k, p in odds.items()), odds_title=f"Enemies knocked down out of {enemies}",
        highlight=label(r.knocked_down), dice=shown,
    )


def poison_track_report(rng: random.Random | None, *, power: int, toughness: int, vitality: int, damage: int, turns: int,
                        cure: str, cure_turn: int, life: int | None, full_vitality: int | None, overflow: str) -> Report:
    t = poison_track(power, toughness, vitality, damage, turns, cure=cure, cure_turn=cure_turn, life=life or 0,
                     full_vitality=full_vitality, overflow=overflow)
    details = []
    for row in t.rows:
        c = row.condition
        when = "The hit" if row.event == "hit" else f"Turn {row.turn}, " + ("upkeep: the poison's counter" if row.event == "counter" else CURE_LABELS[cure].lower())
        details.append(f"{when}: {c.counters} counter{'s' if c.counters != 1 else ''}, Power {c.power_now}, Toughness {c.toughness_now}, Vitality {c.vitality}"
                       + (", poisoned." if c.poisoned else "."))
    f = t.final
    ends = {"dead": "dead (Vitality below 0)", "unconscious": "unconscious (Vitality 0)", "poisoned": "still poisoned", "cured": "cured"}
    rules = ["tt.keyword.deathtouch", "tt.ruling.poison-timing", "tt.ruling.deathtouch-damage", "tt.stats.damage-order"]
    rules += ["tt.mechanics.deathtouch-cure", "tt.mechanics.deathtouch-counters"] if cure != "none" else []
    rules += ["tt.ruling.damage-overflow"] if damage > toughness > 0 else []
    return Report(
        outcome=t.outcome,
        headline=f"After {t.rows[-1].turn} turn{'s' if t.rows[-1].turn != 1 else ''}: {ends[t.outcome]}; Power {f.power_now}, Toughness {f.toughness_now}, "
                 f"Vitality {f.vitality}, {f.counters} counter{'s' if f.counters != 1 else ''}.",
        details=tuple(details), rules=tuple(rules),
    )


def planeswalker_ability_report(rng: random.Random | None, *, cost: int, toughness: int, vitality: int,
                                full_toughness: int | None, mana: int | None, shortfall: str) -> Report:
    r = planeswalker_ability(cost, toughness, vitality, mana=mana, full_toughness=full_toughness, shortfall=shortfall)
    rules = ["tt.planeswalker.abilities", "tt.planeswalker.ability-cost", "tt.ruling.planeswalker-toughness"]
    if not r.paid:
        why = f"it costs ({r.mana}) mana and you have {mana}" if r.reason == "mana" else (
            f"it costs {r.mana} Toughness and {toughness} is left (the table's ruling: a minus cost needs the Toughness)")
        return Report(outcome="unpaid", headline=f"The ability cannot be activated: {why}.", rules=tuple(rules))
    details = [f"Mana: ({r.mana}), the loyalty cost {cost:+d} without its sign.",
               f"Toughness {toughness} to {r.toughness} until the start of your next turn" + (f"; {r.to_vitality} more comes off Vitality, {vitality} to {r.vitality}." if r.to_vitality else ".")]
    if r.dispelled:
        details.append("Toughness is at 0: every summon and enchantment you keep dispels.")
        rules += ["tt.summoning.toughness-upkeep"]
    details.append(f"At the start of your next turn Toughness goes back to {r.next_turn_toughness}, if nothing else changed it"
                   + ("; the Vitality paid does not come back." if r.to_vitality else "."))
    details.append("One ability per combat encounter, at a time you could cast a sorcery.")
    outcome = "free" if cost == 0 else "dispel" if r.dispelled else "raise" if cost > 0 else "lower"
    return Report(outcome=outcome, headline=f"Pay ({r.mana}) mana; Toughness {r.to_toughness:+d} ({toughness} to {r.toughness}) until your next turn.",
                  details=tuple(details), rules=tuple(rules))


def mulligan_report(rng: random.Random | None, *, mulligans: int, deck: int, copies: int, rule: str) -> Report:
    m, odds = mulligan(mulligans, rule=rule, deck=deck, copies=copies)
    how = f"draw {m.drawn}" + (f", then put {m.bottom} on the bottom" if m.bottom else "")
    details = [f"Mulligan {k}: " + ("free, 7 cards again." if k == 1 else f"a hand of {OPENING_HAND - (k - 1)}.") for k in range(1, mulligans + 1)]
    details.append(f"This hand: {how}; keep {m.hand}.")
    some = 1 - odds.get(0, Fraction(0))
    details.append(f"Chance the kept hand holds at least one of {copies} copies in {deck} cards: {chance(some)}.")  # the percentage first, the fraction once
    outcome = "opening" if mulligans == 0 else "free" if m.free else "reduced"
    return Report(
        outcome=outcome,
        headline=f"{'No mulligan' if not mulligans else f'After {mulligans} mulligan' + ('s' if mulligans > 1 else '')}: a hand of {m.hand} cards.",
        details=tuple(details), rules=("tt.gameplay.opening-hand", "tt.gameplay.mulligans", "tt.ruling.mulligans", "tt.deck.land-stack"),
        odds=tuple((f"{k} cop{'y' if k == 1 else 'ies'}", p) for k, p in odds.items()), odds_title=f"Copies in the kept hand of {m.hand}",
    )


def describe_encounter(state: Encounter) -> str:
    """The encounter for a person: where the fight is, then one line per combatant and the last log entries."""
    order = [c for i in state["order"] for c in state["combatants"] if c["id"] == i]
    where = {"setup": "Not started", "over": f"Over after round {state['round']}"}.get(state["phase"])
    if where is None:
        where = f"Round {state['round']}, {order[state['turn']]['name']}'s turn: {state['step']} step"
    lines = [f"Encounter: {where}. Turn order: {', '.join(c['name'] for c in order) or 'nobody yet'}."]
    for c in state["combatants"]:
        marks = [c["status"]] + [c["health"]] * (c["health"] != "conscious") + ["poisoned"] * c["poisoned"] + ["landed"] * c.get("landed", False)
        lines.append(f"  {c['id']} {c['name']} ({c['kind']}, {c['side']}): Power {c['power_now']}/{c['power']}, Toughness {c['toughness_now']}/"
                     f"{c['toughness']}, Vitality {c['vitality']}/{c['max_vitality']}, counters {c['counters']}, actions {c['actions']}; "
                     + ", ".join(marks) + (f"; {', '.join(c['keywords'])}" if c["keywords"] else ""))
    lines += [f"  #{e['n']} {e['text']}" for e in state["log"][-5:]]
    return "\n".join(lines)
