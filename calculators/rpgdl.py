"""RPGDL TCG: duels, Weekends, Trainwrecks, the Season and deck checks.

The rules live in docs/rpgdl/; each function names the rule IDs it follows.
RPGDL has no dice except the roll-off (this site's ruling for priority and
Sudden Death: each player rolls a d6, higher wins, ties are rolled again), so
most results are certain and only roll-offs carry odds.
"""

from __future__ import annotations

import random
import re
import string
from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping, Sequence

import icepool

from .dice import dice_or_roll, parse_dice, roll_dice
from .registry import Calculator, InputError, Legacy, Param, Report
from .registry import parse_numbers, quote

__all__ = [
    "DIVISIONS",
    "IMPROPER_PENALTY",
    "CHAMPIONSHIP_POINTS",
    "SEASON_WEEKS",
    "Duelist",
    "WorthParts",
    "DuelResult",
    "WeekendResult",
    "WeekScore",
    "SeasonResult",
    "ChampionshipResult",
    "VotePool",
    "DeckCheck",
    "division_gap",
    "worth_parts",
    "modified_worth",
    "trainwreck_reasons",
    "is_trainwreck",
    "resolve_duel",
    "roll_off",
    "roll_off_odds",
    "resolve_weekend",
    "season_tally",
    "championship_points",
    "championship_tally",
    "vote_pool",
    "parse_nom_pool",
    "check_nom_pool",
    "parse_season_deck",
    "check_season_deck",
    "CALCULATORS",
]

# ---------------------------------------------------------------- rule data

DIVISIONS = ("godlike", "heavy", "middle", "light")  # rpgdl.divisions.order, highest first
DIVISION_NAMES = {"godlike": "Godlike", "heavy": "Heavy", "middle": "Middle", "light": "Light"}
IMPROPER_PENALTY = 2  # rpgdl.divisions.improper
TRAINWRECK_GAP = 2  # rpgdl.weekend.trainwreck: "two divisions lower"
CHAMPIONSHIP_POINTS = {"godlike": 5, "heavy": 5, "middle": 4, "light": 3}  # rpgdl.championship.points
SEASON_WEEKS = 5  # rpgdl.season.length
STARTING_GENERIC_VOTERS = 10  # rpgdl.voters.starting
NOM_POOL_SIZE = 20  # rpgdl.decks.nom-pool-size
NOM_POOL_PER_DIVISION = 5  # rpgdl.decks.nom-pool-spread
SEASON_DECK_MINIMUM = 40  # rpgdl.decks.season-deck-size
SEASON_DECK_COPIES = 4  # rpgdl.decks.season-deck-copies
ROLL_OFF_SIDES = 6  # rpgdl.ruling.roll-off

# Settings where a table may read the text differently; the first is the ruling.
# Labels fit a phone's select box (about 22 characters); the params' help says more.
DIVISION_PENALTY = (("flat", "-2 flat (ruling)"), ("per-division", "-2 per division"))
HALF_DRAW = (("at-most", "Half or less (ruling)"), ("exactly", "Exactly half"))
SUCCESSES_WORTH = (("modified", "Modified Worth (ruling)"), ("base", "Printed Worth"))
SUDDEN_DEATH = (("roll-off", "Roll-off (ruling)"), ("no-winner", "Nobody wins"))
SEASON_TIE = (("draw", "A draw (ruling)"), ("fewer-trainwrecks", "Fewer Trainwrecks wins"))
GOALS = (("successes", "Most Successes"), ("championship", "Championship points"))
CHAMPIONS = (("none", "Not crowned yet"), ("first", "First player"), ("second", "Second player"))
DEFAULT_TRAINWRECK_LIMIT = 3  # rpgdl.ruling.trainwreck-limit
DEFAULT_GENERIC_WEIGHT = 1  # rpgdl.ruling.generic-voter-weight

PLAYERS = ("first", "second")

# ---------------------------------------------------------------- checks


