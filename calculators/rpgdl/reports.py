"""RPGDL TCG for players: a form's values in, a `Report` out.

Each adapter reads the form's fields (a duelist per row, typed or rolled
roll-offs, lists of numbers), calls the rules, and says what happened in
the table's words, citing the rules and rulings that decided it. No rule is
decided here.
"""

from __future__ import annotations

import random
from fractions import Fraction
from collections.abc import Callable, Mapping
from typing import Any, cast

from ..checks import Action, InputError, parse_numbers
from ..dice import parse_dice, roll_dice
from ..fmt import about, chance, percent, signed
from ..history import state_length
from ..types import Report
from .data import DUELIST_NAME_MAX_LENGTH as DUELIST_NAME_MAX_LENGTH  # the Weekend form's names; the tracker's too
from .data import DIVISION_NAMES, DIVISIONS, PLAYERS, ROLL_OFF_SIDES, SEASON_WEEKS, DuelRulings, as_division
from .decks import NOM_POOL_RULES, SEASON_DECK_RULES, check_nom_pool, check_season_deck, parse_nom_pool, parse_season_deck
from .duels import (
    Duelist,
    DuelResult,
    WorthParts,
    division_gap,
    duel_rules,
    WeekendRow,
    roll_off,
    roll_off_odds,
    settle_duel,
    trainwreck_reasons,
    weekend_from_rows,
    weekend_ties,
    worth_parts,
)
from .league import STATE_MAX_CHARS, Season
from .league_actions import ACTION_SPECS, apply_action
from .planner import DuelChances, Matchup, plan_votes
from .season import WeekScore, season_tally, vote_pool

__all__ = [
    "resolve_duel_report",
    "is_trainwreck_report",
    "resolve_weekend_report",
    "check_season_deck_report",
    "season_tally_report",
    "check_nom_pool_report",
    "vote_pool_report",
    "modified_worth_report",
    "plan_votes_report",
    "season_step",
    "describe_season",
]

# Caps on the number fields and names of the forms.
NUMBER_LIST_MAX_LENGTH = 200  # characters of a list of numbers (five weeks, ten Voters)
NUMBER_LIST_MAX_ITEMS = 50
WEEK_SUCCESSES_MAX = 999  # a week's Successes: four duels' Worth differences
WEEK_TRAINWRECKS_MAX = 99
VOTE_WEIGHT_MAX = 99


def _roll_off_dice(rng: random.Random) -> tuple[int, int]:
    """One roll-off's two d6, the first player's first."""
    a, b = roll_dice(rng, count=2, sides=ROLL_OFF_SIDES)
    return a, b


def _roll_offs(raw: object, rng: random.Random | None, count: int, field: str, label: str) -> tuple[tuple[tuple[int, int], ...], list[str]]:
    """`count` roll-offs as pairs of d6, typed or rolled (ties rolled again)."""
    notes: list[str] = []
    if count == 0:
        return (), notes
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        if rng is None:
            raise InputError(f"{label}: type the two d6 of each roll-off (first player's, then second's), or let the page roll.", field)
        rolled: list[tuple[int, int]] = []
        for _ in range(count):
            while True:
                a, b = _roll_off_dice(rng)
                if a != b:
                    break
                notes.append(f"Roll-off {a} against {b} is a tie: rolled again.")
            rolled.append((a, b))
        return tuple(rolled), notes
    values = parse_dice(raw, count=2 * count, sides=ROLL_OFF_SIDES, label=label, field=field)
    pairs = tuple((values[2 * i], values[2 * i + 1]) for i in range(count))
    for a, b in pairs:
        if a == b:
            raise InputError(f"The roll-off shows {a} and {b}, a tie: roll again and type the roll that broke the tie.", field)
    return pairs, notes


