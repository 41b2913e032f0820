"""RPGDL TCG rule data: divisions, the numbers of the text, the settings a
table may choose, and the readers of a division, a player and a setting.

RPGDL has no dice except the roll-off (this site's ruling for priority and
Sudden Death: each player rolls a d6, higher wins, ties are rolled again), so
most results are certain and only roll-offs carry odds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

from ..checks import InputError, got, one_of

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

# Limits of the site's tools, not rules: the Championship goal has no Season
# length (rpgdl.championship.divisions), so the Season tally and the season
# tracker stop at this many weeks; a duelist's name is at most this long.
CHAMPIONSHIP_MAX_WEEKS = 20
DUELIST_NAME_MAX_LENGTH = 200  # characters
# The vote planner tries every split of the pool, so the pool has a cap:
# 40 votes over four Draws is at most 135,751 splits.
PLAN_MAX_VOTES = 40

# Settings where a table may read the text differently; the first is the ruling.
# Labels fit a phone's select box (about 22 characters); the params' help says more.
DIVISION_PENALTY = (("flat", "-2 flat (ruling)"), ("per-division", "-2 per division"))
HALF_DRAW = (("at-most", "Half or less (ruling)"), ("exactly", "Exactly half"))
SUCCESSES_WORTH = (("modified", "Modified Worth (ruling)"), ("base", "Printed Worth"))
SUDDEN_DEATH = (("roll-off", "Roll-off (ruling)"), ("no-winner", "Nobody wins"))
SEASON_TIE = (("draw", "A draw (ruling)"), ("fewer-trainwrecks", "Fewer Trainwrecks wins"))
GOALS = (("successes", "Most Successes"), ("championship", "Championship points"))
CHAMPIONS = (("none", "Not crowned yet"), ("first", "First player"), ("second", "Second player"))
PLAN_OBJECTIVES = (("successes", "Most Successes"), ("margin", "Widest lead"), ("win", "Best chance to win"))
DEFAULT_TRAINWRECK_LIMIT = 3  # rpgdl.ruling.trainwreck-limit
TRAINWRECK_LIMIT_MAX = 20  # the most a table may set X to, in the forms and the tracker
DEFAULT_GENERIC_WEIGHT = 1  # rpgdl.ruling.generic-voter-weight
# A player's Vote Pool for a week: ten voter slots at Vote Weight 1 (rpgdl.ruling.vote-pool)
DEFAULT_VOTE_POOL = STARTING_GENERIC_VOTERS * DEFAULT_GENERIC_WEIGHT
VOTE_POOL_MAX = 999  # the most a form or the tracker takes: ten Voters of Vote Weight 99 and more

PLAYERS = ("first", "second")

# A duelist of the Weekend, one row of the Weekend form and of the season
# tracker: its fields, and the limits of the numbers (low, high).
WEEKEND_FIELDS = ("name", "division", "worth", "draw", "votes", "bonus")
WEEKEND_LIMITS = {"worth": (0, 99), "draw": (0, 99), "votes": (0, 99), "bonus": (-99, 99)}

# ---------------------------------------------------------------- readers


def as_division(value: object, what: str = "A division", field: str | None = None) -> str:
    """A division from its name or first letter, any case: "Heavy", "h" -> "heavy"."""
    text = str(value).strip().lower()
    for d in DIVISIONS:
        if text == d or (len(text) == 1 and d.startswith(text)):
            return d
    raise InputError(f"{what} is Godlike, Heavy, Middle or Light; got {got(value)}.", field)


def as_setting(value: str, choices: tuple[tuple[str, str], ...], what: str, field: str) -> str:
    """One of a setting's values (the first of each pair in `choices`)."""
    allowed = [v for v, _ in choices]
    return one_of(value, allowed, field, f"{what} is one of {', '.join(allowed)}")


def as_player(value: object, what: str, field: str | None = None) -> str:
    """ "first" or "second"."""
    one_of(value, PLAYERS, field, f"{what} is 'first' or 'second'")
    return str(value)


# ---------------------------------------------------------------- the rulings of a duel


@dataclass(frozen=True)
class DuelRulings:
    """The four house rulings a duel and a Weekend follow, checked once and then passed whole.

    A calculator's function takes them as its form's fields (resolve_duel,
    resolve_weekend, plan_votes) and makes one DuelRulings of them; a form's
    adapter or the season tracker makes one from its settings (`of`); what
    they call (weekend_ties, weekend_from_rows, settle_duel) takes it. Each
    field's first choice is the site's ruling.
    """

    division_penalty: str = "flat"  # rpgdl.ruling.division-penalty: DIVISION_PENALTY
    half_draw: str = "at-most"  # rpgdl.ruling.half-draw: HALF_DRAW
    successes_worth: str = "modified"  # rpgdl.ruling.successes-worth: SUCCESSES_WORTH
    sudden_death: str = "roll-off"  # rpgdl.ruling.sudden-death: SUDDEN_DEATH

    def __post_init__(self) -> None:
        as_setting(self.division_penalty, DIVISION_PENALTY, "The division-penalty setting", "division_penalty")
        as_setting(self.half_draw, HALF_DRAW, "The half-Draw setting", "half_draw")
        as_setting(self.successes_worth, SUCCESSES_WORTH, "The Successes-Worth setting", "successes_worth")
        as_setting(self.sudden_death, SUDDEN_DEATH, "The Sudden Death setting", "sudden_death")

    @classmethod
    def of(cls, settings: Mapping[str, str]) -> DuelRulings:
        """The rulings among `settings` (a season's settings, a form's values, by field name); the site's for the
        rest."""
        return cls(**{f.name: settings[f.name] for f in fields(cls) if f.name in settings})


SITE_RULINGS = DuelRulings()
