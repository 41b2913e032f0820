"""RPGDL TCG: splitting your votes across the Weekend's four duels (the vote planner).

You know the four duels, both duelists of each slot and the votes the
opponent has spent on theirs (or none), and how many votes you mean to
spend on your duelists. Each duelist takes at most its Draw in votes
(rpgdl.votes.limit), one vote +1 Worth (rpgdl.ruling.vote-worth). The
planner compares every split and keeps the best by the objective chosen:
the most expected Successes, the widest expected lead in Successes, or the
best chance to take the Weekend (more Successes than the opponent in these
four duels). Ties go to Sudden Death, a roll-off each side wins half the
time (`roll_off_odds`, icepool), so the odds are exact Fractions.

The search is bounded: the pool is capped (PLAN_MAX_VOTES), vote counts
that give a duel the very same outcomes are tried once (the fewest votes),
and a branch is cut when even its best case cannot reach the best plan
found so far on the objective.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from collections.abc import Callable, Sequence
from typing import Any

import icepool

from ..checks import InputError, whole
from .data import DIVISIONS, PLAN_MAX_VOTES, PLAN_OBJECTIVES, PLAYERS, DuelRulings, as_division, as_setting
from .duels import Duelist, DuelResult, roll_off_odds, settle_duel

__all__ = ["Matchup", "DuelChances", "VotePlan", "plan_votes", "split_count"]


@dataclass(frozen=True)
class Matchup:
    """One duel of the Weekend as you plan it: your duelist against theirs in `slot`."""

    slot: str
    mine: Duelist
    theirs: Duelist
    their_votes: int = 0  # the votes you know the opponent spent on theirs
    my_bonus: int = 0  # other Worth changes (cards, abilities)
    their_bonus: int = 0


@dataclass(frozen=True)
class DuelChances:
    """One duel under a plan: your votes, and each way it can end with its chance (two after a tie)."""

    slot: str
    votes: int
    results: tuple[tuple[Fraction, DuelResult], ...]


@dataclass(frozen=True)
class VotePlan:
    objective: str
    pool: int  # the votes you meant to spend
    room: int  # the votes your four Draws can take
    votes: tuple[int, ...]  # per slot, Godlike first
    duels: tuple[DuelChances, ...]
    expected_successes: Fraction
    expected_opponent_successes: Fraction
    win_chance: Fraction  # more Successes than the opponent this Weekend
    even_chance: Fraction
    trainwrecks: dict[int, Fraction]  # your Trainwrecks this Weekend -> chance
    opponent_trainwrecks: dict[int, Fraction]
    splits: int  # every split of the pool within the Draws
    as_good: int  # splits exactly as good as this one, counting it

    @property
    def spent(self) -> int:
        return sum(self.votes)

    @property
    def trainwreck_risk(self) -> Fraction:
        return 1 - self.trainwrecks.get(0, Fraction(0))


def split_count(rooms: Sequence[int], pool: int) -> int:
    """How many ways to spend at most `pool` votes with each duelist taking 0 to its room."""
    ways = [1] + [0] * pool  # ways[k]: splits so far spending exactly k
    for room in rooms:
        ways = [sum(ways[k - v] for v in range(min(room, k) + 1)) for k in range(pool + 1)]
    return sum(ways)


def _score(result: DuelResult) -> tuple[int, int, int, int]:
    """Your Successes, theirs, your Trainwreck, theirs (0 or 1) from one way the duel ends."""
    mine = result.winner == "first"
    theirs = result.winner == "second"
    return (result.successes if mine else 0, result.successes if theirs else 0,
            int(result.trainwreck and theirs), int(result.trainwreck and mine))


def _chances(m: Matchup, votes: int, rulings: DuelRulings) -> tuple[tuple[Fraction, DuelResult], ...]:
    sides = ((votes, m.their_votes), (m.my_bonus, m.their_bonus))
    duel = settle_duel(m.slot, m.mine, m.theirs, *sides, rulings)
    if not (duel.sudden_death and rulings.sudden_death == "roll-off"):
        return ((Fraction(1), duel),)
    half = roll_off_odds()
    return tuple((half[who], settle_duel(m.slot, m.mine, m.theirs, *sides, rulings, who)) for who in PLAYERS)


def _key(objective: str, win: int, eys: int, eos: int, eyw: int, spent: int,
         gaps: tuple[int, ...]) -> tuple[int | tuple[int, ...], ...]:
    """What a split is judged on, best first.

    The objective, then fewer expected Trainwrecks, then fewer votes spent
    (the rest can pay for cards), then the gaps in Worth, narrowest first,
    as wide as they go (a plan that keeps every duel as far ahead as it
    can, against votes the opponent may still spend).
    """
    low = tuple(sorted(gaps))
    if objective == "win":
        return (win, -eyw, eys - eos, -spent, low)
    if objective == "margin":
        return (eys - eos, -eyw, win, -spent, low)
    return (eys, -eyw, win, -spent, low)


def plan_votes(
    matchups: Sequence[Matchup],
    votes: int,
    *,
    objective: str = "successes",
    division_penalty: str = "flat",
    half_draw: str = "at-most",
    successes_worth: str = "modified",
    sudden_death: str = "roll-off",
) -> VotePlan:
    """The best split of `votes` across your four duelists, within their Draws (rpgdl.votes.limit)."""
    matchups = tuple(matchups)
    if [as_division(m.slot, "A slot", "slot") for m in matchups] != list(DIVISIONS):
        raise InputError("A Weekend has four duels, Godlike, Heavy, Middle and Light, in that order.", "matchups")
    whole(votes, "The votes to spend", "votes", minimum=0)
    if votes > PLAN_MAX_VOTES:
        raise InputError(f"The planner splits at most {PLAN_MAX_VOTES} votes (past that the splits grow too many to compare); "
                         f"got {votes}.", "votes")
    as_setting(objective, PLAN_OBJECTIVES, "The planner's objective", "objective")
    rulings = DuelRulings(division_penalty, half_draw, successes_worth, sudden_death)  # as one value from here on
    rooms = [min(m.mine.draw, votes) for m in matchups]
    # Each duel's candidates: the fewest votes for each different way it can end.
    options = []
    for m, room in zip(matchups, rooms):
        seen: dict[tuple[Any, ...], tuple[int, tuple[tuple[Fraction, DuelResult], ...]]] = {}
        for v in range(room + 1):
            chances = _chances(m, v, rulings)
            seen.setdefault(tuple((p, _score(r)) for p, r in chances), (v, chances))
        options.append(list(seen.values()))
    scale = lcm(*(p.denominator for opts in options for _, chances in opts for p, _ in chances))
    # In whole numbers: each duel's chances out of `scale`, expectations times `scale`.
    cands = []
    for opts in options:
        row = []
        for v, chances in opts:
            outs = [(int(p * scale), _score(r)) for p, r in chances]
            gap = chances[0][1].first_worth - chances[0][1].second_worth
            row.append((v, tuple((w, s[0] - s[1]) for w, s in outs), sum(w * s[0] for w, s in outs),
                        sum(w * s[1] for w, s in outs), sum(w * s[2] for w, s in outs), gap))
        cands.append(row)
    # Bounds for cutting branches: the most each remaining duel could add.
    best_ys = [max(c[2] for c in row) for row in cands]
    best_margin = [max(c[2] - c[3] for c in row) for row in cands]
    best_diff = [max(d for c in row for _, d in c[1]) for row in cands]
    after: Callable[[list[int], int], int] = lambda values, i: sum(values[i:])  # noqa: E731
    found: dict[str, Any] = {"key": None, "pick": None, "count": 0}

    def visit(i: int, left: int, pick: tuple[int, ...], dist: dict[int, int], eys: int, eos: int, eyw: int,
              gaps: tuple[int, ...]) -> None:
        if i == len(cands):
            win = sum(w for d, w in dist.items() if d > 0)
            key = _key(objective, win, eys, eos, eyw, votes - left, gaps)
            if found["key"] is None or key > found["key"]:
                found.update(key=key, pick=pick, count=1)
            elif key == found["key"]:
                found["count"] += 1
            return
        if found["key"] is not None:  # cut: even the best of the rest cannot reach the best so far
            top = {"successes": eys + after(best_ys, i), "margin": eys - eos + after(best_margin, i)}.get(objective)
            if top is not None and top < found["key"][0]:
                return
            if objective == "win" and sum(w for d,
                                          w in dist.items() if d + after(best_diff,
                                                                         i) > 0) * scale ** (len(cands) - i) < found["key"][0]:
                return
        for v, outs, ys, os_, yw, gap in cands[i]:
            if v > left:
                continue
            new: dict[int, int] = {}
            for d0, w0 in dist.items():
                for w, d in outs:
                    new[d0 + d] = new.get(d0 + d, 0) + w0 * w
            visit(i + 1, left - v, pick + (v,), new, eys + ys, eos + os_, eyw + yw, gaps + (gap,))

    visit(0, votes, (), {0: 1}, 0, 0, 0, ())
    pick = found["pick"]
    duels = tuple(DuelChances(m.slot, v, _chances(m, v, rulings)) for m, v in zip(matchups, pick))
    return _plan(objective, votes, sum(rooms), pick, duels, split_count(rooms, votes), found["count"])


def _plan(objective: str, pool: int, room: int, pick: tuple[int, ...], duels: tuple[DuelChances, ...], splits: int,
          as_good: int) -> VotePlan:
    """The plan's exact odds, the duels' dice summed by icepool."""
    def die(index: int | None) -> icepool.Die:
        total = icepool.Die([0])
        for duel in duels:
            weights: dict[int, int] = {}
            scale = lcm(*(p.denominator for p, _ in duel.results))
            for p, r in duel.results:
                s = _score(r)
                value = s[0] - s[1] if index is None else s[index]
                weights[value] = weights.get(value, 0) + int(p * scale)
            total = total + icepool.Die(weights)
        return total

    def table(d: icepool.Die) -> dict[int, Fraction]:
        return dict(zip(d.outcomes(), d.probabilities()))

    diff = table(die(None))
    ys, os_ = table(die(0)), table(die(1))
    return VotePlan(
        objective, pool, room, tuple(pick), duels,
        sum((k * p for k, p in ys.items()), Fraction(0)), sum((k * p for k, p in os_.items()), Fraction(0)),
        sum((p for k, p in diff.items() if k > 0), Fraction(0)), diff.get(0, Fraction(0)),
        table(die(2)), table(die(3)), splits, as_good,
    )
