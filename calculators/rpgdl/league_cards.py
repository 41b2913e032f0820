"""The season tracker's Week beyond the duelists' own votes: cards played and votes on the other side.

- **Cards.** A Weekend may say, for each player, the votes spent on Events
  and Attributes that week (their Vote Costs added up, rpgdl.votes.costs)
  and the Trainwrecks those cards gave ("Trainwrecks: 1" on a card,
  rpgdl.ruling.event-trainwreck). Card Trainwrecks come in the Week: when
  they bring a player to the limit the game ends there and the Weekend is
  not fought (rpgdl.ruling.card-trainwreck-timing).
- **Votes from the opponent.** A duelist's row may carry `opponent_votes`,
  the votes the other player spent on it. Each raises its Worth like the
  owner's and counts toward its Draw (rpgdl.ruling.vote-worth); they come
  out of the other player's Vote Pool.
- **The Vote Pool.** A player's spending, their votes on their own duelists,
  on the opponent's and on cards, adds up to at most their Vote Pool
  (rpgdl.ruling.vote-pool).

A Weekend without these fields is the one version 2 of the tracker kept:
nothing here changes how it replays, so a season saved before still opens.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..checks import InputError, blank, whole_text
from ..types import Param
from .league_types import Week
from .data import DIVISIONS, PLAYERS, TRAINWRECK_LIMIT_MAX, VOTE_POOL_MAX
from .duels import WeekendResult, WeekendRow, check_vote_pool

__all__ = ["CARD_FIELDS", "CARD_FORM", "CARD_RULES", "read_cards", "check_spending", "ended_in_week", "any_cards", "card_field", "any_spending", "unfought", "card_words"]

# A Weekend's `cards`, per player: each key, its form field (`<who>_card_<key>`: label and help, published by
# league_input.vocabulary), its limits (blank is 0) and what a sentence calls it
CARD_FORM = (
    Param("votes", "votes on cards", "int", minimum=0, maximum=VOTE_POOL_MAX, said="votes spent on cards",
          help="The Vote Costs of the Events and Attributes they played this week, out of the same Vote Pool"),
    Param("trainwrecks", "Trainwrecks from cards", "int", minimum=0, maximum=TRAINWRECK_LIMIT_MAX, said="Trainwrecks from cards",
          help="'Trainwreck: 1' on a card they played; reaching the limit ends the game in the Week"),
)
CARD_FIELDS = {f.name: f.said for f in CARD_FORM}
CARD_RULES = ("rpgdl.votes.costs", "rpgdl.cards.event", "rpgdl.cards.attribute", "rpgdl.ruling.event-trainwreck",
              "rpgdl.ruling.card-trainwreck-timing", "rpgdl.ruling.vote-worth", "rpgdl.week.voting")


def read_cards(raw: object, names: Mapping[str, str]) -> dict[str, dict[str, int]]:
    """A Weekend's cards: {"first": {"votes": 4, "trainwrecks": 1}, "second": {...}}; what is left out or blank is 0."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict) or set(raw) - set(PLAYERS):
        raise InputError("A Weekend's cards are an object with 'first' and 'second', each of votes and trainwrecks.", "first_card_votes")
    out = {}
    for who in PLAYERS:
        given = raw.get(who)
        if given is None:
            given = {}
        if not isinstance(given, dict) or set(given) - set(CARD_FIELDS):
            raise InputError(f"{names[who]}'s cards this week are an object of votes and trainwrecks.", f"{who}_card_votes")
        out[who] = {f.name: 0 if blank(given.get(f.name)) else whole_text(
            given.get(f.name), f"{names[who]}'s {f.said}", f"{who}_card_{f.name}", minimum=f.minimum, maximum=f.maximum)
            for f in CARD_FORM}
    return out


def any_cards(cards: Mapping[str, Mapping[str, int]]) -> bool:
    return any(v for who in PLAYERS for v in cards[who].values())


def card_field(cards: Mapping[str, Mapping[str, int]]) -> dict[str, Any]:
    """What a completed Weekend action keeps of its cards: nothing when none were given, as version 2 kept it."""
    return {"cards": {p: dict(cards[p]) for p in PLAYERS}} if any_cards(cards) else {}


