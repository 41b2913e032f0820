"""RPGDL TCG duels: duelists and their Worth, Trainwrecks, one duel, the roll-off and the Weekend.

The rules live in docs/rpgdl/; each function names the rule IDs it follows.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import icepool

from ..checks import InputError, die, whole
from .data import (
    DIVISION_NAMES,
    DIVISION_PENALTY,
    DIVISIONS,
    HALF_DRAW,
    IMPROPER_PENALTY,
    PLAYERS,
    ROLL_OFF_SIDES,
    SITE_RULINGS,
    TRAINWRECK_GAP,
    DuelRulings,
    as_division,
    as_player,
    as_setting,
)

# ---------------------------------------------------------------- duelists and Worth


@dataclass(frozen=True)
class Duelist:
    """A duelist card: name, division, printed Worth and Draw (rpgdl.cards.duelist)."""

    name: str
    division: str
    worth: int
    draw: int

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise InputError("A duelist's name is text.", "name")
        object.__setattr__(self, "division",
                           as_division(self.division, f"{self.name or 'A duelist'}'s division", "division"))
        whole(self.worth, f"{self.name or 'A duelist'}'s printed Worth", "worth", minimum=0)
        whole(self.draw, f"{self.name or 'A duelist'}'s Draw", "draw", minimum=0)


def division_gap(higher: str, lower: str) -> int:
    """How many divisions `lower` sits below `higher` (negative if it is above)."""
    return DIVISIONS.index(as_division(lower, field="lower")) - DIVISIONS.index(as_division(higher, field="higher"))


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


def worth_parts(duelist: Duelist, slot: str, votes: int = 0, *, bonus: int = 0,
                division_penalty: str = "flat") -> WorthParts:
    """Printed Worth, votes, other effects and the improper-division penalty."""
    slot = as_division(slot, "A slot", "slot")
    as_setting(division_penalty, DIVISION_PENALTY, "The division-penalty setting", "division_penalty")
    whole(votes, f"Votes on {duelist.name}", "votes", minimum=0)
    whole(bonus, f"Other Worth changes on {duelist.name}", "bonus")
    up = division_gap(slot, duelist.division)  # > 0: the duelist plays up into a higher slot
    if up < 0:
        raise InputError(
            f"{duelist.name} is a {DIVISION_NAMES[duelist.division]} duelist and cannot fight in the "
            f"{DIVISION_NAMES[slot]} slot: a duelist may play up a division, never down.",
            "division",
        )
    if votes > duelist.draw:
        raise InputError(f"{duelist.name} has a Draw of {duelist.draw}, so it takes at most {duelist.draw} votes; got {votes}.", "votes")
    penalty = 0 if up == 0 else IMPROPER_PENALTY * (up if division_penalty == "per-division" else 1)
    return WorthParts(duelist.worth, votes, bonus, penalty)


def modified_worth(duelist: Duelist, slot: str, votes: int = 0, *, bonus: int = 0,
                   division_penalty: str = "flat") -> int:
    """Worth + votes (+1 each, at most the Draw) + other effects, -2 when playing up a division."""
    return worth_parts(duelist, slot, votes, bonus=bonus, division_penalty=division_penalty).total


# ---------------------------------------------------------------- Trainwrecks


def trainwreck_reasons(loser: Duelist, winner: Duelist, *, half_draw: str = "at-most") -> tuple[str, ...]:
    """Why the loser's controller suffers a Trainwreck: "division-gap", "half-draw", or nothing."""
    as_setting(half_draw, HALF_DRAW, "The half-Draw setting", "half_draw")
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