def _explain_worth(label: str, d: Duelist, parts: WorthParts, slot: str) -> str:
    bits = [f"printed Worth {parts.base}"]
    if parts.votes:
        bits.append(f"+{parts.votes} from votes")
    if parts.bonus:
        bits.append(f"{signed(parts.bonus)} from other effects")
    if parts.penalty:
        bits.append(f"-{parts.penalty} for a {DIVISION_NAMES[d.division]} duelist in the {DIVISION_NAMES[slot]} slot")
    return f"{label} ({DIVISION_NAMES[d.division]}, Draw {d.draw}): " + ", ".join(bits) + f" = {parts.total}."


def _explain_outcome(duel: DuelResult, names: Mapping[str, str]) -> list[str]:
    lines: list[str] = []
    if duel.winner is None:
        return lines
    loser = duel.loser
    assert loser is not None  # a duel with a winner has a loser
    lines.append(f"{names[duel.winner]} wins by {duel.successes}: {duel.successes} Success{'es' if duel.successes != 1 else ''}.")
    if duel.trainwreck:
        why = []
        if "division-gap" in duel.trainwreck_reasons:
            why.append("the winner is two or more divisions lower")
        if "half-draw" in duel.trainwreck_reasons:
            why.append("the winner has half the loser's Draw (rounded down) or less")
        lines.append(f"Trainwreck for the controller of {names[loser][0].lower() + names[loser][1:]}: " + " and ".join(why) + ".")
    else:
        lines.append("No Trainwreck: the winner is neither two divisions lower nor at half the loser's Draw.")
    return lines


def resolve_duel_report(rng: random.Random | None, *, slot: str, first_division: str, first_worth: int, first_draw: int, first_votes: int,
                        first_bonus: int, second_division: str, second_worth: int, second_draw: int, second_votes: int,
                        second_bonus: int, division_penalty: str, half_draw: str, successes_worth: str, sudden_death: str,
                        sudden_death_roll: str | None) -> Report:
    first = Duelist("First duelist", first_division, first_worth, first_draw)
    second = Duelist("Second duelist", second_division, second_worth, second_draw)
    rulings = DuelRulings(division_penalty, half_draw, successes_worth, sudden_death)  # the form's rulings, as one value from here on
    for who, d, v, b in (("first", first, first_votes, first_bonus), ("second", second, second_votes, second_bonus)):
        _check_worth_input(d, slot, v, b, rulings.division_penalty, f"{who}_votes", f"{who}_division")
    sides = ((first_votes, second_votes), (first_bonus, second_bonus))
    duel = settle_duel(slot, first, second, *sides, rulings)
    names = {"first": "The first duelist", "second": "The second duelist"}
    details = [_explain_worth("First duelist", first, duel.first_parts, duel.slot),
               _explain_worth("Second duelist", second, duel.second_parts, duel.slot)]
    dice: dict[str, str] = {}
    odds: tuple[Any, ...] = ()
    highlight = None
    rules = duel_rules(duel)
    if duel.sudden_death:
        details.append(f"Both stand at Worth {duel.first_worth}: the duel goes to Sudden Death.")
        if rulings.sudden_death == "roll-off":
            pairs, notes = _roll_offs(sudden_death_roll, rng, 1, "sudden_death_roll", "Sudden Death roll-off")
            (a, b), = pairs
            details += notes
            won = roll_off(a, b)
            assert won is not None  # _roll_offs gives no tied roll-off
            details.append(f"Roll-off: first player {a}, second player {b}; the {won} player's duelist wins.")
            duel = settle_duel(slot, first, second, *sides, rulings, won)
            rules = duel_rules(duel) + ["rpgdl.ruling.roll-off"]
            dice = {"sudden_death_roll": f"{a} {b}"}
            labels = {"first": "First duelist wins the roll-off", "second": "Second duelist wins the roll-off"}
            odds = tuple((labels[k], p) for k, p in roll_off_odds().items())
            highlight = labels[won]
        else:
            details.append("Setting: nobody wins Sudden Death; no Successes, no Trainwreck, both duelists return to the Roster.")
    details += _explain_outcome(duel, names)
    if duel.winner is None:
        headline = f"Tied at Worth {duel.first_worth}: Sudden Death, and nobody wins the duel."
    else:
        how = " after Sudden Death" if duel.sudden_death else ""
        wreck = " The loser's controller suffers a Trainwreck." if duel.trainwreck else ""
        headline = (f"{names[duel.winner]} wins the {DIVISION_NAMES[duel.slot]} duel{how}, "
                    f"{max(duel.first_worth, duel.second_worth)} to {min(duel.first_worth, duel.second_worth)}, "
                    f"for {duel.successes} Success{'es' if duel.successes != 1 else ''}.{wreck}")
    outcome = "sudden-death" if duel.sudden_death else duel.winner
    assert outcome is not None  # only Sudden Death leaves a duel without a winner
    return Report(outcome, headline, tuple(details), tuple(dict.fromkeys(rules)), odds, "Sudden Death roll-off" if odds else "", highlight, dice)