def check_spending(lines: Mapping[str, Sequence[Mapping[str, Any] | None]], pools: Mapping[str, int],
                   cards: Mapping[str, Mapping[str, int]], names: Mapping[str, str]) -> dict[str, int]:
    """Each player's votes this week, by who spent them, against their Vote Pool (rpgdl.ruling.vote-pool): the votes spent.

    A player spends their rows' `votes`, the other player's rows'
    `opponent_votes` and their cards' votes. Over the pool: one sentence
    naming the field of the last thing spent on, a row's votes or the cards'.
    """
    spent = {}
    for who in PLAYERS:
        rival = "second" if who == "first" else "first"
        own = [0 if r is None else r["votes"] for r in lines[who]]
        theirs = [0 if r is None else r.get("opponent_votes", 0) for r in lines[rival]]
        total = sum(own) + sum(theirs) + cards[who]["votes"]
        spent[who] = total
        if total <= pools[who]:
            continue
        spread = " + ".join(str(v) for v in own)
        if not any(theirs) and not cards[who]["votes"]:  # only their own duelists: the Weekend form's sentence
            check_vote_pool([None if r is None else r["votes"] for r in lines[who]], pools[who], who, names[who])
        parts = [f"{sum(own)} on {names[who]}'s duelists ({spread})"]
        if any(theirs):
            parts.append(f"{sum(theirs)} on {names[rival]}'s")
        if cards[who]["votes"]:
            parts.append(f"{cards[who]['votes']} on cards")
        field = f"{who}_card_votes" if cards[who]["votes"] else (
            f"{[s for s, v in zip(DIVISIONS, theirs) if v][-1]}_{rival}_opponent_votes")
        raise InputError(f"{names[who]} spends {total} votes this week, " + ", ".join(parts) + f", more than the {pools[who]} in "
                         f"{names[who]}'s Vote Pool; spend fewer, or raise the Vote Pool if Voters gave more this week.", field)
    return spent


def ended_in_week(standings: Sequence[Mapping[str, Any]], cards: Mapping[str, Mapping[str, int]], limit: int) -> tuple[str, ...]:
    """The players the cards' Trainwrecks bring to the limit in the Week, before any duel (rpgdl.ruling.card-trainwreck-timing).

    `standings` are the season's after each week before.
    """
    before = {p: standings[-1][f"{p}_trainwrecks"] if standings else 0 for p in PLAYERS}
    return tuple(p for p in PLAYERS if cards[p]["trainwrecks"] and before[p] + cards[p]["trainwrecks"] >= limit)


def any_spending(lines: Mapping[str, Sequence[Mapping[str, Any] | None]], cards: Mapping[str, Mapping[str, int]]) -> bool:
    """Whether a week spent votes beyond each player's own duelists: on the other side, or on cards."""
    return any(r is not None and r.get("opponent_votes") for p in PLAYERS for r in lines[p]) or any(cards[p]["votes"] for p in PLAYERS)


def unfought(rows: Mapping[str, Sequence[WeekendRow | None]]) -> WeekendResult:
    """The Weekend of a game the cards ended in the Week: no duel, nobody scores, every duelist stays in the Roster."""
    back = {p: tuple(r.duelist.name for r in rows[p] if r is not None) for p in PLAYERS}
    return WeekendResult((), 0, 0, 0, 0, back["first"], (), back["second"], ())


def card_words(record: Week, rows: Mapping[str, Sequence[Mapping[str, Any] | None]], cards: Mapping[str, Mapping[str, int]],
               spent: Mapping[str, int], pools: Mapping[str, int], names: Mapping[str, str], stopped: tuple[str, ...],
               rules: list[str]) -> list[str]:
    """The week's cards into its record (their Trainwrecks added to the duels'), and the log's sentences on them and on the votes.

    A week of votes on each player's own duelists only, and no cards, is said as version 2 said it."""
    said: list[str] = []
    wrecks = {p: cards[p]["trainwrecks"] for p in PLAYERS}
    record["first_trainwrecks"] += wrecks["first"]
    record["second_trainwrecks"] += wrecks["second"]
    if any_cards(cards):
        record["cards"] = {p: dict(cards[p]) for p in PLAYERS}  # as card_field keeps them in the action
    if any(wrecks.values()):
        said.append(f"Trainwrecks from cards played in the Week: {names['first']} {wrecks['first']}, {names['second']} {wrecks['second']}.")
        rules += ["rpgdl.ruling.event-trainwreck", "rpgdl.ruling.card-trainwreck-timing"]
    if stopped:
        who = " and ".join(names[p] for p in stopped)
        said.append(f"{who} reach{'es' if len(stopped) == 1 else ''} the Trainwreck limit in the Week: the game ends at once, "
                    "and no duel of this Weekend is fought.")
    if any_spending(rows, cards):
        said.append(f"Votes spent this week, on duelists of either side and on cards: {names['first']} {spent['first']} of "
                    f"{pools['first']}, {names['second']} {spent['second']} of {pools['second']} in the Vote Pool.")
        rules += ["rpgdl.ruling.vote-pool", "rpgdl.votes.costs", "rpgdl.week.voting", "rpgdl.ruling.vote-worth"]
    elif any(spent.values()):
        said.append(f"Votes on the duelists: {names['first']} {spent['first']} of {pools['first']}, "
                    f"{names['second']} {spent['second']} of {pools['second']} in the Vote Pool.")
        rules.append("rpgdl.ruling.vote-pool")
    return said