def _parts(who: str, duelist: Duelist, slot: str, votes: int, bonus: int, division_penalty: str) -> WorthParts:
    """worth_parts for the `who` duelist, its errors naming resolve_duel's parameters."""
    try:
        return worth_parts(duelist, slot, votes, bonus=bonus, division_penalty=division_penalty)
    except InputError as err:
        field = {"votes": f"{who}_votes", "bonus": f"{who}_bonus", "division": who}.get(err.field or "", err.field)
        raise InputError(str(err), field) from None


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
    ("first" or "second", who won the roll-off) settles it. The three
    rulings are the form's fields; they travel on as one DuelRulings.
    """
    rulings = DuelRulings(division_penalty=division_penalty, half_draw=half_draw, successes_worth=successes_worth)
    return settle_duel(slot, first, second, (first_votes, second_votes), (first_bonus, second_bonus), rulings,
                       sudden_death_winner)


def settle_duel(slot: str, first: Duelist, second: Duelist, votes: tuple[int, int] = (0, 0),
                bonus: tuple[int, int] = (0, 0),
                rulings: DuelRulings = SITE_RULINGS, sudden_death_winner: str | None = None) -> DuelResult:
    """resolve_duel under `rulings`: `votes` and `bonus` are each (the first duelist's, the second's). A duel only
    ties; what a tie leads to (rulings.sudden_death) is the Weekend's to read."""
    slot = as_division(slot, "A slot", "slot")
    if sudden_death_winner is not None:
        as_player(sudden_death_winner, "The Sudden Death winner", "sudden_death_winner")
    fp = _parts("first", first, slot, votes[0], bonus[0], rulings.division_penalty)
    sp = _parts("second", second, slot, votes[1], bonus[1], rulings.division_penalty)
    sudden = fp.total == sp.total
    if sudden:
        winner = sudden_death_winner
    else:
        winner = "first" if fp.total > sp.total else "second"
    successes = 0
    reasons: tuple[str, ...] = ()
    if winner is not None:
        w, l = (first, second) if winner == "first" else (second, first)
        wp, lp = (fp, sp) if winner == "first" else (sp, fp)
        if rulings.successes_worth == "modified":
            successes = wp.total - lp.total
        else:
            successes = max(0, w.worth - l.worth)
        reasons = trainwreck_reasons(l, w, half_draw=rulings.half_draw)
    return DuelResult(slot, first, second, fp.total, sp.total, winner, successes, bool(reasons), reasons, sudden, fp,
                      sp)


def duel_rules(duel: DuelResult) -> list[str]:
    """The rule IDs that decided a duel, for a result to cite (the forms and the season tracker alike)."""
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


def roll_off(first_die: int, second_die: int) -> str | None:
    """A roll-off (rpgdl.ruling.roll-off): higher d6 wins; None on a tie (roll again)."""
    for v, who in ((first_die, "first"), (second_die, "second")):
        die(v, ROLL_OFF_SIDES, f"{who}_die", what=f"The {who} player's roll-off die")
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
    duels: tuple[DuelResult, ...]  # the duels fought: Godlike, Heavy, Middle, Light, less any empty slot
    first_successes: int
    second_successes: int
    first_trainwrecks: int
    second_trainwrecks: int
    first_returned: tuple[str, ...]
    first_discarded: tuple[str, ...]
    second_returned: tuple[str, ...]
    second_discarded: tuple[str, ...]


def _four(values: Iterable[Any], what: str, field: str) -> tuple[Any, ...]:
    values = tuple(values)
    if len(values) != len(DIVISIONS):
        raise InputError(f"A Weekend has four duels, Godlike, Heavy, Middle and Light; {what} has {len(values)}.",
                         field)
    return values


