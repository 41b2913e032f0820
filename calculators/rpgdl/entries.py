"""RPGDL's calculators in the registry: parameters, labels, limits, examples.

What the CLI, the web forms and the docs read, with the older one-line
duelist fields still accepted (`Legacy`). The adapters are in `reports`,
the rules in `duels`, `season` and `decks`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..checks import InputError
from ..types import Calculator, Legacy, Param, Tracker
from .data import (
    CHAMPIONS,
    DEFAULT_GENERIC_WEIGHT,
    DEFAULT_TRAINWRECK_LIMIT,
    DEFAULT_VOTE_POOL,
    DIVISION_NAMES,
    DIVISION_PENALTY,
    DIVISIONS,
    GOALS,
    HALF_DRAW,
    PLAN_MAX_VOTES,
    PLAN_OBJECTIVES,
    PLAYERS,
    SEASON_TIE,
    STARTING_GENERIC_VOTERS,
    SUCCESSES_WORTH,
    SUDDEN_DEATH,
    TRAINWRECK_LIMIT_MAX,
    VOTE_POOL_MAX,
    WEEKEND_FIELDS,
    WEEKEND_LIMITS as _LIMITS,
    as_division,
)
from .decks import NOM_POOL_MAX_LENGTH, SEASON_DECK_MAX_LENGTH
from .reports import (
    DUELIST_NAME_MAX_LENGTH,
    NUMBER_LIST_MAX_LENGTH,
    resolve_duel_report,
    is_trainwreck_report,
    resolve_weekend_report,
    check_season_deck_report,
    season_tally_report,
    check_nom_pool_report,
    vote_pool_report,
    modified_worth_report,
    plan_votes_report,
    season_step,
    describe_season,
)
from .league import STATE_MAX_CHARS, new_season
from .league_types import Season
from .league_actions import SPECS as SEASON_SPECS
from .league_check import check_season, links as season_links
from .league_input import vocabulary as season_vocabulary

__all__ = ["CALCULATORS", "TRACKERS", "SETTING_PARAMS", "DIVISION_CHOICES", "WEEKEND_FIELDS"]

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
        Param(f"{field}_worth", f"{group}'s Worth", "int", minimum=_LIMITS["worth"][0], maximum=_LIMITS["worth"][1], group=group,
              short="Worth", help="Printed Worth"),
        Param(f"{field}_draw", f"{group}'s Draw", "int", minimum=_LIMITS["draw"][0], maximum=_LIMITS["draw"][1], group=group, short="Draw"),
        Param(f"{field}_votes", f"{group}'s votes", "int", 0, minimum=_LIMITS["votes"][0], maximum=_LIMITS["votes"][1], group=group,
              short="Votes", help="Votes spent on it, at most its Draw"),
        Param(f"{field}_bonus", f"{group}'s other Worth changes", "int", 0, minimum=_LIMITS["bonus"][0], maximum=_LIMITS["bonus"][1],
              group=group, short="Other ±", help="Other Worth changes (cards, abilities)"),
    )




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
        out[f"{field}_division"] = as_division(parts[0], f"{DIVISION_NAMES[slot]} slot, {who} player: the division")
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


def _weekend_example(lineup: Mapping[str, tuple[Any, ...]], **extra: str) -> dict[str, str]:
    """A Weekend example as the form sends it: one field per name, division and number."""
    out: dict[str, str] = {}
    for field, entry in lineup.items():
        out.update((f"{field}_{key}", str(value)) for key, value in zip(WEEKEND_FIELDS, entry))
    return {**out, **extra}


def _plan_params(slot: str) -> tuple[Param, ...]:
    """The vote planner's two rows for one slot: your duelist, then the opponent's with the votes you know of."""
    you, them = f"{DIVISION_NAMES[slot]} slot, your duelist", f"{DIVISION_NAMES[slot]} slot, opponent's duelist"
    worth, draw, votes, bonus = (_LIMITS[k] for k in ("worth", "draw", "votes", "bonus"))
    return (
        Param(f"{slot}_you_division", f"{you}: division", "choice", slot, choices=DIVISION_CHOICES, group=you, short="Division"),
        Param(f"{slot}_you_worth", f"{you}: printed Worth", "int", minimum=worth[0], maximum=worth[1], group=you, short="Worth"),
        Param(f"{slot}_you_draw", f"{you}: Draw", "int", minimum=draw[0], maximum=draw[1], group=you, short="Draw",
              help="The most votes it can take"),
        Param(f"{slot}_you_bonus", f"{you}: other Worth changes", "int", 0, minimum=bonus[0], maximum=bonus[1], group=you,
              short="Other ±", help="Other Worth changes (cards, abilities)"),
        Param(f"{slot}_opponent_division", f"{them}: division", "choice", slot, choices=DIVISION_CHOICES, group=them, short="Division"),
        Param(f"{slot}_opponent_worth", f"{them}: printed Worth", "int", minimum=worth[0], maximum=worth[1], group=them, short="Worth"),
        Param(f"{slot}_opponent_draw", f"{them}: Draw", "int", minimum=draw[0], maximum=draw[1], group=them, short="Draw"),
        Param(f"{slot}_opponent_votes", f"{them}: votes you know of", "int", 0, minimum=votes[0], maximum=votes[1], group=them,
              short="Votes", help="Votes the opponent has spent on it; 0 if none or you do not know"),
        Param(f"{slot}_opponent_bonus", f"{them}: other Worth changes", "int", 0, minimum=bonus[0], maximum=bonus[1], group=them,
              short="Other ±", help="Other Worth changes (cards, abilities)"),
    )


def _plan_example(rows: Mapping[str, tuple[Any, ...]], **extra: str) -> dict[str, str]:
    """A planner example as the form sends it: slot -> (your division, Worth, Draw), (theirs, Worth, Draw[, votes])."""
    out: dict[str, str] = {}
    for slot, (mine, theirs) in rows.items():
        out.update((f"{slot}_you_{k}", str(v)) for k, v in zip(("division", "worth", "draw"), mine))
        out.update((f"{slot}_opponent_{k}", str(v)) for k, v in zip(("division", "worth", "draw", "votes"), theirs))
    return {**out, **extra}


# The Weekend of the rule page (rpgdl.weekend.*), before the first player's votes.
_PAGE_PLAN = {
    "godlike": (("heavy", 6, 4), ("godlike", 9, 3)), "heavy": (("light", 5, 1), ("heavy", 3, 4)),
    "middle": (("middle", 5, 3), ("middle", 4, 1)), "light": (("light", 3, 2), ("light", 2, 2, 1)),
}
# rpgdl.ruling.half-draw: Star (Heavy 6, Draw 5) against Grinder (Heavy 7, Draw 2); losing is a Trainwreck, one vote
# makes a tie. The other duelists take no votes (Draw 0) and win by 1.
_TIE_PLAN = {
    "godlike": (("godlike", 6, 0), ("godlike", 5, 1)), "heavy": (("heavy", 6, 5), ("heavy", 7, 2)),
    "middle": (("middle", 6, 0), ("middle", 5, 1)), "light": (("light", 6, 0), ("light", 5, 1)),
}


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
        adapter=resolve_duel_report,
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
        adapter=is_trainwreck_report,
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
                   help="Only used on a tie"),
             *(Param(f"{who}_vote_pool", f"{who.capitalize()} player's Vote Pool", "int", DEFAULT_VOTE_POOL, minimum=0,
                     maximum=VOTE_POOL_MAX, group="Vote Pools", short=f"{'1st' if who == 'first' else '2nd'} player",
                     help=f"The votes a player's Voters gave this week ({DEFAULT_VOTE_POOL} from ten Generic Voters at "
                          "Vote Weight 1). The votes on that player's four duelists add up to at most this.")
               for who in PLAYERS)),
        adapter=resolve_weekend_report,
        rules=_DUEL_RULES + ("rpgdl.weekend.order", "rpgdl.weekend.discard-losers", "rpgdl.weekend.return-winners",
                             "rpgdl.ruling.vote-pool"),
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
            Param("trainwreck_limit", "Trainwrecks that lose the game (X)", "int", DEFAULT_TRAINWRECK_LIMIT, minimum=1, maximum=TRAINWRECK_LIMIT_MAX,
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
        adapter=season_tally_report,
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
        adapter=check_nom_pool_report,
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
        adapter=check_season_deck_report,
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
        adapter=vote_pool_report,
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
        adapter=modified_worth_report,
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
    Calculator(
        name="rpgdl.plan_votes",
        title="RPGDL: plan your votes",
        summary="Split the votes you will spend across your four duelists, within their Draws: the most expected Successes, "
                "the widest lead or the best chance to take the Weekend, with the Trainwreck risk.",
        params=(Param("objective", "Plan for", "choice", "successes", choices=PLAN_OBJECTIVES,
                      help="Most expected Successes; the widest expected lead over the opponent; or the best chance of more "
                           "Successes than the opponent this Weekend"),
                Param("votes", "Votes to spend on your duelists", "int", 10, minimum=0, maximum=PLAN_MAX_VOTES,
                      help=f"Your Vote Pool less what you keep for cards; the planner splits at most {PLAN_MAX_VOTES}"),
                *(p for slot in DIVISIONS for p in _plan_params(slot)),
                SETTING_PARAMS["division_penalty"], SETTING_PARAMS["half_draw"], SETTING_PARAMS["successes_worth"],
                SETTING_PARAMS["sudden_death"]),
        adapter=plan_votes_report,
        rules=_DUEL_RULES + ("rpgdl.ruling.vote-worth",),
        outcomes=("no-trainwreck", "trainwreck-risk", "trainwreck"),
        examples=(
            # The page's Weekend with the first player's 5 votes: every duel but the Godlike won.
            _plan_example(_PAGE_PLAN, votes="5"),
            # The same for the best chance to take the Weekend, and for the widest lead.
            _plan_example(_PAGE_PLAN, votes="5", objective="win"),
            _plan_example(_PAGE_PLAN, votes="5", objective="margin"),
            # One vote makes the Heavy duel a tie: the roll-off halves the Trainwreck risk.
            _plan_example(_TIE_PLAN, votes="1"),
            # With no votes that loss is certain, and so is the Trainwreck.
            _plan_example(_TIE_PLAN, votes="0"),
        ),
    ),
)

# Records kept across many rolls: the season tracker (docs/rpgdl/season-tracker.md).
TRACKERS = (
    Tracker(
        name="rpgdl.season",
        title="Season",
        summary="Two players, their Nom Pools and Season Decks, each week's Weekend: the running tally, who ran out of which "
                "division, Championship points and the winner.",
        new=new_season,
        check=check_season,
        step=season_step,
        specs=SEASON_SPECS,
        max_state_chars=STATE_MAX_CHARS,
        describe=describe_season,
        vocabulary=lambda: {**season_vocabulary(), "actions": [spec.public() for spec in SEASON_SPECS]},  # each control carries its action's name (data-do)
        links=season_links,
        state_type=Season,
    ),
)
