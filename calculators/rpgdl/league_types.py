"""The RPGDL season tracker's shapes: a season and everything it holds, as TypedDicts of the JSON-ready state.

Types only, imported by the season's modules; the page's types are written from them (calculators.typescript), so
a field renamed here fails the season page's type check (make lint). What is kept by player or by division is keyed
by the vocabulary's names ("first" and "second"; "godlike"...).
"""

from __future__ import annotations

from typing import Annotated, Any, NotRequired, TypedDict

from ..history import Record


class Settings(TypedDict):
    """The season's goal and rulings by name (league_input.read_settings): the Trainwreck limit a number, the rest choices."""

    goal: str
    trainwreck_limit: int
    season_tie: str
    division_penalty: str
    half_draw: str
    successes_worth: str
    sudden_death: str


class PoolDuelist(TypedDict):
    """A duelist of a Nom Pool: its last Worth and Draw (None until it has played), and the week it lost (None: still in the Roster)."""

    name: str
    division: str
    worth: int | None
    draw: int | None
    discarded: int | None


class Player(TypedDict):
    """A player: the Nom Pool, the Season Deck as {card: copies}, and the problems of each."""

    name: str
    nom_pool: list[PoolDuelist]
    nom_pool_problems: list[str]
    season_deck: dict[str, int]
    season_deck_total: int
    season_deck_problems: list[str]


class DuelistRow(TypedDict):
    """A duelist's row of a Weekend as checked (league_input.read_row); `opponent_votes` only when the other player voted on it."""

    name: str
    division: str
    worth: int
    draw: int
    votes: int
    bonus: int
    opponent_votes: NotRequired[int]


class Duel(TypedDict):
    """One slot of a Weekend: both rows (None: left empty) and how its duel went (`fought` false: no duel)."""

    slot: str
    first: DuelistRow | None
    second: DuelistRow | None
    fought: bool
    first_worth: int | None
    second_worth: int | None
    winner: str | None
    successes: int
    trainwreck: bool
    reasons: list[str]
    sudden_death: bool
    roll: list[int] | None


class Week(TypedDict):
    """One Weekend's record: its duels and scores, by player the duelists that returned or were discarded, and the
    champions it crowned, by division."""

    week: int
    duels: list[Duel]
    first_successes: int
    second_successes: int
    first_trainwrecks: int
    second_trainwrecks: int
    returned: dict[str, list[str]]
    discarded: dict[str, list[str]]
    crowned: dict[str, str]
    cards: NotRequired[dict[str, dict[str, int]]]  # each player's votes on cards and Trainwrecks from cards, when any were played


class Standing(TypedDict):
    """The running totals after a week: each player's Successes, Trainwrecks and Championship points, and the outcome then."""

    week: int
    first_successes: int
    second_successes: int
    first_trainwrecks: int
    second_trainwrecks: int
    first_points: int
    second_points: int
    outcome: str
    winner: str | None


class Champion(TypedDict):
    """A division's champion: the player, the week, and the roll-off when both ran out together."""

    player: str
    week: int
    roll: list[int] | None


class SeasonResult(TypedDict):
    """Where the game stands: its outcome word, the winner, whether it is over, the weeks played, and one sentence."""

    outcome: str
    winner: str | None
    over: bool
    weeks_played: int
    headline: str


class SeasonEntry(TypedDict):
    """One entry of the season's log: the action as completed (it replays without dice), and what it did."""

    action: dict[str, Any]
    headline: str
    details: list[str]
    rules: list[str]


class Season(TypedDict):
    """A season as new_season makes it and every action keeps it: the log and the undo records are what is
    kept; the rest is rebuilt from the log (league_check.check_season)."""

    tracker: str
    version: int
    settings: Settings
    players: dict[str, Player]  # "first" and "second"
    weeks: list[Week]  # one record a Weekend
    standings: list[Standing]
    champions: dict[str, Champion | None]  # division: its champion; None before
    run_out: dict[str, dict[str, int]]  # player: {division: the week it ran out}
    result: SeasonResult
    log: Annotated[list[Record], SeasonEntry]
    undo: list[Record]
    redo: list[Record]  # the steps undone, the last undone last (a season saved before redo has none)