def _whole(value: object, what: str, *, minimum: int | None = None, maximum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be a whole number; got {str(value)[:40]!r}.")
    if minimum is not None and value < minimum:
        raise ValueError(f"{what} must be at least {minimum}; got {value}.")
    if maximum is not None and value > maximum:
        raise ValueError(f"{what} must be at most {maximum}; got {value}.")
    return value


def _division(value: object, what: str = "A division") -> str:
    text = str(value).strip().lower()
    for d in DIVISIONS:
        if text == d or (len(text) == 1 and d.startswith(text)):
            return d
    raise ValueError(f"{what} is Godlike, Heavy, Middle or Light; got {str(value)[:40]!r}.")


def _choice(value: str, choices: tuple[tuple[str, str], ...], what: str) -> str:
    allowed = [v for v, _ in choices]
    if value not in allowed:
        raise ValueError(f"{what} is one of {', '.join(allowed)}; got {str(value)[:40]!r}.")
    return value


def _player(value: object, what: str) -> str:
    if value not in PLAYERS:
        raise ValueError(f"{what} is 'first' or 'second'; got {str(value)[:40]!r}.")
    return str(value)


# ---------------------------------------------------------------- duelists and Worth


@dataclass(frozen=True)
class Duelist:
    """A duelist card: name, division, printed Worth and Draw (rpgdl.cards.duelist)."""

    name: str
    division: str
    worth: int
    draw: int

    def __post_init__(self):
        if not isinstance(self.name, str):
            raise ValueError("A duelist's name is text.")
        object.__setattr__(self, "division", _division(self.division, f"{self.name or 'A duelist'}'s division"))
        _whole(self.worth, f"{self.name or 'A duelist'}'s printed Worth", minimum=0)
        _whole(self.draw, f"{self.name or 'A duelist'}'s Draw", minimum=0)


def division_gap(higher: str, lower: str) -> int:
    """How many divisions `lower` sits below `higher` (negative if it is above)."""
    return DIVISIONS.index(_division(lower)) - DIVISIONS.index(_division(higher))


@dataclass(frozen=True)
class WorthParts:
    """How a duelist's modified Worth is made up (rpgdl.worth.modified)."""

    base: int
    votes: int
    bonus: int
    penalty: int  # the improper-division penalty, 0 or more

    @property
    def total(self) -> int:
        return self.base + self.votes + self.bonus - self.penalty


def worth_parts(duelist: Duelist, slot: str, votes: int = 0, *, bonus: int = 0, division_penalty: str = "flat") -> WorthParts:
    """Printed Worth, votes, other effects and the improper-division penalty."""
    slot = _division(slot, "A slot")
    _choice(division_penalty, DIVISION_PENALTY, "The division-penalty setting")
    _whole(votes, f"Votes on {duelist.name}", minimum=0)
    _whole(bonus, f"Other Worth changes on {duelist.name}")
    up = division_gap(slot, duelist.division)  # > 0: the duelist plays up into a higher slot
    if up < 0:
        raise ValueError(
            f"{duelist.name} is a {DIVISION_NAMES[duelist.division]} duelist and cannot fight in the "
            f"{DIVISION_NAMES[slot]} slot: a duelist may play up a division, never down."
        )
    if votes > duelist.draw:
        raise ValueError(f"{duelist.name} has a Draw of {duelist.draw}, so it takes at most {duelist.draw} votes; got {votes}.")
    penalty = 0 if up == 0 else IMPROPER_PENALTY * (up if division_penalty == "per-division" else 1)
    return WorthParts(duelist.worth, votes, bonus, penalty)


def modified_worth(duelist: Duelist, slot: str, votes: int = 0, *, bonus: int = 0, division_penalty: str = "flat") -> int:
    """Worth + votes (+1 each, at most the Draw) + other effects, -2 when playing up a division."""
    return worth_parts(duelist, slot, votes, bonus=bonus, division_penalty=division_penalty).total


# ---------------------------------------------------------------- Trainwrecks


def trainwreck_reasons(loser: Duelist, winner: Duelist, *, half_draw: str = "at-most") -> tuple[str, ...]:
    """Why the loser's controller suffers a Trainwreck: "division-gap", "half-draw", or nothing."""
    _choice(half_draw, HALF_DRAW, "The half-Draw setting")
    reasons = []
    if division_gap(loser.division, winner.division) >= TRAINWRECK_GAP:
        reasons.append("division-gap")
    half = loser.draw // 2
    if (winner.draw <= half) if half_draw == "at-most" else (winner.draw == half):
        reasons.append("half-draw")
    return tuple(reasons)


def is_trainwreck(loser: Duelist, winner: Duelist, *, half_draw: str = "at-most") -> bool:
    """Lost to a duelist two or more divisions lower, or with half the loser's Draw (rounded down)."""
    return bool(trainwreck_reasons(loser, winner, half_draw=half_draw))


# ---------------------------------------------------------------- one duel


@dataclass(frozen=True)
class DuelResult:
    slot: str
    first: Duelist
    second: Duelist
    first_worth: int
    second_worth: int
    winner: str | None  # "first", "second", or None: Sudden Death not (yet) settled
    successes: int
    trainwreck: bool  # the loser's controller suffers one
    trainwreck_reasons: tuple[str, ...]
    sudden_death: bool
    first_parts: WorthParts
    second_parts: WorthParts

    @property
    def loser(self) -> str | None:
        return None if self.winner is None else ("second" if self.winner == "first" else "first")


def resolve_duel(
    slot: str,
    first: Duelist,
    second: Duelist,
    *,
    first_votes: int = 0,
    second_votes: int = 0,
    first_bonus: int = 0,
    second_bonus: int = 0,
    division_penalty: str = "flat",
    half_draw: str = "at-most",
    successes_worth: str = "modified",
    sudden_death_winner: str | None = None,
) -> DuelResult:
    """One duel of the Weekend (rpgdl.weekend.duel): higher modified Worth wins.

    A tie is Sudden Death: `winner` is None unless `sudden_death_winner`
    ("first" or "second", who won the roll-off) settles it.
    """
    slot = _division(slot, "A slot")
    _choice(successes_worth, SUCCESSES_WORTH, "The Successes-Worth setting")
    if sudden_death_winner is not None:
        _player(sudden_death_winner, "The Sudden Death winner")
    fp = worth_parts(first, slot, first_votes, bonus=first_bonus, division_penalty=division_penalty)
    sp = worth_parts(second, slot, second_votes, bonus=second_bonus, division_penalty=division_penalty)
    sudden = fp.total == sp.total
    if sudden:
        winner = sudden_death_winner
    else:
        winner = "first" if fp.total > sp.total else "second"
    successes, reasons = 0, ()
    if winner is not None:
        w, l = (first, second) if winner == "first" else (second, first)
        wp, lp = (fp, sp) if winner == "first" else (sp, fp)
        if successes_worth == "modified":
            successes = wp.total - lp.total
        else:
            successes = max(0, w.worth - l.worth)
        reasons = trainwreck_reasons(l, w, half_draw=half_draw)
    return DuelResult(slot, first, second, fp.total, sp.total, winner, successes, bool(reasons), reasons, sudden, fp, sp)


def roll_off(first_die: int, second_die: int) -> str | None:
    """A roll-off (rpgdl.ruling.roll-off): higher d6 wins; None on a tie (roll again)."""
    for v, who in ((first_die, "first"), (second_die, "second")):
        _whole(v, f"The {who} player's roll-off die")
        if not 1 <= v <= ROLL_OFF_SIDES:
            raise ValueError(f"A d{ROLL_OFF_SIDES} shows 1 to {ROLL_OFF_SIDES}; got {v}.")
    if first_die == second_die:
        return None
    return "first" if first_die > second_die else "second"


def roll_off_odds() -> dict[str, Fraction]:
    """Who wins a roll-off, ties rolled again: exactly even."""
    d = icepool.d6
    die = icepool.map(lambda a, b: "first" if a > b else ("second" if b > a else icepool.Reroll), d, d)
    return dict(zip(die.outcomes(), die.probabilities()))


# ---------------------------------------------------------------- the Weekend


@dataclass(frozen=True)
class WeekendResult:
    duels: tuple[DuelResult, ...]  # Godlike, Heavy, Middle, Light
    first_successes: int
    second_successes: int
    first_trainwrecks: int
    second_trainwrecks: int
    first_returned: tuple[str, ...]
    first_discarded: tuple[str, ...]
    second_returned: tuple[str, ...]
    second_discarded: tuple[str, ...]


def _four(values, what: str) -> tuple:
    values = tuple(values)
    if len(values) != len(DIVISIONS):
        raise ValueError(f"A Weekend has four duels, Godlike, Heavy, Middle and Light; {what} has {len(values)}.")
    return values


def resolve_weekend(
    first: Sequence[Duelist],
    second: Sequence[Duelist],
    *,
    first_votes: Sequence[int] = (0, 0, 0, 0),
    second_votes: Sequence[int] = (0, 0, 0, 0),
    first_bonus: Sequence[int] = (0, 0, 0, 0),
    second_bonus: Sequence[int] = (0, 0, 0, 0),
    division_penalty: str = "flat",
    half_draw: str = "at-most",
    successes_worth: str = "modified",
    sudden_death: str = "roll-off",
    sudden_death_winners: Mapping[str, str] | None = None,
) -> WeekendResult:
    """The four duels from Godlike down to Light, then the Results (rpgdl.weekend.*).

    Duelists and votes are listed in slot order. With the roll-off ruling a
    tied duel needs its roll-off winner in `sudden_death_winners` (slot ->
    "first"/"second"); with "no-winner" a tie scores nothing and both return.
    """
    first, second = _four(first, "the first player's line-up"), _four(second, "the second player's line-up")
    fv, sv = _four(first_votes, "the first player's votes"), _four(second_votes, "the second player's votes")
    fb, sb = _four(first_bonus, "the first player's Worth changes"), _four(second_bonus, "the second player's Worth changes")
    _choice(sudden_death, SUDDEN_DEATH, "The Sudden Death setting")
    winners = dict(sudden_death_winners or {})
    for slot in winners:
        _division(slot, "A Sudden Death slot")
    duels = []
    for i, slot in enumerate(DIVISIONS):
        kwargs = dict(division_penalty=division_penalty, half_draw=half_draw, successes_worth=successes_worth)
        duel = resolve_duel(slot, first[i], second[i], first_votes=fv[i], second_votes=sv[i], first_bonus=fb[i], second_bonus=sb[i], **kwargs)
        if duel.sudden_death and sudden_death == "roll-off":
            if slot not in winners:
                raise ValueError(f"The {DIVISION_NAMES[slot]} duel is tied and goes to Sudden Death: say who won the roll-off.")
            duel = resolve_duel(slot, first[i], second[i], first_votes=fv[i], second_votes=sv[i], first_bonus=fb[i], second_bonus=sb[i], sudden_death_winner=winners[slot], **kwargs)
        duels.append(duel)
    score = {p: 0 for p in PLAYERS}
    wrecks = {p: 0 for p in PLAYERS}
    returned: dict[str, list[str]] = {p: [] for p in PLAYERS}
    discarded: dict[str, list[str]] = {p: [] for p in PLAYERS}
    for d in duels:
        names = {"first": d.first.name, "second": d.second.name}
        if d.winner is None:
            for p in PLAYERS:
                returned[p].append(names[p])
            continue
        score[d.winner] += d.successes
        wrecks[d.loser] += int(d.trainwreck)
        returned[d.winner].append(names[d.winner])
        discarded[d.loser].append(names[d.loser])
    return WeekendResult(
        tuple(duels), score["first"], score["second"], wrecks["first"], wrecks["second"],
        tuple(returned["first"]), tuple(discarded["first"]), tuple(returned["second"]), tuple(discarded["second"]),
    )


# ---------------------------------------------------------------- the Season


@dataclass(frozen=True)
class WeekScore:
    """What one week's Results gave each player."""

    first_successes: int = 0
    second_successes: int = 0
    first_trainwrecks: int = 0
    second_trainwrecks: int = 0

    def __post_init__(self):
        for name in ("first_successes", "second_successes", "first_trainwrecks", "second_trainwrecks"):
            _whole(getattr(self, name), name.replace("_", " ").capitalize(), minimum=0)


@dataclass(frozen=True)
class ChampionshipResult:
    first_points: int
    second_points: int
    crowned: tuple[str, ...]  # divisions with a champion
    winner: str | None  # None until four champions are crowned


@dataclass(frozen=True)
class SeasonResult:
    outcome: str  # first-wins, second-wins, draw, first-trainwrecked, second-trainwrecked, both-trainwrecked, in-progress
    winner: str | None
    weeks_played: int
    ended_week: int | None  # the week a Trainwreck loss ended the game
    first_successes: int
    second_successes: int
    first_trainwrecks: int
    second_trainwrecks: int
    championship: ChampionshipResult | None = None


def championship_points(division: str) -> int:
    """Points for winning a division under the alternate goal: 5/5/4/3."""
    return CHAMPIONSHIP_POINTS[_division(division)]


def championship_tally(champions: Mapping[str, str]) -> ChampionshipResult:
    """Championship points (rpgdl.championship.*): division -> "first"/"second" champion."""
    points = {p: 0 for p in PLAYERS}
    crowned = []
    for division, who in champions.items():
        division = _division(division)
        if who in (None, "none"):
            continue
        points[_player(who, f"The {DIVISION_NAMES[division]} champion")] += championship_points(division)
        crowned.append(division)
    crowned_t = tuple(d for d in DIVISIONS if d in crowned)
    winner = None
    if len(crowned_t) == len(DIVISIONS):  # the total 17 is odd: never a tie
        winner = "first" if points["first"] > points["second"] else "second"
    return ChampionshipResult(points["first"], points["second"], crowned_t, winner)


def season_tally(
    weeks: Sequence[WeekScore],
    *,
    trainwreck_limit: int = DEFAULT_TRAINWRECK_LIMIT,
    season_tie: str = "draw",
    goal: str = "successes",
    champions: Mapping[str, str] | None = None,
) -> SeasonResult:
    """Add up a Season week by week; X Trainwrecks end the game at once."""
    weeks = tuple(weeks)
    if not 1 <= len(weeks) <= SEASON_WEEKS:
        raise ValueError(f"A Season has {SEASON_WEEKS} weeks; give the results of 1 to {SEASON_WEEKS} weeks, got {len(weeks)}.")
    for w in weeks:
        if not isinstance(w, WeekScore):
            raise ValueError("Each week's results are a WeekScore.")
    _whole(trainwreck_limit, "The Trainwreck limit", minimum=1)
    _choice(season_tie, SEASON_TIE, "The season-tie setting")
    _choice(goal, GOALS, "The game goal")
    fs = ss = ft = st = 0
    played, ended = 0, None
    for n, w in enumerate(weeks, start=1):
        fs, ss = fs + w.first_successes, ss + w.second_successes
        ft, st = ft + w.first_trainwrecks, st + w.second_trainwrecks
        played = n
        if ft >= trainwreck_limit or st >= trainwreck_limit:
            ended = n
            break
    champ = championship_tally(champions or {}) if goal == "championship" else None
    if ended is not None:
        if ft >= trainwreck_limit and st >= trainwreck_limit:
            outcome, winner = "both-trainwrecked", None
        elif ft >= trainwreck_limit:
            outcome, winner = "first-trainwrecked", "second"
        else:
            outcome, winner = "second-trainwrecked", "first"
    elif goal == "championship":
        winner = champ.winner
        outcome = "in-progress" if winner is None else f"{winner}-wins"
    elif played < SEASON_WEEKS:
        outcome, winner = "in-progress", None
    elif fs != ss:
        winner = "first" if fs > ss else "second"
        outcome = f"{winner}-wins"
    elif season_tie == "fewer-trainwrecks" and ft != st:
        winner = "first" if ft < st else "second"
        outcome = f"{winner}-wins"
    else:
        outcome, winner = "draw", None
    return SeasonResult(outcome, winner, played, ended, fs, ss, ft, st, champ)


# ---------------------------------------------------------------- votes


@dataclass(frozen=True)
class VotePool:
    generic_voters: int
    unique_weights: tuple[int, ...]
    generic_weight: int

    @property
    def votes(self) -> int:
        return self.generic_voters * self.generic_weight + sum(self.unique_weights)


def vote_pool(generic_voters: int = STARTING_GENERIC_VOTERS, unique_weights: Sequence[int] = (), *, generic_weight: int = DEFAULT_GENERIC_WEIGHT) -> VotePool:
    """Votes a player's Voters give at the start of the turn (rpgdl.voters.generate)."""
    _whole(generic_voters, "The number of Generic Voters", minimum=0)
    _whole(generic_weight, "A Generic Voter's Vote Weight", minimum=0)
    weights = tuple(_whole(w, "A unique Voter's Vote Weight", minimum=0) for w in unique_weights)
    if generic_voters + len(weights) > STARTING_GENERIC_VOTERS:
        raise ValueError(
            f"The Voter Row has {STARTING_GENERIC_VOTERS} slots; {generic_voters} Generic Voters and "
            f"{len(weights)} unique Voters make {generic_voters + len(weights)}."
        )
    return VotePool(generic_voters, weights, generic_weight)


# ---------------------------------------------------------------- deck checks


@dataclass(frozen=True)
class DeckCheck:
    legal: bool
    total: int
    problems: tuple[str, ...]
    counts: Mapping[str, int]  # Nom Pool: per division; Season Deck: per card


# Caps on the text fields. A Nom Pool is 20 duelists and a Season Deck some
# 40 to 100 cards: long names, comments and spare lines fit many times over.
NOM_POOL_MAX_LENGTH = 10_000  # characters
NOM_POOL_MAX_LINES = 200
SEASON_DECK_MAX_LENGTH = 20_000  # characters
SEASON_DECK_MAX_LINES = 1_000
COPY_DIGITS = 6  # more copies than any deck holds; also keeps int() under Python's digit limit
NUMBER_LIST_MAX_LENGTH = 200  # characters of a list of numbers (five weeks, ten Voters)
DUELIST_NAME_MAX_LENGTH = 200  # characters of one duelist's name in the Weekend's form
NUMBER_LIST_MAX_ITEMS = 50
WEEK_SUCCESSES_MAX = 999  # a week's Successes: four duels' Worth differences
WEEK_TRAINWRECKS_MAX = 99
VOTE_WEIGHT_MAX = 99

_NOM_SEPARATORS = (",", ";", "|", "(")
_NOM_DASHES = ("-", "–")  # only with a space on each side: "Worker 8 - Heavy"


def _lines(text: str, most: int, what: str) -> list[str]:
    lines = str(text).splitlines()
    if len(lines) > most:
        raise ValueError(f"{what} has at most {most:,} lines; this one has {len(lines):,}.")
    return lines


def _nom_line(line: str) -> tuple[str, str] | None:
    """Split "Name, Division" (also ";", "|", " - ", "Name (Division)") into name and division word.

    The division is the run of letters at the end, the separator just before
    it. str.rstrip, no regular expression: linear however the line runs.
    None when the line is not of that shape.
    """
    body = line[:-1].rstrip() if line.endswith(")") else line
    head = body.rstrip(string.ascii_letters)
    division = body[len(head):]
    before = head.rstrip()
    if not division:
        return None
    if before.endswith(_NOM_SEPARATORS):
        name = before[:-1]
    elif before.endswith(_NOM_DASHES) and len(before) < len(head) and before[:-1] != before[:-1].rstrip():
        name = before[:-1]
    else:
        return None
    name = name.strip()
    return (name, division) if name else None


def parse_nom_pool(text: str) -> tuple[tuple[str, str], ...]:
    """Read one duelist a line, "Name, Division" (or "Name (Division)"), at most NOM_POOL_MAX_LINES lines."""
    out = []
    for n, line in enumerate(_lines(text, NOM_POOL_MAX_LINES, "A Nom Pool"), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        found = _nom_line(line)
        if found is None:
            raise ValueError(f"Line {n} should read like 'Worker 8, Heavy'; got {quote(line, 40)}.")
        out.append((found[0], _division(found[1], f"Line {n}'s division")))
    return tuple(out)


def _norm(name: str) -> str:
    return " ".join(name.split()).casefold()


def check_nom_pool(duelists: Sequence[Duelist | tuple[str, str]]) -> DeckCheck:
    """20 different duelists, at most 5 per division place, lower may replace higher (rpgdl.decks.*)."""
    pairs = []
    for d in duelists:
        if isinstance(d, Duelist):
            pairs.append((d.name, d.division))
        else:
            name, division = d
            pairs.append((str(name), _division(division, f"{name}'s division")))
    problems = []
    if len(pairs) != NOM_POOL_SIZE:
        problems.append(f"A Nom Pool has exactly {NOM_POOL_SIZE} duelists; this one has {len(pairs)}.")
    seen: dict[str, str] = {}
    for name, _ in pairs:
        key = _norm(name)
        if key in seen:
            problems.append(f"{name} is in the Nom Pool twice; only one duelist of each name may be used.")
        seen.setdefault(key, name)
    counts = {d: sum(1 for _, div in pairs if div == d) for d in DIVISIONS}
    running = 0
    for i, d in enumerate(DIVISIONS[:-1]):
        running += counts[d]
        cap = NOM_POOL_PER_DIVISION * (i + 1)
        if running > cap:
            above = " and ".join(DIVISION_NAMES[x] for x in DIVISIONS[: i + 1])
            problems.append(
                f"{running} duelists are {above}; at most {cap} may be, since a lower division may fill a higher "
                f"division's place but never the other way round."
            )
    return DeckCheck(not problems, len(pairs), tuple(problems), counts)


_TIMES = ("x", "X", "×")


def _signed_digits(text: str) -> str | None:
    """`text` if it is a whole number in ASCII digits, such as '4' or '-2'; else None."""
    digits = text[1:] if text[:1] == "-" else text
    return text if digits.isascii() and digits.isdigit() else None


def _deck_line(line: str) -> tuple[str | None, str]:
    """Split "4 Name", "4x Name", "4 x Name", "Name x4" or "Name x 4" into count and name.

    A bare name has no count. str.split, no regular expression: linear
    however the line's spaces, digits and x's run.
    """
    parts = line.split(None, 1)
    if len(parts) == 2:
        first = parts[0][:-1] if parts[0][-1] in _TIMES else parts[0]
        count = _signed_digits(first)
        if count is not None:
            name = parts[1]
            if first == parts[0]:  # "4 x Name"
                more = name.split(None, 1)
                if len(more) == 2 and more[0] in _TIMES:
                    name = more[1]
            return count, name
    parts = line.rsplit(None, 1)
    if len(parts) == 2:
        head, last = parts
        if last[0] in _TIMES and (count := _signed_digits(last[1:])) is not None:  # "Name x4"
            return count, head
        inner = head.rsplit(None, 1)
        if len(inner) == 2 and inner[1] in _TIMES and (count := _signed_digits(last)) is not None:  # "Name x 4"
            return count, inner[0]
    return None, line


def parse_season_deck(text: str) -> dict[str, int]:
    """Read a decklist: "4 Suiko Scrub Flood", "Suiko Scrub Flood x4" or a name alone (one copy).

    At most SEASON_DECK_MAX_LINES lines; a count is 1 or more, in ASCII digits.
    """
    cards: dict[str, int] = {}
    names: dict[str, str] = {}
    for n, line in enumerate(_lines(text, SEASON_DECK_MAX_LINES, "A Season Deck list"), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        digits, name = _deck_line(line)
        name = name.strip()
        digits = digits or "1"
        if len(digits.lstrip("-")) > COPY_DIGITS:
            raise ValueError(f"Line {n}: {quote(digits)} copies of {quote(name, 40)} is more than any deck holds.")
        count = int(digits)
        if count < 1:
            raise ValueError(f"Line {n}: a card is listed with at least 1 copy; got {count} of {quote(name, 40)}.")
        key = _norm(name)
        names.setdefault(key, name)
        cards[names[key]] = cards.get(names[key], 0) + count
    return cards


def check_season_deck(cards: Mapping[str, int]) -> DeckCheck:
    """At least 40 cards, at most four copies of any card (rpgdl.decks.season-deck-*)."""
    merged: dict[str, int] = {}
    names: dict[str, str] = {}
    for name, count in cards.items():
        _whole(count, f"The number of copies of {name}", minimum=1)
        key = _norm(str(name))
        names.setdefault(key, str(name))
        merged[names[key]] = merged.get(names[key], 0) + count
    total = sum(merged.values())
    problems = []
    if total < SEASON_DECK_MINIMUM:
        problems.append(f"A Season Deck has at least {SEASON_DECK_MINIMUM} cards; this one has {total}.")
    for name, count in merged.items():
        if count > SEASON_DECK_COPIES:
            problems.append(f"{name}: {count} copies; a Season Deck holds at most {SEASON_DECK_COPIES} of any card.")
    return DeckCheck(not problems, total, tuple(problems), merged)


# ---------------------------------------------------------------- registry adapters

SETTING_PARAMS = {
    "division_penalty": Param("division_penalty", "Improper-division penalty", "choice", "flat", choices=DIVISION_PENALTY,
                              help="Ruling rpgdl.ruling.division-penalty: -2 whatever the gap; or -2 for each division of the gap", ruling="rpgdl.ruling.division-penalty"),
    "half_draw": Param("half_draw", "Half the Draw means", "choice", "at-most", choices=HALF_DRAW,
                       help="Ruling rpgdl.ruling.half-draw: the winner's Draw is at most half the loser's, rounded down; or exactly half", ruling="rpgdl.ruling.half-draw"),
    "successes_worth": Param("successes_worth", "Successes count", "choice", "modified", choices=SUCCESSES_WORTH,
                             help="Ruling rpgdl.ruling.successes-worth: the modified Worths; or the printed ones", ruling="rpgdl.ruling.successes-worth"),
    "sudden_death": Param("sudden_death", "Sudden Death", "choice", "roll-off", choices=SUDDEN_DEATH,
                          help="Ruling rpgdl.ruling.sudden-death: a roll-off decides a tie; or nobody wins and both duelists return", ruling="rpgdl.ruling.sudden-death"),
}


DIVISION_CHOICES = tuple((d, DIVISION_NAMES[d]) for d in DIVISIONS)


def _duelist_params(who: str, label: str) -> tuple[Param, ...]:
    """One duelist of a duel, one row of the form: division, Worth, Draw, votes, other changes."""
    return (
        Param(f"{who}_division", f"{label}: division", "choice", "heavy", choices=DIVISION_CHOICES, group=label, short="Division"),
        Param(f"{who}_worth", f"{label}: printed Worth", "int", minimum=0, maximum=99, group=label, short="Worth"),
        Param(f"{who}_draw", f"{label}: Draw", "int", minimum=0, maximum=99, group=label, short="Draw"),
        Param(f"{who}_votes", f"{label}: votes spent on it", "int", 0, minimum=0, maximum=99, group=label, short="Votes"),
        Param(f"{who}_bonus", f"{label}: other Worth changes (cards, abilities)", "int", 0, minimum=-99, maximum=99,
              group=label, short="Other ±"),
    )


def _weekend_params(slot: str, who: str) -> tuple[Param, ...]:
    """One duelist of the Weekend, one row of the form: `{slot}_{who}_name`, `_division`, `_worth`, ..."""
    group = f"{DIVISION_NAMES[slot]} slot, {who} player"
    field = f"{slot}_{who}"
    return (
        Param(f"{field}_name", f"{group}'s duelist name", "text", optional=True, group=group, short="Name",
              max_length=DUELIST_NAME_MAX_LENGTH,
              help=f"The duelist's name, if you like: the result uses it; up to {DUELIST_NAME_MAX_LENGTH} characters"),
        Param(f"{field}_division", f"{group}'s division", "choice", slot, choices=DIVISION_CHOICES, group=group, short="Division"),
        Param(f"{field}_worth", f"{group}'s Worth", "int", minimum=0, maximum=99, group=group, short="Worth",
              help="Printed Worth"),
        Param(f"{field}_draw", f"{group}'s Draw", "int", minimum=0, maximum=99, group=group, short="Draw"),
        Param(f"{field}_votes", f"{group}'s votes", "int", 0, minimum=0, maximum=99, group=group, short="Votes",
              help="Votes spent on it, at most its Draw"),
        Param(f"{field}_bonus", f"{group}'s other Worth changes", "int", 0, minimum=-99, maximum=99, group=group, short="Other ±",
              help="Other Worth changes (cards, abilities)"),
    )


WEEKEND_FIELDS = ("name", "division", "worth", "draw", "votes", "bonus")


def _roll_offs(raw, rng: random.Random | None, count: int, field: str, label: str) -> tuple[tuple[tuple[int, int], ...], list[str]]:
    """`count` roll-offs as pairs of d6, typed or rolled (ties rolled again)."""
    notes: list[str] = []
    if count == 0:
        return (), notes
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        if rng is None:
            raise InputError(f"{label}: type the two d6 of each roll-off (first player's, then second's), or let the page roll.", field)
        pairs = []
        for _ in range(count):
            while True:
                a, b = roll_dice(rng, count=2, sides=ROLL_OFF_SIDES)
                if a != b:
                    break
                notes.append(f"Roll-off {a} against {b} is a tie: rolled again.")
            pairs.append((a, b))
        return tuple(pairs), notes
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
        bits.append(f"{parts.bonus:+d} from other effects")
    if parts.penalty:
        bits.append(f"-{parts.penalty} for a {DIVISION_NAMES[d.division]} duelist in the {DIVISION_NAMES[slot]} slot")
    return f"{label} ({DIVISION_NAMES[d.division]}, Draw {d.draw}): " + ", ".join(bits) + f" = {parts.total}."


def _duel_rules(duel: DuelResult) -> list[str]:
    rules = ["rpgdl.worth.modified", "rpgdl.weekend.duel"]
    if duel.first_parts.votes or duel.second_parts.votes:
        rules += ["rpgdl.votes.worth", "rpgdl.votes.limit"]
    if duel.first_parts.penalty or duel.second_parts.penalty:
        rules += ["rpgdl.divisions.improper", "rpgdl.ruling.division-penalty"]
    if duel.sudden_death:
        rules += ["rpgdl.weekend.sudden-death", "rpgdl.ruling.sudden-death"]
    if duel.winner is not None:
        rules += ["rpgdl.weekend.successes", "rpgdl.ruling.successes-worth", "rpgdl.weekend.trainwreck"]
    if "half-draw" in duel.trainwreck_reasons:
        rules.append("rpgdl.ruling.half-draw")
    if "division-gap" in duel.trainwreck_reasons:
        rules.append("rpgdl.ruling.trainwreck-gap")
    return rules


def _explain_outcome(duel: DuelResult, names: Mapping[str, str]) -> list[str]:
    lines = []
    if duel.winner is None:
        return lines
    loser = duel.loser
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


def _adapt_duel(rng, *, slot, first_division, first_worth, first_draw, first_votes, first_bonus,
                second_division, second_worth, second_draw, second_votes, second_bonus,
                division_penalty, half_draw, successes_worth, sudden_death, sudden_death_roll) -> Report:
    first = Duelist("First duelist", first_division, first_worth, first_draw)
    second = Duelist("Second duelist", second_division, second_worth, second_draw)
    for who, d, v, b in (("first", first, first_votes, first_bonus), ("second", second, second_votes, second_bonus)):
        _check_worth_input(d, slot, v, b, division_penalty, f"{who}_votes", f"{who}_division")
    kwargs = dict(first_votes=first_votes, second_votes=second_votes, first_bonus=first_bonus, second_bonus=second_bonus,
                  division_penalty=division_penalty, half_draw=half_draw, successes_worth=successes_worth)
    duel = resolve_duel(slot, first, second, **kwargs)
    names = {"first": "The first duelist", "second": "The second duelist"}
    details = [_explain_worth("First duelist", first, duel.first_parts, duel.slot),
               _explain_worth("Second duelist", second, duel.second_parts, duel.slot)]
    dice: dict[str, str] = {}
    odds: tuple = ()
    highlight = None
    rules = _duel_rules(duel)
    if duel.sudden_death:
        details.append(f"Both stand at Worth {duel.first_worth}: the duel goes to Sudden Death.")
        if sudden_death == "roll-off":
            pairs, notes = _roll_offs(sudden_death_roll, rng, 1, "sudden_death_roll", "Sudden Death roll-off")
            (a, b), = pairs
            details += notes
            who = roll_off(a, b)
            details.append(f"Roll-off: first player {a}, second player {b}; the {who} player's duelist wins.")
            duel = resolve_duel(slot, first, second, sudden_death_winner=who, **kwargs)
            rules = _duel_rules(duel) + ["rpgdl.ruling.roll-off"]
            dice = {"sudden_death_roll": f"{a} {b}"}
            labels = {"first": "First duelist wins the roll-off", "second": "Second duelist wins the roll-off"}
            odds = tuple((labels[k], p) for k, p in roll_off_odds().items())
            highlight = labels[who]
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
    return Report(outcome, headline, tuple(details), tuple(dict.fromkeys(rules)), odds, "Sudden Death roll-off" if odds else "", highlight, dice)


def _adapt_trainwreck(rng, *, loser_division, loser_draw, winner_division, winner_draw, half_draw) -> Report:
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


def _parse_entry(raw: str, slot: str, who: str, field: str) -> dict[str, str]:
    """The older one-line duelist, "[Name:] division Worth Draw [votes [bonus]]", as the Weekend's fields.

    "Worker 8: heavy 6 4 2" -> {field}_name "Worker 8", _division "heavy",
    _worth "6", _draw "4", _votes "2". The numbers are checked by the fields.
    """
    text = str(raw).strip()
    out = {}
    if ":" in text:
        name, _, text = text.partition(":")
        if name.strip():
            out[f"{field}_name"] = name.strip()
    parts = text.replace(",", " ").split()
    example = f"'{slot} 6 4 2' (division, Worth, Draw, votes)"
    if not 3 <= len(parts) <= 5 or not all(re.fullmatch(r"[+-]?\d+", p) for p in parts[1:]):
        raise InputError(f"{DIVISION_NAMES[slot]} slot, {who} player: type the duelist like {example}; got {text[:40]!r}.", field)
    try:
        out[f"{field}_division"] = _division(parts[0], f"{DIVISION_NAMES[slot]} slot, {who} player: the division")
    except ValueError as err:
        raise InputError(str(err), field) from None
    out.update((f"{field}_{key}", value) for key, value in zip(WEEKEND_FIELDS[2:], parts[1:]))
    return out


def _weekend_legacy(slot: str, who: str) -> Legacy:
    """`{slot}_{who}`, the older one-line field, still read from links, code and the command line."""
    field = f"{slot}_{who}"
    return Legacy(field, f"The {DIVISION_NAMES[slot]} slot, {who} player's duelist",
                  tuple(f"{field}_{key}" for key in WEEKEND_FIELDS),
                  lambda raw: _parse_entry(raw, slot, who, field), help=_ENTRY_HELP)


def _adapt_weekend(rng, *, division_penalty, half_draw, successes_worth, sudden_death, sudden_death_rolls, **duelists) -> Report:
    line = {p: [] for p in PLAYERS}
    votes = {p: [] for p in PLAYERS}
    bonus = {p: [] for p in PLAYERS}
    for slot in DIVISIONS:
        for who in PLAYERS:
            field = f"{slot}_{who}"
            name = (duelists[f"{field}_name"] or "").strip() or f"{'1st' if who == 'first' else '2nd'} {DIVISION_NAMES[slot]}"
            line[who].append(Duelist(name, duelists[f"{field}_division"], duelists[f"{field}_worth"], duelists[f"{field}_draw"]))
            votes[who].append(duelists[f"{field}_votes"])
            bonus[who].append(duelists[f"{field}_bonus"])
    settings = dict(division_penalty=division_penalty, half_draw=half_draw, successes_worth=successes_worth)
    ties = []
    for i, slot in enumerate(DIVISIONS):
        for who in PLAYERS:  # a duelist out of place or over its Draw: point at that field
            _check_worth_input(line[who][i], slot, votes[who][i], bonus[who][i], division_penalty,
                               f"{slot}_{who}_votes", f"{slot}_{who}_division")
        try:
            duel = resolve_duel(slot, line["first"][i], line["second"][i], first_votes=votes["first"][i], second_votes=votes["second"][i],
                                first_bonus=bonus["first"][i], second_bonus=bonus["second"][i], **settings)
        except ValueError as err:
            raise InputError(str(err), f"{slot}_first_division") from None
        if duel.sudden_death:
            ties.append(slot)
    winners: dict[str, str] = {}
    dice: dict[str, str] = {}
    details: list[str] = []
    odds: tuple = ()
    highlight = None
    if ties and sudden_death == "roll-off":
        pairs, notes = _roll_offs(sudden_death_rolls, rng, len(ties), "sudden_death_rolls", "Sudden Death roll-offs")
        details += notes
        for slot, (a, b) in zip(ties, pairs):
            winners[slot] = roll_off(a, b)
            details.append(f"{DIVISION_NAMES[slot]} duel tied: Sudden Death roll-off {a} against {b}, the {winners[slot]} player wins it.")
        dice["sudden_death_rolls"] = " ".join(f"{a} {b}" for a, b in pairs)
    result = resolve_weekend(line["first"], line["second"], first_votes=votes["first"], second_votes=votes["second"],
                             first_bonus=bonus["first"], second_bonus=bonus["second"], sudden_death=sudden_death,
                             sudden_death_winners=winners, **settings)
    rules = ["rpgdl.weekend.order", "rpgdl.weekend.discard-losers", "rpgdl.weekend.return-winners"]
    lines = []
    for duel in result.duels:
        lines.append(f"{DIVISION_NAMES[duel.slot]}: {duel.first.name} {duel.first_worth} against {duel.second.name} {duel.second_worth}"
                     + ("" if duel.winner else " - tied, nobody wins") + (
                         f" - {duel.winner} player wins, {duel.successes} Success{'es' if duel.successes != 1 else ''}"
                         + (", Trainwreck for the loser" if duel.trainwreck else "") if duel.winner else ""
                     ) + ".")
        rules += _duel_rules(duel)
    if winners:
        rules.append("rpgdl.ruling.roll-off")
    details = lines + details
    details.append(f"Returned to the Roster: first player {', '.join(result.first_returned) or 'none'}; "
                   f"second player {', '.join(result.second_returned) or 'none'}.")
    details.append(f"Discarded to Defeated Duelists: first player {', '.join(result.first_discarded) or 'none'}; "
                   f"second player {', '.join(result.second_discarded) or 'none'}.")
    if ties and sudden_death == "roll-off":
        # Every roll-off is an even chance; the Trainwrecks this Weekend may hang on them.
        counts: dict[tuple[int, int], Fraction] = {}
        half = roll_off_odds()
        for mask in range(2 ** len(ties)):
            pick = {slot: ("first" if mask >> k & 1 else "second") for k, slot in enumerate(ties)}
            p = Fraction(1)
            for slot in ties:
                p *= half[pick[slot]]
            r = resolve_weekend(line["first"], line["second"], first_votes=votes["first"], second_votes=votes["second"],
                                first_bonus=bonus["first"], second_bonus=bonus["second"], sudden_death=sudden_death,
                                sudden_death_winners=pick, **settings)
            key = (r.first_trainwrecks, r.second_trainwrecks)
            counts[key] = counts.get(key, Fraction(0)) + p
        label = lambda k: f"Trainwrecks {k[0]} (first) and {k[1]} (second)"  # noqa: E731
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


def _numbers(raw, field: str, label: str, maximum: int, example: str = "one whole number per week, like '3 0 5 2 1'") -> tuple[int, ...]:
    """A list field's whole numbers, 0 to `maximum` each, checked as text before any int()."""
    return parse_numbers(raw, label=label, field=field, minimum=0, maximum=maximum, most=NUMBER_LIST_MAX_ITEMS, example=example)


def _adapt_season(rng, *, goal, first_successes, second_successes, first_trainwrecks, second_trainwrecks,
                  trainwreck_limit, season_tie, godlike_champion, heavy_champion, middle_champion, light_champion) -> Report:
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


def _adapt_nom_pool(rng, *, duelists) -> Report:
    try:
        pairs = parse_nom_pool(duelists)
    except ValueError as err:
        raise InputError(str(err), "duelists") from None
    c = check_nom_pool(pairs)
    spread = ", ".join(f"{c.counts[d]} {DIVISION_NAMES[d]}" for d in DIVISIONS)
    details = (f"{c.total} duelists: {spread}.",) + c.problems
    rules = ("rpgdl.decks.nom-pool-size", "rpgdl.decks.nom-pool-names", "rpgdl.decks.nom-pool-replace", "rpgdl.ruling.nom-pool-places")
    if c.legal:
        return Report("legal", "This Nom Pool is legal.", details, rules)
    return Report("illegal", f"This Nom Pool is not legal: {len(c.problems)} problem{'s' if len(c.problems) != 1 else ''}.", details, rules)


def _adapt_season_deck(rng, *, cards) -> Report:
    try:
        c = check_season_deck(parse_season_deck(cards))
    except ValueError as err:
        raise InputError(str(err), "cards") from None
    details = (f"{c.total} cards, {len(c.counts)} different.",) + c.problems
    rules = ("rpgdl.decks.season-deck-size", "rpgdl.decks.season-deck-copies", "rpgdl.ruling.season-deck-contents")
    if c.legal:
        return Report("legal", "This Season Deck is legal.", details, rules)
    return Report("illegal", f"This Season Deck is not legal: {len(c.problems)} problem{'s' if len(c.problems) != 1 else ''}.", details, rules)


def _adapt_vote_pool(rng, *, generic_voters, unique_weights, generic_weight) -> Report:
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


def _adapt_worth(rng, *, slot, division, worth, draw, votes, bonus, division_penalty) -> Report:
    d = Duelist("The duelist", division, worth, draw)
    _check_worth_input(d, slot, votes, bonus, division_penalty, "votes", "division")
    parts = worth_parts(d, slot, votes, bonus=bonus, division_penalty=division_penalty)
    rules = ["rpgdl.worth.modified", "rpgdl.votes.worth", "rpgdl.votes.limit", "rpgdl.ruling.vote-worth"]
    if parts.penalty:
        rules += ["rpgdl.divisions.improper", "rpgdl.ruling.division-penalty"]
    outcome = "improper" if parts.penalty else "proper"
    return Report(outcome, f"Modified Worth {parts.total}.", (_explain_worth("The duelist", d, parts, _division(slot)),), tuple(rules))


_SLOT = Param("slot", "Slot of the duel", "choice", "heavy", choices=tuple((d, DIVISION_NAMES[d]) for d in DIVISIONS))
_DUEL_RULES = (
    "rpgdl.worth.modified", "rpgdl.weekend.duel", "rpgdl.votes.worth", "rpgdl.votes.limit", "rpgdl.divisions.improper",
    "rpgdl.ruling.division-penalty", "rpgdl.weekend.sudden-death", "rpgdl.ruling.sudden-death", "rpgdl.weekend.successes",
    "rpgdl.ruling.successes-worth", "rpgdl.weekend.trainwreck", "rpgdl.ruling.half-draw", "rpgdl.ruling.trainwreck-gap",
    "rpgdl.ruling.roll-off",
)
_ENTRY_HELP = "Division, printed Worth, Draw, then votes and other Worth changes if any: 'heavy 6 4 2'; a name may go first: 'Worker 8: heavy 6 4 2'"
# The Weekend of the rule page (rpgdl.weekend.*): field -> (name, division, Worth, Draw[, votes[, other changes]]).
_PAGE_WEEKEND = {
    "godlike_first": ("Worker 8", "heavy", 6, 4, 4), "godlike_second": ("God", "godlike", 9, 3),
    "heavy_first": ("Pip", "light", 5, 1, 1), "heavy_second": ("Brute", "heavy", 3, 4),
    "middle_first": ("Mid", "middle", 5, 3), "middle_second": ("Mido", "middle", 4, 1),
    "light_first": ("Lite", "light", 3, 2), "light_second": ("Lita", "light", 2, 2, 1),
}


def _weekend_example(lineup: Mapping[str, tuple], **extra: str) -> dict[str, str]:
    """A Weekend example as the form sends it: one field per name, division and number."""
    out = {}
    for field, entry in lineup.items():
        out.update((f"{field}_{key}", str(value)) for key, value in zip(WEEKEND_FIELDS, entry))
    return {**out, **extra}


CALCULATORS = (
    Calculator(
        name="rpgdl.resolve_duel",
        title="RPGDL: one duel",
        summary="Compare two duelists' modified Worth in one slot: the winner, the Successes, any Trainwreck, Sudden Death.",
        params=(_SLOT, *_duelist_params("first", "First duelist"), *_duelist_params("second", "Second duelist"),
                SETTING_PARAMS["division_penalty"], SETTING_PARAMS["half_draw"], SETTING_PARAMS["successes_worth"],
                SETTING_PARAMS["sudden_death"],
                Param("sudden_death_roll", "Sudden Death roll-off (two d6: first player's, second player's)", "dice",
                      help="Only used on a tie")),
        adapter=_adapt_duel,
        rules=_DUEL_RULES,
        outcomes=("first", "second", "sudden-death"),
        examples=(
            # rpgdl.worth.modified: Worker 8 (Heavy 6, Draw 4) with 2 votes against a Middle 7 (Draw 2) playing up with 1 vote.
            {"slot": "heavy", "first_division": "heavy", "first_worth": "6", "first_draw": "4", "first_votes": "2",
             "second_division": "middle", "second_worth": "7", "second_draw": "2", "second_votes": "1"},
            # rpgdl.ruling.successes-worth: a Heavy 8 (Draw 5) plays up with 5 votes and beats a Godlike 9, 11 to 9.
            {"slot": "godlike", "first_division": "godlike", "first_worth": "9", "first_draw": "3",
             "second_division": "heavy", "second_worth": "8", "second_draw": "5", "second_votes": "5"},
            # rpgdl.ruling.trainwreck-gap: a Middle duelist with 2 votes beats a Godlike 7, a Trainwreck by division gap.
            {"slot": "godlike", "first_division": "godlike", "first_worth": "7", "first_draw": "3",
             "second_division": "middle", "second_worth": "8", "second_draw": "2", "second_votes": "2"},
            # rpgdl.ruling.sudden-death: Heavy 6 against Heavy 5 with 1 vote, tied at 6; the second player wins the roll-off.
            {"slot": "heavy", "first_division": "heavy", "first_worth": "6", "first_draw": "4",
             "second_division": "heavy", "second_worth": "5", "second_draw": "3", "second_votes": "1", "sudden_death_roll": "2 5"},
            # The same tie with the roll-off left to the page.
            {"slot": "heavy", "first_division": "heavy", "first_worth": "6", "first_draw": "4",
             "second_division": "heavy", "second_worth": "5", "second_draw": "3", "second_votes": "1", "seed": "7"},
            # The same tie under the no-winner setting.
            {"slot": "heavy", "first_division": "heavy", "first_worth": "6", "first_draw": "4",
             "second_division": "heavy", "second_worth": "5", "second_draw": "3", "second_votes": "1", "sudden_death": "no-winner"},
        ),
    ),
    Calculator(
        name="rpgdl.is_trainwreck",
        title="RPGDL: is this loss a Trainwreck?",
        summary="A loss to a duelist two or more divisions lower, or with half the loser's Draw or less, is a Trainwreck.",
        params=(
            Param("loser_division", "Losing duelist: division", "choice", "godlike", choices=DIVISION_CHOICES,
                  group="Losing duelist", short="Division"),
            Param("loser_draw", "Losing duelist: Draw", "int", minimum=0, maximum=99, group="Losing duelist", short="Draw"),
            Param("winner_division", "Winning duelist: division", "choice", "godlike", choices=DIVISION_CHOICES,
                  group="Winning duelist", short="Division"),
            Param("winner_draw", "Winning duelist: Draw", "int", minimum=0, maximum=99, group="Winning duelist", short="Draw"),
            SETTING_PARAMS["half_draw"],
        ),
        adapter=_adapt_trainwreck,
        rules=("rpgdl.weekend.trainwreck", "rpgdl.ruling.trainwreck-gap", "rpgdl.ruling.half-draw"),
        outcomes=("trainwreck", "no-trainwreck"),
        examples=(
            # rpgdl.ruling.trainwreck-gap: a Godlike duelist (Draw 3) loses to a Middle one (Draw 2).
            {"loser_division": "godlike", "loser_draw": "3", "winner_division": "middle", "winner_draw": "2"},
            # rpgdl.ruling.half-draw: a Heavy duelist with Draw 5 loses to a Heavy one with Draw 2.
            {"loser_division": "heavy", "loser_draw": "5", "winner_division": "heavy", "winner_draw": "2"},
            # The same loss to Draw 1 is no Trainwreck when only exactly half counts.
            {"loser_division": "heavy", "loser_draw": "5", "winner_division": "heavy", "winner_draw": "1", "half_draw": "exactly"},
            # rpgdl.ruling.sudden-death: a Heavy duelist (Draw 4) loses Sudden Death to a Heavy one with Draw 3.
            {"loser_division": "heavy", "loser_draw": "4", "winner_division": "heavy", "winner_draw": "3"},
        ),
    ),
    Calculator(
        name="rpgdl.resolve_weekend",
        title="RPGDL: the Weekend",
        summary="The four duels from Godlike down to Light: Successes, Trainwrecks, who returns to the Roster and who is discarded.",
        params=tuple(p for slot in DIVISIONS for who in PLAYERS for p in _weekend_params(slot, who))
        + (SETTING_PARAMS["division_penalty"], SETTING_PARAMS["half_draw"], SETTING_PARAMS["successes_worth"],
             SETTING_PARAMS["sudden_death"],
             Param("sudden_death_rolls", "Sudden Death roll-offs (two d6 per tied duel, Godlike first)", "dice",
                   help="Only used on a tie")),
        adapter=_adapt_weekend,
        rules=_DUEL_RULES + ("rpgdl.weekend.order", "rpgdl.weekend.discard-losers", "rpgdl.weekend.return-winners"),
        outcomes=("first", "second", "even"),
        examples=(
            # The whole Weekend of the page: Successes 2 to 1, the second player wins the Light roll-off.
            _weekend_example(_PAGE_WEEKEND, sudden_death_rolls="2 5"),
            # The same Weekend, the Light roll-off left to the page.
            _weekend_example(_PAGE_WEEKEND, seed="2024"),
            # Worker 8 without votes (6 - 2 = 4) loses the Godlike duel by 5: the second player takes the Weekend.
            _weekend_example({**_PAGE_WEEKEND, "godlike_first": ("Worker 8", "heavy", 6, 4)}, sudden_death_rolls="6 1"),
            # Worker 8 with 3 votes (7) loses by 2 and Sudden Death gives no winner: an even Weekend, 2 to 2.
            _weekend_example({**_PAGE_WEEKEND, "godlike_first": ("Worker 8", "heavy", 6, 4, 3)}, sudden_death="no-winner"),
        ),
        # Before the form had a row per duelist, each duelist was one line: "Worker 8: heavy 6 4 4".
        legacy=tuple(_weekend_legacy(slot, who) for slot in DIVISIONS for who in PLAYERS),
    ),
    Calculator(
        name="rpgdl.season_tally",
        title="RPGDL: the Season tally",
        summary="Add up five weeks of Successes and Trainwrecks (X Trainwrecks lose at once), or Championship points under the alternate goal.",
        params=(
            Param("goal", "Game goal", "choice", "successes", choices=GOALS),
            Param("first_successes", "First player's Successes, one number per week", "text", optional=True,
                  max_length=NUMBER_LIST_MAX_LENGTH, help=f"e.g. 3 0 5 2 1; up to {NUMBER_LIST_MAX_LENGTH} characters"),
            Param("second_successes", "Second player's Successes, one number per week", "text", optional=True,
                  max_length=NUMBER_LIST_MAX_LENGTH, help=f"Up to {NUMBER_LIST_MAX_LENGTH} characters"),
            Param("first_trainwrecks", "First player's Trainwrecks, one number per week", "text", optional=True,
                  max_length=NUMBER_LIST_MAX_LENGTH, help=f"e.g. 0 1 0 0 0; up to {NUMBER_LIST_MAX_LENGTH} characters"),
            Param("second_trainwrecks", "Second player's Trainwrecks, one number per week", "text", optional=True,
                  max_length=NUMBER_LIST_MAX_LENGTH, help=f"Up to {NUMBER_LIST_MAX_LENGTH} characters"),
            Param("trainwreck_limit", "Trainwrecks that lose the game (X)", "int", DEFAULT_TRAINWRECK_LIMIT, minimum=1, maximum=20,
                  help="Ruling rpgdl.ruling.trainwreck-limit: 3", ruling="rpgdl.ruling.trainwreck-limit"),
            Param("season_tie", "Equal Successes after five weeks", "choice", "draw", choices=SEASON_TIE,
                  help="Ruling rpgdl.ruling.season-tie: a draw", ruling="rpgdl.ruling.season-tie"),
            *(Param(f"{d}_champion", f"{DIVISION_NAMES[d]} champion (alternate goal)", "choice", "none", choices=CHAMPIONS)
              for d in DIVISIONS),
        ),
        outcomes=("first-wins", "second-wins", "draw", "first-trainwrecked", "second-trainwrecked", "both-trainwrecked", "in-progress"),
        examples=(
            # rpgdl.ruling.season-tie: 6 Successes each after five weeks, a draw...
            {"first_successes": "3 0 2 1 0", "second_successes": "1 2 2 0 1",
             "first_trainwrecks": "0 1 0 0 0", "second_trainwrecks": "1 0 0 0 1"},
            # ...and a win for the player with fewer Trainwrecks under the other setting.
            {"first_successes": "3 0 2 1 0", "second_successes": "1 2 2 0 1",
             "first_trainwrecks": "0 1 0 0 0", "second_trainwrecks": "1 0 0 0 1", "season_tie": "fewer-trainwrecks"},
            # rpgdl.ruling.trainwreck-limit: the first player's third Trainwreck in week 3 ends the game...
            {"first_successes": "4 3 6 9", "second_successes": "2 5 0 0", "first_trainwrecks": "1 1 1 0", "second_trainwrecks": "0 0 0 0"},
            # ...while with X = 4 the game goes on.
            {"first_successes": "4 3 6 9", "second_successes": "2 5 0 0", "first_trainwrecks": "1 1 1 0", "second_trainwrecks": "0 0 0 0",
             "trainwreck_limit": "4"},
            # rpgdl.ruling.simultaneous-trainwrecks: both reach 3 in the same Results.
            {"first_successes": "0", "second_successes": "0", "first_trainwrecks": "3", "second_trainwrecks": "3"},
            {"first_successes": "5 2 4", "second_successes": "1 3 2", "first_trainwrecks": "0 1 0", "second_trainwrecks": "1 0 2"},
            {"first_successes": "2 0 1 3 1", "second_successes": "4 2 0 3 2", "first_trainwrecks": "1 0 1 0 0", "second_trainwrecks": "0 0 1 0 0"},
            # rpgdl.championship.winner: Godlike and Light to the first player, Heavy and Middle to the second: 8 to 9.
            {"goal": "championship", "first_trainwrecks": "0 1 0 1", "second_trainwrecks": "1 0 0 0",
             "godlike_champion": "first", "heavy_champion": "second", "middle_champion": "second", "light_champion": "first"},
        ),
        adapter=_adapt_season,
        rules=("rpgdl.season.length", "rpgdl.season.winner", "rpgdl.season.trainwreck-loss", "rpgdl.ruling.trainwreck-limit",
               "rpgdl.ruling.simultaneous-trainwrecks", "rpgdl.ruling.season-tie", "rpgdl.championship.points",
               "rpgdl.championship.winner"),
    ),
    Calculator(
        name="rpgdl.check_nom_pool",
        title="RPGDL: Nom Pool check",
        summary="20 different duelists, five per division, a lower division may fill a higher division's place.",
        params=(Param("duelists", "Duelists, one a line: 'Name, Division'", "text", max_length=NOM_POOL_MAX_LENGTH,
                      help=f"Up to {NOM_POOL_MAX_LENGTH:,} characters"),),
        adapter=_adapt_nom_pool,
        rules=("rpgdl.decks.nom-pool-size", "rpgdl.decks.nom-pool-names", "rpgdl.decks.nom-pool-replace", "rpgdl.ruling.nom-pool-places"),
        outcomes=("legal", "illegal"),
        examples=(
            # rpgdl.decks.nom-pool-replace: 10 Heavy, 5 Middle, 5 Light, with the name variants Ryu1 and Ryu2.
            {"duelists": "Worker 8, Heavy\nRyu1, Heavy\nRyu2, Heavy\nCid, Heavy\nBarret, Heavy\nAuron, Heavy\nKefka, Heavy\nGolbez, Heavy\nMagus, Heavy\nFrog, Heavy\nTifa, Middle\nVincent, Middle\nViktor, Middle\nFlik, Middle\nLocke, Middle\nPahn, Light\nGremio, Light\nCait Sith, Light\nYuffie, Light\nRamza, Light"},
            # One Light swapped for an eleventh Heavy: a lower division never takes a higher one's place.
            {"duelists": "Worker 8, Heavy\nRyu1, Heavy\nRyu2, Heavy\nCid, Heavy\nBarret, Heavy\nAuron, Heavy\nKefka, Heavy\nGolbez, Heavy\nMagus, Heavy\nFrog, Heavy\nTifa, Middle\nVincent, Middle\nViktor, Middle\nFlik, Middle\nLocke, Middle\nPahn, Light\nGremio, Light\nCait Sith, Light\nYuffie, Light\nDelita, Heavy"},
            # The same name twice.
            {"duelists": "Worker 8, Heavy\nRyu1, Heavy\nRyu2, Heavy\nCid, Heavy\nBarret, Heavy\nAuron, Heavy\nKefka, Heavy\nGolbez, Heavy\nMagus, Heavy\nFrog, Heavy\nTifa, Middle\nVincent, Middle\nViktor, Middle\nFlik, Middle\nLocke, Middle\nPahn, Light\nGremio, Light\nCait Sith, Light\nYuffie, Light\nCid, Light"},
        ),
    ),
    Calculator(
        name="rpgdl.check_season_deck",
        title="RPGDL: Season Deck check",
        summary="At least 40 cards, at most four copies of any card.",
        params=(Param("cards", "Cards, one a line: '4 Suiko Scrub Flood'", "text", max_length=SEASON_DECK_MAX_LENGTH,
                      help=f"Also 'Suiko Scrub Flood x4'; up to {SEASON_DECK_MAX_LENGTH:,} characters"),),
        adapter=_adapt_season_deck,
        rules=("rpgdl.decks.season-deck-size", "rpgdl.decks.season-deck-copies", "rpgdl.ruling.season-deck-contents"),
        outcomes=("legal", "illegal"),
        examples=(
            {"cards": "4 Suiko Scrub Flood\n4 Axeman\n4 Universal Status Blocker\n4 Phoenix Down\n4 Limit Break\n4 Haste\n4 Protect\n4 Summon Materia\n4 Save Point\n4 Random Encounter"},
            # rpgdl.ruling.season-deck-contents: 40 cards, but 32 copies of one.
            {"cards": "4 Suiko Scrub Flood\n4 Axeman\n32 Universal Status Blocker"},
            # Four copies each of nine cards: 36, four short.
            {"cards": "Suiko Scrub Flood x4\nAxeman x4\nUniversal Status Blocker x4\nPhoenix Down x4\nLimit Break x4\nHaste x4\nProtect x4\nSummon Materia x4\nSave Point x4"},
        ),
    ),
    Calculator(
        name="rpgdl.vote_pool",
        title="RPGDL: votes this turn",
        summary="The votes your Voters give at the start of the turn: Generic Voters at Vote Weight X plus your unique Voters.",
        params=(
            Param("generic_voters", "Generic Voter tokens in play", "int", STARTING_GENERIC_VOTERS, minimum=0, maximum=STARTING_GENERIC_VOTERS),
            Param("unique_weights", "Unique Voters' Vote Weights, e.g. '1 2'", "text", optional=True,
                  max_length=NUMBER_LIST_MAX_LENGTH, help=f"Up to {NUMBER_LIST_MAX_LENGTH} characters"),
            Param("generic_weight", "A Generic Voter's Vote Weight (X)", "int", DEFAULT_GENERIC_WEIGHT, minimum=0, maximum=10,
                  help="Ruling rpgdl.ruling.generic-voter-weight: 1", ruling="rpgdl.ruling.generic-voter-weight"),
        ),
        adapter=_adapt_vote_pool,
        rules=("rpgdl.voters.generate", "rpgdl.voters.generic-weight", "rpgdl.ruling.generic-voter-weight", "rpgdl.ruling.voter-slots"),
        outcomes=("votes",),
        examples=(
            # rpgdl.voters.starting: ten Generic Voters at Vote Weight 1.
            {"generic_voters": "10"},
            # rpgdl.ruling.voter-slots: Axeman (Vote Weight 1) in place of one token.
            {"generic_voters": "9", "unique_weights": "1"},
            # rpgdl.ruling.generic-voter-weight, the alternative: tokens at Vote Weight 2.
            {"generic_voters": "9", "unique_weights": "1", "generic_weight": "2"},
        ),
    ),
    Calculator(
        name="rpgdl.modified_worth",
        title="RPGDL: modified Worth",
        summary="A duelist's Worth in a slot: printed Worth, +1 a vote (up to the Draw), other effects, -2 when playing up.",
        params=(
            _SLOT,
            Param("division", "Duelist's division", "choice", "heavy", choices=tuple((d, DIVISION_NAMES[d]) for d in DIVISIONS)),
            Param("worth", "Printed Worth", "int", minimum=0, maximum=99),
            Param("draw", "Draw", "int", minimum=0, maximum=99),
            Param("votes", "Votes spent on it", "int", 0, minimum=0, maximum=99),
            Param("bonus", "Other Worth changes (cards, abilities)", "int", 0, minimum=-99, maximum=99),
            SETTING_PARAMS["division_penalty"],
        ),
        adapter=_adapt_worth,
        rules=("rpgdl.worth.modified", "rpgdl.votes.worth", "rpgdl.votes.limit", "rpgdl.ruling.vote-worth",
               "rpgdl.divisions.improper", "rpgdl.ruling.division-penalty"),
        outcomes=("proper", "improper"),
        examples=(
            # rpgdl.cards.duelist-example: Worker 8 (Heavy, Worth 6, Draw 4) with 4 votes in its own slot is 10...
            {"slot": "heavy", "division": "heavy", "worth": "6", "draw": "4", "votes": "4"},
            # ...2 votes and its own ability (-1) make 7...
            {"slot": "heavy", "division": "heavy", "worth": "6", "draw": "4", "votes": "2", "bonus": "-1"},
            # ...and playing up in the Godlike slot it is 6 - 2 = 4.
            {"slot": "godlike", "division": "heavy", "worth": "6", "draw": "4"},
            # rpgdl.ruling.division-penalty, the alternative: a Light 3 in the Godlike slot loses 6.
            {"slot": "godlike", "division": "light", "worth": "3", "draw": "1", "division_penalty": "per-division"},
        ),
    ),
)