def is_trainwreck_report(rng: random.Random | None, *, loser_division: str, loser_draw: int, winner_division: str, winner_draw: int,
                         half_draw: str) -> Report:
    loser = Duelist("The loser", loser_division, 0, loser_draw)
    winner = Duelist("The winner", winner_division, 0, winner_draw)
    reasons = trainwreck_reasons(loser, winner, half_draw=half_draw)
    gap = division_gap(loser.division, winner.division)
    half = loser.draw // 2
    details = [
        f"The winner is {gap} division{'s' if abs(gap) != 1 else ''} below the loser"
        f" ({DIVISION_NAMES[winner.division]} against {DIVISION_NAMES[loser.division]}); two or more is a Trainwreck.",
        f"Half the loser's Draw of {loser.draw}, rounded down, is {half}; the winner's Draw is {winner.draw}"
        f" ({'at most' if half_draw == 'at-most' else 'exactly'} {half} is a Trainwreck).",
    ]
    rules = ["rpgdl.weekend.trainwreck", "rpgdl.ruling.trainwreck-gap", "rpgdl.ruling.half-draw"]
    if reasons:
        return Report("trainwreck", "The loser's controller suffers a Trainwreck.", tuple(details), tuple(rules))
    return Report("no-trainwreck", "No Trainwreck: a fair loss.", tuple(details), tuple(rules))



