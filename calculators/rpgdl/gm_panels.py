"""RPGDL's GM screen: the week's flow, divisions and playing up, Successes and Trainwrecks, the Vote Pool
(calculators/gm_panels.py says what a panel is)."""

from __future__ import annotations

from calculators import fmt
from calculators.checks import InputError

from ..gm_panels import Follows, Panel, Table, lines
from . import data as rpgdl_data
from .duels import Duelist, trainwreck_reasons, worth_parts
from .season import vote_pool


def _slots(division_penalty: str = "flat") -> Table:
    """A duelist's Worth change in each slot (rpgdl.ruling.division-penalty: -2, or -2 per division), or that it may not
    play there."""
    names = rpgdl_data.DIVISION_NAMES

    def change(division: str, slot: str) -> str:
        try:
            penalty = worth_parts(Duelist("", division, 0, 0), slot, division_penalty=division_penalty).penalty
        except InputError:
            return "may not"
        return fmt.signed(-penalty) if penalty else "proper"

    rows = tuple((names[d], *(change(d, s) for s in rpgdl_data.DIVISIONS)) for d in rpgdl_data.DIVISIONS)
    return Table("A duelist's division (rows) in each slot (columns)",
                 ("Duelist", *(names[s] for s in rpgdl_data.DIVISIONS)), rows,
                 source="rpgdl.divisions.improper")


def _trainwrecks() -> Table:
    """Whether losing to a duelist of a division is a Trainwreck by the division gap alone (Draws far apart)."""
    names = rpgdl_data.DIVISION_NAMES

    def wreck(loser: str, winner: str) -> str:
        gap = "division-gap" in trainwreck_reasons(Duelist("", loser, 0, 0), Duelist("", winner, 0, 0))
        return "Trainwreck" if gap else "-"

    rows = tuple((names[lo], *(wreck(lo, w) for w in rpgdl_data.DIVISIONS)) for lo in rpgdl_data.DIVISIONS)
    return Table("The loser's division (rows) beaten by a winner of (columns)",
                 ("Loser", *(names[w] for w in rpgdl_data.DIVISIONS)), rows,
                 source="rpgdl.weekend.trainwreck")


def _votes(generic_weight: int = rpgdl_data.DEFAULT_GENERIC_WEIGHT,
           trainwreck_limit: int = rpgdl_data.DEFAULT_TRAINWRECK_LIMIT) -> Table:
    pool = vote_pool(generic_weight=generic_weight)
    rows = ((f"{pool.generic_voters} Generic Voters at Vote Weight {pool.generic_weight}", str(pool.votes)),
            ("Trainwrecks that lose the game", str(trainwreck_limit)),
            ("Weeks in a Season", str(rpgdl_data.SEASON_WEEKS)))
    return Table("The numbers of a Season", ("What", "Number"), rows,
                 ("rpgdl.ruling.vote-pool", "rpgdl.ruling.trainwreck-limit", "rpgdl.season.length"))


def panels() -> tuple[Panel, ...]:
    return (
        Panel("week", "The week's flow", lines(
            "rpgdl.turn.phases", "rpgdl.turn.update-day", "rpgdl.turn.pools", "rpgdl.turn.week", "rpgdl.turn.weekend",
            "rpgdl.turn.results",
            "rpgdl.ruling.weekly-pools", "rpgdl.week.alternate", "rpgdl.week.pass", "rpgdl.turn.priority-roll",
            "rpgdl.ruling.roll-off",
            "rpgdl.chain.lifo")),
        Panel("divisions", "Divisions and playing up", (Follows(("division_penalty",), _slots), *lines(
            "rpgdl.divisions.order", "rpgdl.divisions.slots", "rpgdl.divisions.play-up", "rpgdl.divisions.no-play-down",
            "rpgdl.divisions.improper", "rpgdl.ruling.division-penalty", "rpgdl.worth.modified"))),
        Panel("results", "Successes and Trainwrecks", (_trainwrecks(), *lines(
            "rpgdl.weekend.duel", "rpgdl.weekend.sudden-death", "rpgdl.ruling.sudden-death", "rpgdl.weekend.successes",
            "rpgdl.ruling.successes-worth", "rpgdl.weekend.trainwreck", "rpgdl.ruling.trainwreck-gap",
            "rpgdl.ruling.half-draw",
            "rpgdl.season.trainwreck-loss", "rpgdl.ruling.trainwreck-limit"))),
        Panel("votes", "The Vote Pool", (Follows(("generic_weight", "trainwreck_limit"), _votes), *lines(
            "rpgdl.voters.generate", "rpgdl.voters.starting", "rpgdl.voters.generic-weight",
            "rpgdl.ruling.generic-voter-weight",
            "rpgdl.ruling.vote-pool", "rpgdl.votes.costs", "rpgdl.votes.worth", "rpgdl.votes.limit",
            "rpgdl.votes.empty-pool",
            "rpgdl.ruling.vote-worth"))),
    )
