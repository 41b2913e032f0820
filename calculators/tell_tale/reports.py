"""Tell-Tale for players: a form's values in, a `Report` out.

Each adapter reads the form's fields (typed or rolled dice, yes/no
choices), calls the rules, and says what happened in the table's words,
citing the rules and rulings that decided it. No rule is decided here.
"""

from __future__ import annotations

from fractions import Fraction

from ..checks import InputError
from ..dice import dice_or_roll, parse_dice
from ..fmt import about, fraction
from ..registry import Report
from .characters import DICE_PER_STAT, STAT_LABELS, STAT_ROLLS, STATS, Stats, assign_stats, create_character, level_up, stat_total_odds
from .combat import (
    ATTACK_TABLE,
    apply_damage,
    attack_band,
    combine_conditions,
    double_strike,
    expected_damage,
    first_strike,
    first_strike_odds,
    haste_speed,
    opposed_save,
    outcome_odds,
    resolve_attack,
    save_odds,
)
from .decks import check_deck, parse_exempt

__all__ = [
    "resolve_attack_report",
    "apply_damage_report",
    "double_strike_report",
    "first_strike_report",
    "opposed_save_report",
    "haste_speed_report",
    "create_character_report",
    "level_up_report",
    "check_deck_report",
]

BAND_LABEL = {outcome: label for _, _, outcome, label in ATTACK_TABLE}
BAND_RANGE = {outcome: (f"{low}-{high}" if low != high else f"{low}") for low, high, outcome, _ in ATTACK_TABLE}


def _mode_from(mode: str, haste: str, poisoned: str, both: str) -> tuple[str, list[str], list[str]]:
    adv = int(mode == "advantage") + int(haste == "yes")
    dis = int(mode == "disadvantage") + int(poisoned == "yes")
    rules: list[str] = []
    notes: list[str] = []
    if haste == "yes":
        rules.append("tt.keyword.haste")
        notes.append("Haste grants advantage to attacks.")
    if poisoned == "yes":
        rules.append("tt.keyword.deathtouch")
        notes.append("A character poisoned by Deathtouch has disadvantage.")
    final = combine_conditions(adv, dis, both=both)
    if adv and dis:
        rules.append("tt.ruling.advantage-and-disadvantage")
        how = "they cancel" if both == "cancel" else f"counting sources, {adv} against {dis}"
        notes.append(f"Advantage and disadvantage both apply; {how}: the roll is {final}.")
    if final != "normal":
        rules.append("tt.advantage.roll")
    return final, rules, notes


def _d4_for(attack_dice: tuple[int, ...], mode: str, raw, rng, field: str) -> int | None:
    die = max(attack_dice) if mode == "advantage" else min(attack_dice) if mode == "disadvantage" else attack_dice[0]
    if die != 20:
        if raw not in (None, ""):
            parse_dice(raw, count=1, sides=4, label="Critical d4", field=field)
        return None
    if raw in (None, "") and rng is None:
        raise InputError("A 20 is a critical hit: roll a d4 to multiply the Power, or let the page roll it.", field)
    return dice_or_roll(raw, rng, count=1, sides=4, label="Critical d4", field=field)[0]


def resolve_attack_report(rng, *, power, d20, mode, haste, poisoned, both, crit_d4) -> Report:
    final, rules, notes = _mode_from(mode, haste, poisoned, both)
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
        details.append(f"Half of Power {power} is {fraction(Fraction(power, 2))}; fractions round down, so {a.damage} damage.")
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


def apply_damage_report(rng, *, toughness, vitality, damage, overflow) -> Report:
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


def double_strike_report(rng, *, power, first_d20, second_d20, mode, haste, poisoned, both, first_crit_d4, second_crit_d4) -> Report:
    final, rules, notes = _mode_from(mode, haste, poisoned, both)
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
    details.append(f"Expected damage of both rolls together: {about(mean)}.")
    miss = outcome_odds(final)["miss"]
    odds = (("No hit", miss * miss), ("One hit", 2 * miss * (1 - miss)), ("Two hits", (1 - miss) ** 2))
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


def first_strike_report(rng, *, first_power, first_d20, second_power, second_d20, winner_damage, crit_d4) -> Report:
    r1 = dice_or_roll(first_d20, rng, count=1, sides=20, label="First character's d20", field="first_d20")[0]
    r2 = dice_or_roll(second_d20, rng, count=1, sides=20, label="Second character's d20", field="second_d20")[0]
    d4 = None
    if r1 != r2 and winner_damage == "table" and max(r1, r2) == 20:
        d4 = _d4_for((20,), "normal", crit_d4, rng, "crit_d4")
    elif crit_d4 not in (None, ""):  # not needed, but a typed d4 must still be a d4
        parse_dice(crit_d4, count=1, sides=4, label="Critical d4", field="crit_d4")
    r = first_strike(first_power, r1, second_power, r2, winner_damage=winner_damage, crit_d4=d4)
    details = [f"Opposed attack rolls: the first character rolls {r1}, the second {r2}."]
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
            details.append(f"The {r.winner} character wins and deals its full Power, {dealt} (setting: full).")
        headline = f"The {r.winner} character strikes first for {dealt} damage; the other deals none."
    odds = first_strike_odds()
    labels = {"first": "First character wins", "second": "Second character wins", "tie": "Tie: both deal damage"}
    shown = {"first_d20": str(r1), "second_d20": str(r2)}
    if d4 is not None:
        shown["crit_d4"] = str(d4)
    cited = ["tt.keyword.first-strike", "tt.ruling.first-strike-tie"]
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


def opposed_save_report(rng, *, effect_d20, save_d20, mode, haste, poisoned, both, vigilance, against, tie) -> Report:
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
    final, rules, notes = _mode_from(mode, haste if reflex else "no", poisoned, both)
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


def haste_speed_report(rng, *, speed, rounding) -> Report:
    new = haste_speed(speed, rounding=rounding)
    return Report(
        outcome="hasted",
        headline=f"Speed {speed} with Haste is {new}.",
        details=(f"Haste adds 50%: {speed} + {fraction(Fraction(speed, 2))} rounded {rounding} = {new}.",),
        rules=("tt.keyword.haste", "tt.ruling.haste-rounding", "tt.combat.rounding"),
    )


def create_character_report(rng, *, dice, method, companion, initiative, vitality, speed, companion_vitality, companion_speed) -> Report:
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


def level_up_report(rng, *, level, initiative, vitality, speed, companion_vitality, companion_speed, stat) -> Report:
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


def check_deck_report(rng, *, decklist, exempt) -> Report:
    try:
        free = parse_exempt(exempt or "")
    except ValueError as err:
        raise InputError(str(err), "exempt") from None
    try:
        r = check_deck(decklist, exempt=free)
    except ValueError as err:
        raise InputError(str(err), "decklist") from None
    details = [f"{r.size} cards in {len(r.counts)} different names (lands, the PC and the companion are not counted)."]
    details += list(r.problems)
    details.append("Also check by hand: every card matches the PC's color identity, and no legendary creature or planeswalker but the PC.")
    rules = ["tt.deck.size", "tt.deck.copies", "tt.ruling.deck-limits", "tt.deck.legendary", "tt.deck.color-identity"]
    return Report(
        outcome="legal" if r.legal else "illegal",
        headline=f"{r.size} cards: " + ("a legal deck." if r.legal else f"not legal ({len(r.problems)} problem{'s' if len(r.problems) > 1 else ''})."),
        details=tuple(details),
        rules=tuple(rules),
    )