def resolve_weekend_report(rng: random.Random | None, *, division_penalty: str, half_draw: str, successes_worth: str, sudden_death: str,
                           sudden_death_rolls: str | None, first_vote_pool: int,
                           second_vote_pool: int, **duelists: Any) -> Report:
    line: dict[str, list[WeekendRow | None]] = {p: [] for p in PLAYERS}
    for slot in DIVISIONS:
        for who in PLAYERS:
            field = f"{slot}_{who}"
            name = (duelists[f"{field}_name"] or "").strip() or f"{'1st' if who == 'first' else '2nd'} {DIVISION_NAMES[slot]}"
            line[who].append(WeekendRow(Duelist(name, duelists[f"{field}_division"], duelists[f"{field}_worth"], duelists[f"{field}_draw"]),
                                        duelists[f"{field}_votes"], duelists[f"{field}_bonus"]))
    rulings = DuelRulings(division_penalty, half_draw, successes_worth, sudden_death)  # the form's rulings, as one value from here on
    pools = {"first": first_vote_pool, "second": second_vote_pool}
    ties = weekend_ties(line["first"], line["second"], rulings=rulings, vote_pools=pools)
    winners: dict[str, str] = {}
    dice: dict[str, str] = {}
    details: list[str] = []
    odds: tuple[Any, ...] = ()
    highlight = None
    if ties:
        pairs, notes = _roll_offs(sudden_death_rolls, rng, len(ties), "sudden_death_rolls", "Sudden Death roll-offs")
        details += notes
        for slot, (a, b) in zip(ties, pairs):
            won = roll_off(a, b)
            assert won is not None  # _roll_offs gives no tied roll-off
            winners[slot] = won
            details.append(f"{DIVISION_NAMES[slot]} duel tied: Sudden Death roll-off {a} against {b}, the {winners[slot]} player wins it.")
        dice["sudden_death_rolls"] = " ".join(f"{a} {b}" for a, b in pairs)
    result = weekend_from_rows(line["first"], line["second"], rulings=rulings, sudden_death_winners=winners)
    rules = ["rpgdl.weekend.order", "rpgdl.weekend.discard-losers", "rpgdl.weekend.return-winners"]
    spent = {p: sum(r.votes for r in line[p] if r is not None) for p in PLAYERS}
    if any(spent.values()):
        rules.append("rpgdl.ruling.vote-pool")
    lines = []
    for duel in result.duels:
        lines.append(f"{DIVISION_NAMES[duel.slot]}: {duel.first.name} {duel.first_worth} against {duel.second.name} {duel.second_worth}"
                     + ("" if duel.winner else " - tied, nobody wins") + (
                         f" - {duel.winner} player wins, {duel.successes} Success{'es' if duel.successes != 1 else ''}"
                         + (", Trainwreck for the loser" if duel.trainwreck else "") if duel.winner else ""
                     ) + ".")
        rules += duel_rules(duel)
    if winners:
        rules.append("rpgdl.ruling.roll-off")
    details = lines + details
    if any(spent.values()):
        details.append(f"Votes on the duelists: first player {spent['first']} of {pools['first']}, "
                       f"second player {spent['second']} of {pools['second']} in the Vote Pool.")
    details.append(f"Returned to the Roster: first player {', '.join(result.first_returned) or 'none'}; "
                   f"second player {', '.join(result.second_returned) or 'none'}.")
    details.append(f"Discarded to Defeated Duelists: first player {', '.join(result.first_discarded) or 'none'}; "
                   f"second player {', '.join(result.second_discarded) or 'none'}.")
    if ties:
        # Every roll-off is an even chance; the Trainwrecks this Weekend may hang on them.
        counts: dict[tuple[int, int], Fraction] = {}
        half = roll_off_odds()
        for mask in range(2 ** len(ties)):
            pick = {slot: ("first" if mask >> k & 1 else "second") for k, slot in enumerate(ties)}
            p = Fraction(1)
            for slot in ties:
                p *= half[pick[slot]]
            r = weekend_from_rows(line["first"], line["second"], rulings=rulings, sudden_death_winners=pick)
            key = (r.first_trainwrecks, r.second_trainwrecks)
            counts[key] = counts.get(key, Fraction(0)) + p
        label: Callable[[tuple[int, int]], str] = lambda k: f"Trainwrecks {k[0]} (first) and {k[1]} (second)"  # noqa: E731
        odds = tuple((label(k), p) for k, p in sorted(counts.items()))
        highlight = label((result.first_trainwrecks, result.second_trainwrecks))
    if result.first_successes != result.second_successes:
        outcome = "first" if result.first_successes > result.second_successes else "second"
        lead = f"The {outcome} player takes the Weekend"
    else:
        outcome, lead = "even", "The Weekend is even"
    headline = (f"{lead}: Successes {result.first_successes} to {result.second_successes}, "
                f"Trainwrecks {result.first_trainwrecks} to {result.second_trainwrecks}.")
    return Report(outcome, headline, tuple(details), tuple(dict.fromkeys(rules)), odds,
                  "Trainwrecks, over the Sudden Death roll-offs" if odds else "", highlight, dice)


def _numbers(raw: object, field: str, label: str, maximum: int, example: str = "one whole number per week, like '3 0 5 2 1'") -> tuple[int, ...]:
    """A list field's whole numbers, 0 to `maximum` each, checked as text before any int()."""
    return parse_numbers(raw, label=label, field=field, minimum=0, maximum=maximum, most=NUMBER_LIST_MAX_ITEMS, example=example)