def resolve_weekend(
    first: Sequence[Duelist | None],
    second: Sequence[Duelist | None],
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
    A duelist given as None leaves its slot empty: that duel is not fought
    and the other duelist returns (rpgdl.ruling.empty-slot; `duels` lists
    the duels fought). The four rulings travel on as one DuelRulings.
    """
    rulings = DuelRulings(division_penalty, half_draw, successes_worth, sudden_death)
    return _weekend(first, second, (first_votes, second_votes), (first_bonus, second_bonus), rulings,
                    sudden_death_winners)


def _weekend(first: Sequence[Duelist | None], second: Sequence[Duelist | None],
             votes: tuple[Sequence[int], Sequence[int]],
             bonus: tuple[Sequence[int], Sequence[int]], rulings: DuelRulings,
             sudden_death_winners: Mapping[str, str] | None) -> WeekendResult:
    """resolve_weekend under `rulings`: `votes` and `bonus` are each (the first player's, the second's), in slot
    order."""
    first_votes, second_votes = votes
    first_bonus, second_bonus = bonus
    first, second = _four(first, "the first player's line-up", "first"), _four(second, "the second player's line-up",
                                                                               "second")
    fv = _four(first_votes, "the first player's votes", "first_votes")
    sv = _four(second_votes, "the second player's votes", "second_votes")
    fb = _four(first_bonus, "the first player's Worth changes", "first_bonus")
    sb = _four(second_bonus, "the second player's Worth changes", "second_bonus")
    winners = dict(sudden_death_winners or {})
    for slot in winners:
        as_division(slot, "A Sudden Death slot", "sudden_death_winners")
    duels = []
    for i, slot in enumerate(DIVISIONS):
        if first[i] is None or second[i] is None:  # an empty slot: no duel (rpgdl.ruling.empty-slot)
            continue
        duel = settle_duel(slot, first[i], second[i], (fv[i], sv[i]), (fb[i], sb[i]), rulings)
        if duel.sudden_death and rulings.sudden_death == "roll-off":
            if slot not in winners:
                raise InputError(f"The {DIVISION_NAMES[slot]} duel is tied and goes to Sudden Death: say who won the roll-off.", "sudden_death_winners")
            duel = settle_duel(slot, first[i], second[i], (fv[i], sv[i]), (fb[i], sb[i]), rulings, winners[slot])
        duels.append(duel)
    score = {p: 0 for p in PLAYERS}
    wrecks = {p: 0 for p in PLAYERS}
    returned: dict[str, list[str]] = {p: [] for p in PLAYERS}
    discarded: dict[str, list[str]] = {p: [] for p in PLAYERS}
    fought = {d.slot: d for d in duels}
    for i, slot in enumerate(DIVISIONS):
        d = fought.get(slot)
        if d is None or d.winner is None:  # not fought, or Sudden Death with no winner: whoever is there returns
            for p, line in (("first", first), ("second", second)):
                if line[i] is not None:
                    returned[p].append(line[i].name)
            continue
        winner, loser = d.winner, d.loser
        assert loser is not None  # a duel with a winner has a loser
        names = {"first": d.first.name, "second": d.second.name}
        score[winner] += d.successes
        wrecks[loser] += int(d.trainwreck)
        returned[winner].append(names[winner])
        discarded[loser].append(names[loser])
    return WeekendResult(
        tuple(duels), score["first"], score["second"], wrecks["first"], wrecks["second"],
        tuple(returned["first"]), tuple(discarded["first"]), tuple(returned["second"]), tuple(discarded["second"]),
    )



# ---------------------------------------------------------------- a Weekend from its rows


@dataclass(frozen=True)
class WeekendRow:
    """One duelist of a Weekend line-up as a form or the season tracker enters it: the card, its votes, other
    changes."""

    duelist: Duelist
    votes: int = 0
    bonus: int = 0


Lineup = Sequence[WeekendRow | None]


def _row_label(slot: str, who: str, names: Mapping[str, str] | None) -> str:
    return "" if names is None else f"{DIVISION_NAMES[slot]} slot, {names[who]}: "


def weekend_ties(
    first: Lineup,
    second: Lineup,
    *,
    rulings: DuelRulings = SITE_RULINGS,
    names: Mapping[str, str] | None = None,
    vote_pools: Mapping[str, int] | None = None,
) -> dict[str, DuelResult]:
    """Check a Weekend's rows and give the duels that are tied and need a Sudden Death roll-off.

    Each row is checked in its slot (rpgdl.divisions.improper, rpgdl.votes.limit):
    a fault raises InputError naming the row's field, `{slot}_{who}_votes` or
    `{slot}_{who}_division`, its sentence led by "Godlike slot, Ana: " when
    `names` (player -> name) is given. With `vote_pools` (player -> votes
    in the Vote Pool this week), a player's votes on the four duelists
    together are at most the pool (rpgdl.ruling.vote-pool). The tied duels
    come by slot, Godlike first: those a roll-off settles, none under the
    "no-winner" ruling.
    """
    lines = {"first": _four(first, "the first player's line-up", "first"),
             "second": _four(second, "the second player's line-up", "second")}
    ties: dict[str, DuelResult] = {}
    for i, slot in enumerate(DIVISIONS):
        for who in PLAYERS:  # a duelist out of place or over its Draw: point at that row's field
            row = lines[who][i]
            if row is None:
                continue
            try:
                worth_parts(row.duelist, slot, row.votes, bonus=row.bonus, division_penalty=rulings.division_penalty)
            except InputError as err:
                field = "votes" if err.field == "votes" else "division"
                raise InputError(f"{_row_label(slot, who, names)}{err}", f"{slot}_{who}_{field}") from None
        a, b = lines["first"][i], lines["second"][i]
        if a is None or b is None:
            continue
        try:
            duel = settle_duel(slot, a.duelist, b.duelist, (a.votes, b.votes), (a.bonus, b.bonus), rulings)
        except InputError as err:
            raise InputError(str(err), f"{slot}_first_division") from None
        if duel.sudden_death and rulings.sudden_death == "roll-off":
            ties[slot] = duel
    for who in PLAYERS:
        if vote_pools is not None:
                check_vote_pool([None if r is None else r.votes for r in lines[who]], vote_pools[who], who,
                            None if names is None else names[who])
    return ties


def check_vote_pool(votes: Sequence[int | None], pool: int, who: str, name: str | None = None) -> None:
    """A player's votes on the duelists of one Weekend, slot by slot, against the Vote Pool (rpgdl.ruling.vote-pool).

    Over the pool: InputError naming the votes field of the last slot that
    has votes, `{slot}_{who}_votes`, in a sentence that names it.
    """
    pool = whole(pool, "The Vote Pool", f"{who}_vote_pool", minimum=0)
    total = sum(v or 0 for v in votes)
    if total <= pool:
        return
    slot = [s for s, v in zip(DIVISIONS, votes) if v][-1]
    label, player = name or f"{who} player", name or f"the {who} player"
    spread = " + ".join(str(v or 0) for v in votes)
    raise InputError(f"{DIVISION_NAMES[slot]} slot, {label}'s votes: {spread} = {total} votes on {player}'s duelists this Weekend, "
                     f"more than the {pool} in {player}'s Vote Pool; take some votes off, or raise the Vote Pool if Voters gave more this week.", f"{slot}_{who}_votes")


def weekend_from_rows(
    first: Lineup,
    second: Lineup,
    *,
    rulings: DuelRulings = SITE_RULINGS,
    sudden_death_winners: Mapping[str, str] | None = None,
) -> WeekendResult:
    """The Weekend of two line-ups of rows (None: an empty slot), as `resolve_weekend` resolves it.

    The one way from rows to a Weekend for the Weekend form and the season
    tracker alike: check the rows and find the ties first (`weekend_ties`),
    settle each tie's roll-off, then call this with the winners.
    """
    rows = {"first": _four(first, "the first player's line-up", "first"),
            "second": _four(second, "the second player's line-up", "second")}
    column = {p: {key: [0 if r is None else getattr(r, key) for r in rows[p]] for key in ("votes",
                                                                                          "bonus")} for p in PLAYERS}
    return _weekend([None if r is None else r.duelist for r in rows["first"]],
                    [None if r is None else r.duelist for r in rows["second"]],
                    (column["first"]["votes"], column["second"]["votes"]),
                    (column["first"]["bonus"], column["second"]["bonus"]),
                    rulings, sudden_death_winners)
