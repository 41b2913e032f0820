"""RPGDL TCG over a Season: the weekly tally, Championship points and the votes a turn gives."""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Mapping, Sequence

from ..checks import InputError, whole
from .data import (
    CHAMPIONSHIP_MAX_WEEKS,
    CHAMPIONSHIP_POINTS,
    DEFAULT_GENERIC_WEIGHT,
    DEFAULT_TRAINWRECK_LIMIT,
    DIVISION_NAMES,
    DIVISIONS,
    GOALS,
    PLAYERS,
    SEASON_TIE,
    SEASON_WEEKS,
    STARTING_GENERIC_VOTERS,
    as_division,
    as_player,
    as_setting,
)

# ---------------------------------------------------------------- the Season


@dataclass(frozen=True)
class WeekScore:
    """What one week's Results gave each player."""

    first_successes: int = 0
    second_successes: int = 0
    first_trainwrecks: int = 0
    second_trainwrecks: int = 0

    def __post_init__(self) -> None:
        for name in ("first_successes", "second_successes", "first_trainwrecks", "second_trainwrecks"):
            whole(getattr(self, name), name.replace("_", " ").capitalize(), name, minimum=0)


@dataclass(frozen=True)
class ChampionshipResult:
    first_points: int
    second_points: int
    crowned: tuple[str, ...]  # divisions with a champion
    winner: str | None  # None until four champions are crowned


@dataclass(frozen=True)
class SeasonResult:
    # first-wins, second-wins, draw, first-trainwrecked, second-trainwrecked, both-trainwrecked, in-progress
    outcome: str
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
    return CHAMPIONSHIP_POINTS[as_division(division, field="division")]


def championship_tally(champions: Mapping[str, str]) -> ChampionshipResult:
    """Championship points (rpgdl.championship.*): division -> "first"/"second" champion."""
    points = {p: 0 for p in PLAYERS}
    crowned = []
    for division, who in champions.items():
        division = as_division(division, field="champions")
        if who in (None, "none"):
            continue
        points[as_player(who, f"The {DIVISION_NAMES[division]} champion", "champions")] += championship_points(division)
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
    """Add up a Season week by week; X Trainwrecks end the game at once.

    Under the Championship goal there is no five-week Season: the weeks run
    until four champions are crowned (up to CHAMPIONSHIP_MAX_WEEKS here).
    """
    weeks = tuple(weeks)
    as_setting(goal, GOALS, "The game goal", "goal")
    if goal == "championship":  # no Season length: play goes on until four champions are crowned
        if not 1 <= len(weeks) <= CHAMPIONSHIP_MAX_WEEKS:
            raise InputError(f"Under the Championship goal give the results of 1 to {CHAMPIONSHIP_MAX_WEEKS} weeks "
                             f"(this site's limit); got {len(weeks)}.", "weeks")
    elif not 1 <= len(weeks) <= SEASON_WEEKS:
        raise InputError(f"A Season has {SEASON_WEEKS} weeks; give the results of 1 to {SEASON_WEEKS} weeks, got {len(weeks)}.", "weeks")
    for w in weeks:
        if not isinstance(w, WeekScore):
            raise InputError("Each week's results are a WeekScore.", "weeks")
    whole(trainwreck_limit, "The Trainwreck limit", "trainwreck_limit", minimum=1)
    as_setting(season_tie, SEASON_TIE, "The season-tie setting", "season_tie")
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
        assert champ is not None  # tallied above for this goal
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


def vote_pool(generic_voters: int = STARTING_GENERIC_VOTERS, unique_weights: Sequence[int] = (), *,
              generic_weight: int = DEFAULT_GENERIC_WEIGHT) -> VotePool:
    """Votes a player's Voters give at the start of the turn (rpgdl.voters.generate)."""
    whole(generic_voters, "The number of Generic Voters", "generic_voters", minimum=0)
    whole(generic_weight, "A Generic Voter's Vote Weight", "generic_weight", minimum=0)
    weights = tuple(whole(w, "A unique Voter's Vote Weight", "unique_weights", minimum=0) for w in unique_weights)
    if generic_voters + len(weights) > STARTING_GENERIC_VOTERS:
        raise InputError(
            f"The Voter Row has {STARTING_GENERIC_VOTERS} slots; {generic_voters} Generic Voters and "
            f"{len(weights)} unique Voters make {generic_voters + len(weights)}.",
            "generic_voters",
        )
    return VotePool(generic_voters, weights, generic_weight)