def season_tally_report(rng: random.Random | None, *, goal: str, first_successes: str | None, second_successes: str | None,
                        first_trainwrecks: str | None, second_trainwrecks: str | None, trainwreck_limit: int, season_tie: str,
                        godlike_champion: str, heavy_champion: str, middle_champion: str, light_champion: str) -> Report:
    cols = {
        "first_successes": _numbers(first_successes, "first_successes", "First player's Successes", WEEK_SUCCESSES_MAX),
        "second_successes": _numbers(second_successes, "second_successes", "Second player's Successes", WEEK_SUCCESSES_MAX),
        "first_trainwrecks": _numbers(first_trainwrecks, "first_trainwrecks", "First player's Trainwrecks", WEEK_TRAINWRECKS_MAX),
        "second_trainwrecks": _numbers(second_trainwrecks, "second_trainwrecks", "Second player's Trainwrecks", WEEK_TRAINWRECKS_MAX),
    }
    labels = {"first_successes": "First player's Successes", "second_successes": "Second player's Successes",
              "first_trainwrecks": "First player's Trainwrecks", "second_trainwrecks": "Second player's Trainwrecks"}
    n = max(len(v) for v in cols.values())
    if n == 0:
        raise InputError("Type each week's results: Successes and Trainwrecks, one number per week.", "first_successes")
    if n > SEASON_WEEKS:
        field = next(k for k, v in cols.items() if len(v) == n)
        raise InputError(f"{labels[field]}: a Season has {SEASON_WEEKS} weeks; got {n} numbers.", field)
    for k, v in cols.items():
        if v and len(v) != n:
            raise InputError(f"{labels[k]}: give one number per week played ({n}); got {len(v)}.", k)
    weeks = [WeekScore(*(cols[k][i] if cols[k] else 0 for k in cols)) for i in range(n)]
    champions = {"godlike": godlike_champion, "heavy": heavy_champion, "middle": middle_champion, "light": light_champion}
    r = season_tally(weeks, trainwreck_limit=trainwreck_limit, season_tie=season_tie, goal=goal, champions=champions)
    rules = ["rpgdl.season.length", "rpgdl.season.trainwreck-loss", "rpgdl.ruling.trainwreck-limit"]
    details = [f"After {r.weeks_played} week{'s' if r.weeks_played != 1 else ''}: Successes {r.first_successes} to "
               f"{r.second_successes}, Trainwrecks {r.first_trainwrecks} to {r.second_trainwrecks} (a player with "
               f"{trainwreck_limit} loses at once)."]
    if r.ended_week is not None:
        rules.append("rpgdl.ruling.simultaneous-trainwrecks")
        if n > r.ended_week:
            details.append(f"The game ended in week {r.ended_week}; the weeks after it do not count.")
    if r.championship is not None:
        c = r.championship
        rules += ["rpgdl.championship.points", "rpgdl.championship.winner"]
        crowned = ", ".join(DIVISION_NAMES[d] for d in c.crowned) or "none"
        details.append(f"Championship points (5 Godlike, 5 Heavy, 4 Middle, 3 Light): first {c.first_points}, "
                       f"second {c.second_points}; divisions crowned: {crowned}.")
    else:
        rules.append("rpgdl.season.winner")
        if r.weeks_played == SEASON_WEEKS and r.first_successes == r.second_successes and r.ended_week is None:
            rules.append("rpgdl.ruling.season-tie")
    headlines = {
        "first-wins": "The first player wins the game.",
        "second-wins": "The second player wins the game.",
        "draw": "The game is drawn.",
        "first-trainwrecked": f"The first player reaches {trainwreck_limit} Trainwrecks in week {r.ended_week} and loses.",
        "second-trainwrecked": f"The second player reaches {trainwreck_limit} Trainwrecks in week {r.ended_week} and loses.",
        "both-trainwrecked": f"Both players reach {trainwreck_limit} Trainwrecks in week {r.ended_week}: both lose, a draw.",
        "in-progress": "The game goes on: no winner yet.",
    }
    return Report(r.outcome, headlines[r.outcome], tuple(details), tuple(rules))


def check_nom_pool_report(rng: random.Random | None, *, duelists: str) -> Report:
    try:
        pairs = parse_nom_pool(duelists)
    except ValueError as err:
        raise InputError(str(err), "duelists") from None
    c = check_nom_pool(pairs)
    spread = ", ".join(f"{c.counts[d]} {DIVISION_NAMES[d]}" for d in DIVISIONS)
    details = (f"{c.total} duelists: {spread}.",) + c.problems
    rules = NOM_POOL_RULES
    if c.legal:
        return Report("legal", "This Nom Pool is legal.", details, rules)
    return Report("illegal", f"This Nom Pool is not legal: {len(c.problems)} problem{'s' if len(c.problems) != 1 else ''}.", details, rules)


def check_season_deck_report(rng: random.Random | None, *, cards: str) -> Report:
    try:
        c = check_season_deck(parse_season_deck(cards))
    except ValueError as err:
        raise InputError(str(err), "cards") from None
    details = (f"{c.total} cards, {len(c.counts)} different.",) + c.problems
    rules = SEASON_DECK_RULES
    if c.legal:
        return Report("legal", "This Season Deck is legal.", details, rules)
    return Report("illegal", f"This Season Deck is not legal: {len(c.problems)} problem{'s' if len(c.problems) != 1 else ''}.", details, rules)


def vote_pool_report(rng: random.Random | None, *, generic_voters: int, unique_weights: str | None, generic_weight: int) -> Report:
    weights = _numbers(unique_weights, "unique_weights", "Unique Voters' Vote Weights", VOTE_WEIGHT_MAX,
                       example="one whole number per unique Voter, like '1 2'")
    try:
        pool = vote_pool(generic_voters, weights, generic_weight=generic_weight)
    except ValueError as err:
        raise InputError(str(err), "generic_voters") from None
    details = (f"{pool.generic_voters} Generic Voters x Vote Weight {pool.generic_weight} = {pool.generic_voters * pool.generic_weight}.",
               f"{len(pool.unique_weights)} unique Voters: {' + '.join(map(str, pool.unique_weights)) or '0'} = {sum(pool.unique_weights)}.")
    rules = ("rpgdl.voters.generate", "rpgdl.voters.generic-weight", "rpgdl.ruling.generic-voter-weight", "rpgdl.ruling.voter-slots")
    return Report("votes", f"{pool.votes} votes this turn.", details, rules)


def _check_worth_input(d: Duelist, slot: str, votes: int, bonus: int, division_penalty: str, votes_field: str, division_field: str) -> None:
    """worth_parts' own checks, as an InputError naming the form field at fault."""
    try:
        worth_parts(d, slot, votes, bonus=bonus, division_penalty=division_penalty)
    except ValueError as err:
        raise InputError(str(err), votes_field if votes > d.draw else division_field) from None


def modified_worth_report(rng: random.Random | None, *, slot: str, division: str, worth: int, draw: int, votes: int, bonus: int,
                          division_penalty: str) -> Report:
    d = Duelist("The duelist", division, worth, draw)
    _check_worth_input(d, slot, votes, bonus, division_penalty, "votes", "division")
    parts = worth_parts(d, slot, votes, bonus=bonus, division_penalty=division_penalty)
    rules = ["rpgdl.worth.modified", "rpgdl.votes.worth", "rpgdl.votes.limit", "rpgdl.ruling.vote-worth"]
    if parts.penalty:
        rules += ["rpgdl.divisions.improper", "rpgdl.ruling.division-penalty"]
    outcome = "improper" if parts.penalty else "proper"
    return Report(outcome, f"Modified Worth {parts.total}.", (_explain_worth("The duelist", d, parts, as_division(slot)),), tuple(rules))



# ---------------------------------------------------------------- the vote planner


def _plan_line(duel: DuelChances) -> str:
    """One duel of the plan: your Worth with the votes, theirs, and how it can end."""
    first = duel.results[0][1]
    line = f"{DIVISION_NAMES[duel.slot]}: {duel.votes} vote{'s' if duel.votes != 1 else ''}, yours {first.first_worth} against {first.second_worth}"
    if not first.sudden_death:
        won = first.winner == "first"
        line += (f": you win by {first.successes}, {first.successes} Success{'es' if first.successes != 1 else ''}" if won else
                 f": you lose by {first.second_worth - first.first_worth}, {first.successes} Success{'es' if first.successes != 1 else ''} to them")
        if first.trainwreck:
            line += ", a Trainwreck for " + ("them" if won else "you")
        return line + "."
    if first.winner is None and len(duel.results) == 1:
        return line + ": tied, and nobody wins Sudden Death."
    wreck = {r.winner: r.trainwreck for _, r in duel.results}
    extra = "".join(f"; if {'you win' if w == 'first' else 'you lose'} it, a Trainwreck for {'them' if w == 'first' else 'you'}"
                    for w in PLAYERS if wreck.get(w))
    return line + f": tied, Sudden Death, a roll-off each side wins half the time{extra}."


def plan_votes_report(rng: random.Random | None, *, objective: str, votes: int, division_penalty: str, half_draw: str, successes_worth: str,
                      sudden_death: str, **rows: Any) -> Report:
    matchups = []
    for slot in DIVISIONS:
        you, them = f"{slot}_you", f"{slot}_opponent"
        mine = Duelist("Your duelist", rows[f"{you}_division"], rows[f"{you}_worth"], rows[f"{you}_draw"])
        theirs = Duelist("Their duelist", rows[f"{them}_division"], rows[f"{them}_worth"], rows[f"{them}_draw"])
        _check_worth_input(mine, slot, 0, rows[f"{you}_bonus"], division_penalty, f"{you}_division", f"{you}_division")
        _check_worth_input(theirs, slot, rows[f"{them}_votes"], rows[f"{them}_bonus"], division_penalty, f"{them}_votes", f"{them}_division")
        matchups.append(Matchup(slot, mine, theirs, rows[f"{them}_votes"], rows[f"{you}_bonus"], rows[f"{them}_bonus"]))
    plan = plan_votes(matchups, votes, objective=objective, division_penalty=division_penalty, half_draw=half_draw,
                      successes_worth=successes_worth, sudden_death=sudden_death)
    split = ", ".join(f"{DIVISION_NAMES[d.slot]} {d.votes}" for d in plan.duels)
    risk = plan.trainwreck_risk
    headline = (f"Votes: {split}. Expected Successes {about(plan.expected_successes)} to {about(plan.expected_opponent_successes)}; "
                f"chance to take the Weekend {percent(plan.win_chance)}; Trainwreck risk {percent(risk) if risk else 'none'}.")
    details = [_plan_line(d) for d in plan.duels]
    spend = f"{plan.spent} of the {plan.pool} votes spent"
    if plan.room < plan.pool:
        spend += f"; your four Draws take only {plan.room}"
    details.append(spend + (f"; the other {plan.pool - plan.spent} can pay for cards." if plan.spent < plan.pool else "."))
    details.append(f"The Weekend: yours on Successes {chance(plan.win_chance)}, even {chance(plan.even_chance)}, "
                   f"theirs {chance(1 - plan.win_chance - plan.even_chance)}.")  # the percentage first, the exact odds second
    aim = {"successes": "the most expected Successes", "margin": "the widest expected lead in Successes",
           "win": "the best chance to take the Weekend"}[objective]
    others = plan.as_good - 1
    details.append(f"Compared all {plan.splits:,} way{'s' if plan.splits != 1 else ''} to split up to {plan.pool} vote{'s' if plan.pool != 1 else ''} "
                   f"within the Draws for {aim}, then fewer expected Trainwrecks, fewer votes, and the closest duels kept as far "
                   f"ahead as they go" + (f"; {others} other split{'s do' if others > 1 else ' does'} exactly as well." if others else "."))
    rules = ["rpgdl.votes.worth", "rpgdl.votes.limit", "rpgdl.ruling.vote-worth"]
    for d in plan.duels:
        for _, r in d.results:
            rules += duel_rules(r)
        if len(d.results) > 1:
            rules.append("rpgdl.ruling.roll-off")
    odds = tuple(("No Trainwreck" if n == 0 else f"{n} Trainwreck{'s' if n > 1 else ''} for you", p) for n, p in sorted(plan.trainwrecks.items()))
    outcome = "no-trainwreck" if not risk else "trainwreck" if risk == 1 else "trainwreck-risk"
    return Report(outcome, headline, tuple(details), tuple(dict.fromkeys(rules)), odds, "Your Trainwrecks this Weekend")


# ---------------------------------------------------------------- the season tracker


def season_step(state: Season, action: Action, rng: random.Random | None) -> tuple[Season, Report]:
    """One action on a season (league_actions.apply_action), or undo, redo or show, as declared (league_actions.SPECS);
    a roll-off left out is rolled with `rng`."""
    spec = ACTION_SPECS[action["do"]]
    if not spec.records:
        return cast("tuple[Season, Report]", spec.handler(state))
    roll = None if rng is None else (lambda: _roll_off_dice(rng))
    new, entry, notes = apply_action(state, action, roll)
    if state_length(new) > STATE_MAX_CHARS:  # as the page keeps it (compact), each log entry's text written once
        raise InputError(f"This would make the season too big to keep (over {STATE_MAX_CHARS:,} characters): "
                         "shorten the names or decklists, or export it and start a new season.", "action")
    rolled = entry["action"].get("rolls") if rng is not None and not action.get("rolls") else None
    dice = {"rolls": " ".join(f"{a} {b}" for a, b in rolled)} if rolled else {}
    return new, Report(new["result"]["outcome"], entry["headline"], tuple(notes + entry["details"] + [new["result"]["headline"]]),
                       tuple(entry["rules"]), dice=dice)


def describe_season(state: Season) -> str:
    """A season in a few lines for a person (the command line's `track rpgdl.season FILE`)."""
    names = {p: state["players"][p]["name"] for p in PLAYERS}
    championship = state["settings"]["goal"] == "championship"
    lines = [f"{names['first']} against {names['second']}: {state['result']['headline']}",
             "Settings: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in state["settings"].items()) + "."]
    keys = ("successes", "trainwrecks") + (("points",) if championship else ())
    if state["standings"]:
        lines.append("Week  " + "  ".join(f"{k.capitalize():<12}" for k in keys))
        counts = [cast("Mapping[str, int]", s) for s in state["standings"]]
        lines += [f"{s['week']:<4}  " + "  ".join(f"{s['first_' + k]} to {s['second_' + k]:<7}" for k in keys) for s in counts]
    for p in PLAYERS:
        pool = state["players"][p]["nom_pool"]
        if pool:
            left = ", ".join(f"{DIVISION_NAMES[d]} {sum(1 for e in pool if e['division'] == d and e['discarded'] is None)}" for d in DIVISIONS)
            out = ", ".join(f"{DIVISION_NAMES[d]} ({f'week {w}' if w else 'from the start'})" for d, w in state["run_out"][p].items())
            lines.append(f"{names[p]}'s Roster: {left}" + (f"; run out: {out}" if out else "") + ".")
    crowned = [f"{DIVISION_NAMES[d]} {names[c['player']]}" for d, c in state["champions"].items() if c]
    if championship:
        lines.append("Champions: " + (", ".join(crowned) or "none yet") + ".")
    lines.append(f"Log: {len(state['log'])} entr{'y' if len(state['log']) == 1 else 'ies'}.")
    return "\n".join(lines)
