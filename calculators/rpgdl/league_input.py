"""The season tracker's input: settings, players, a Weekend's duelist rows and roll-offs.

Each reader takes what a page, a file or a link sent (JSON values: text or
numbers) and returns plain checked data, or raises InputError naming the
field at fault. Every name (a player, a duelist, a card) passes the one
name check both trackers use (`checks.check_name`). A duelist row has the Weekend form's fields and limits
(WEEKEND_FIELDS, WEEKEND_LIMITS), so the form and the tracker never
disagree about what a duelist may be.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..checks import MAX_NAME, InputError, blank, check_name, got, parse_numbers, quote, whole_text
from ..checks import Action
from .data import (
    CHAMPIONSHIP_POINTS,
    DEFAULT_TRAINWRECK_LIMIT,
    DEFAULT_VOTE_POOL,
    DIVISION_NAMES,
    DIVISION_PENALTY,
    DIVISIONS,
    DUELIST_NAME_MAX_LENGTH,
    GOALS,
    HALF_DRAW,
    PLAYERS,
    ROLL_OFF_SIDES,
    SEASON_TIE,
    SEASON_WEEKS,
    SUCCESSES_WORTH,
    SUDDEN_DEATH,
    TRAINWRECK_LIMIT_MAX,
    VOTE_POOL_MAX,
    WEEKEND_FIELDS,
    WEEKEND_LIMITS,
    as_division,
)
from .league_cards import CARD_FORM
from .decks import NOM_POOL_MAX_LENGTH, SEASON_DECK_MAX_LENGTH, parse_nom_pool, parse_season_deck
from ..decklists import card_key as norm  # names compared ignoring case and spacing (rpgdl.ruling.nom-pool-places)

__all__ = ["norm", "vocabulary", "RULINGS", "other", "read_settings", "read_player", "read_row", "read_rolls", "read_vote_pools", "SETTING_CHOICES",
           "PLAYER_NAME_MAX_LENGTH", "NOM_POOL_MAX_DUELISTS", "SEASON_DECK_MAX_CARDS", "CARD_NAME_MAX_LENGTH", "COPIES_MAX"]

# The rulings a season plays by (the first choice of each is the site's ruling) and the game goal.
SETTING_CHOICES = {
    "goal": GOALS, "season_tie": SEASON_TIE, "division_penalty": DIVISION_PENALTY, "half_draw": HALF_DRAW,
    "successes_worth": SUCCESSES_WORTH, "sudden_death": SUDDEN_DEATH,
}
SETTING_LABELS = {
    "goal": "The game goal", "trainwreck_limit": "Trainwrecks that lose the game (X)", "season_tie": "Equal Successes after five weeks",
    "division_penalty": "Improper-division penalty", "half_draw": "Half the Draw means", "successes_worth": "Successes count",
    "sudden_death": "Sudden Death",
}
# The rulings a season plays by, in the order the page shows them (the goal comes first, on its own).
RULINGS = tuple(name for name in SETTING_LABELS if name != "goal")


def vocabulary() -> dict[str, Any]:
    """What the season page draws with (rulebook/render.py publishes it): the
    players, the divisions by name, the Championship points of each
    (rpgdl.championship.points), the goals, the rulings' names, the
    weeks of a season (rpgdl.season.length), a Vote Pool unless changed
    (rpgdl.ruling.vote-pool) and the Weekend form's card fields."""
    return {
        "players": list(PLAYERS),
        "divisions": [[d, DIVISION_NAMES[d]] for d in DIVISIONS],
        "points": dict(CHAMPIONSHIP_POINTS),
        "goals": [list(g) for g in GOALS],
        "rulings": list(RULINGS),
        "weeks": SEASON_WEEKS,
        "vote_pool": DEFAULT_VOTE_POOL,
        "card_fields": [{"key": f.name, "label": f.label, "help": f.help} for f in CARD_FORM],
    }


# Caps on what a season holds: room for every legal deck and for mistakes to be listed, no more.
PLAYER_NAME_MAX_LENGTH = MAX_NAME  # as long as a combatant's in the encounter tracker
NOM_POOL_MAX_DUELISTS = 40  # a Nom Pool has 20
SEASON_DECK_MAX_CARDS = 100  # different cards; a Season Deck has 40 or more cards, at most 4 of each
CARD_NAME_MAX_LENGTH = 100
COPIES_MAX = 999
ROLLS_MAX = 8  # four tied duels and four divisions lost together
ROW_FIELDS = (*WEEKEND_FIELDS, "opponent_votes")  # the tracker's row: the Weekend form's, and the votes the other player put on it


def other(who: str) -> str:
    return "second" if who == "first" else "first"


def read_settings(raw: object, current: Mapping[str, Any] | None, *, partial: bool = False) -> dict[str, Any]:
    """The settings given (partial) or the whole set, the site's rulings filling the gaps."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise InputError("The settings are an object of names and values.", "settings")
    unknown = set(raw) - set(SETTING_LABELS)
    if unknown:
        raise InputError(f"There is no season setting called {quote(sorted(unknown)[0])}; the settings are "
                         f"{', '.join(SETTING_LABELS)}.", "settings")
    out = {}
    for key in SETTING_LABELS:
        if key not in raw:
            if not partial:
                out[key] = DEFAULT_TRAINWRECK_LIMIT if key == "trainwreck_limit" else SETTING_CHOICES[key][0][0]
            continue
        value = raw[key]
        if key == "trainwreck_limit":
            out[key] = whole_text(value, SETTING_LABELS[key], key, minimum=1, maximum=TRAINWRECK_LIMIT_MAX)
        else:
            allowed = [v for v, _ in SETTING_CHOICES[key]]
            if value not in allowed:
                raise InputError(f"{SETTING_LABELS[key]} is one of {', '.join(allowed)}; got {got(value)}.", key)
            out[key] = value
    return out


def read_player(action: Action) -> tuple[str, dict[str, Any]]:
    """A player action: which player, and the changes to their name, Nom Pool or Season Deck."""
    unknown = set(action) - {"do", "player", "name", "nom_pool", "season_deck"}
    if unknown:
        raise InputError(f"A player action has no field {quote(sorted(unknown)[0])}.", "action")
    who = action.get("player")
    if who not in PLAYERS:
        raise InputError(f"A player action says which player: 'first' or 'second'; got {got(who)}.", "player")
    changes: dict[str, Any] = {}
    if "name" in action:
        changes["name"] = check_name(action["name"], "A player's name", "name", most=PLAYER_NAME_MAX_LENGTH)
    if "nom_pool" in action:
        changes["nom_pool"] = _nom_pool(action["nom_pool"])
    if "season_deck" in action:
        changes["season_deck"] = _season_deck(action["season_deck"])
    return who, changes


def _nom_pool(raw: object) -> list[list[str]]:
    """A Nom Pool as [name, division] pairs: from the form's text ("Worker 8, Heavy" a line) or a list."""
    if raw is None or isinstance(raw, str):
        text = raw or ""
        if len(text) > NOM_POOL_MAX_LENGTH:
            raise InputError(f"A Nom Pool is at most {NOM_POOL_MAX_LENGTH:,} characters; this is {len(text):,}.", "nom_pool")
        try:
            pairs = [list(p) for p in parse_nom_pool(text)]
        except InputError as err:
            raise InputError(f"Nom Pool: {err}", "nom_pool") from None
    elif isinstance(raw, list):
        pairs = []
        for n, item in enumerate(raw[: NOM_POOL_MAX_DUELISTS + 1], start=1):
            if isinstance(item, dict) and set(item) <= {"name", "division", "worth", "draw", "discarded"}:
                item = [item.get("name"), item.get("division")]
            if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str) and isinstance(item[1], str)):
                raise InputError(f"Nom Pool, duelist {n}: a name and a division; got {got(item)}.", "nom_pool")
            pairs.append([item[0], item[1]])
    else:
        raise InputError("A Nom Pool is text, one duelist a line ('Worker 8, Heavy'), or a list of names and divisions.", "nom_pool")
    if len(pairs) > NOM_POOL_MAX_DUELISTS:
        raise InputError(f"A Nom Pool has 20 duelists; the tracker takes at most {NOM_POOL_MAX_DUELISTS}, got more.", "nom_pool")
    out = []
    for n, (name, division) in enumerate(pairs, start=1):
        name = check_name(name, f"Nom Pool, duelist {n}'s name", "nom_pool", most=DUELIST_NAME_MAX_LENGTH)
        out.append([name, as_division(division, f"Nom Pool: {name}'s division", "nom_pool")])
    return out


def _season_deck(raw: object) -> dict[str, int]:
    """A Season Deck as {card: copies}: from the form's text ("4 Axeman" a line) or an object."""
    if raw is None or isinstance(raw, str):
        text = raw or ""
        if len(text) > SEASON_DECK_MAX_LENGTH:
            raise InputError(f"A Season Deck list is at most {SEASON_DECK_MAX_LENGTH:,} characters; this is {len(text):,}.", "season_deck")
        try:
            cards = parse_season_deck(text)
        except InputError as err:
            raise InputError(f"Season Deck: {err}", "season_deck") from None
    elif isinstance(raw, dict):
        cards = raw
    else:
        raise InputError("A Season Deck is text, one card a line ('4 Axeman'), or an object of cards and copies.", "season_deck")
    if len(cards) > SEASON_DECK_MAX_CARDS:
        raise InputError(f"The tracker takes Season Decks of at most {SEASON_DECK_MAX_CARDS} different cards; got {len(cards)}.", "season_deck")
    out: dict[str, int] = {}
    for name, copies in cards.items():
        name = check_name(name, "Season Deck: a card's name", "season_deck", most=CARD_NAME_MAX_LENGTH)
        out[name] = out.get(name, 0) + whole_text(copies, f"Season Deck: the copies of {name}", "season_deck", minimum=1, maximum=COPIES_MAX)
    return out


def read_row(raw: object, slot: str, who: str, player: str) -> dict[str, Any] | None:
    """One duelist of a Weekend: the Weekend form's fields; None for an empty slot (every field blank)."""
    field = f"{slot}_{who}"
    group = f"{DIVISION_NAMES[slot]} slot, {player}"
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise InputError(f"{group}: a duelist is an object of {', '.join(WEEKEND_FIELDS)}; got {got(raw)}.", f"{field}_worth")
    unknown = set(raw) - set(ROW_FIELDS)
    if unknown:
        raise InputError(f"{group}: a duelist has no field {quote(sorted(unknown)[0])}.", f"{field}_worth")
    if all(blank(raw.get(k)) or (k in ("votes", "bonus", "opponent_votes") and raw.get(k) in (0, "0"))
           for k in ("name", "worth", "draw", "votes", "bonus", "opponent_votes")):
        return None
    name = check_name(raw.get("name") or "", f"{group}'s duelist name", f"{field}_name", most=DUELIST_NAME_MAX_LENGTH, empty=True)
    division = raw.get("division")
    division = slot if blank(division) else as_division(division, f"{group}'s division", f"{field}_division")
    row: dict[str, str | int] = {"name": name, "division": division}
    for key in ("worth", "draw", "votes", "bonus"):
        low, high = WEEKEND_LIMITS[key]
        value = raw.get(key)
        if blank(value):
            if key in ("worth", "draw"):
                raise InputError(f"{group}'s {key.capitalize()}: this needs a value.", f"{field}_{key}")
            value = 0
        row[key] = whole_text(value, f"{group}'s {'Worth' if key == 'worth' else key.capitalize()}", f"{field}_{key}", minimum=low, maximum=high)
    if not blank(raw.get("opponent_votes")):  # kept only when given: a row without it is as version 2 kept it (league_cards)
        low, high = WEEKEND_LIMITS["votes"]
        given = whole_text(raw["opponent_votes"], f"{group}: the votes from the other player",
                           f"{field}_opponent_votes", minimum=low, maximum=high)
        if given:
            row["opponent_votes"] = given
    return row


def read_rolls(raw: object) -> list[list[int]]:
    """Roll-offs typed: "2 5 3 1" or [[2, 5], [3, 1]], two d6 each (the first player's first)."""
    if raw is None or raw == [] or (isinstance(raw, str) and not raw.strip()):
        return []
    label = "Roll-offs"
    if isinstance(raw, str):
        values = list(parse_numbers(raw, label=label, field="rolls", minimum=1, maximum=ROLL_OFF_SIDES, most=2 * ROLLS_MAX,
                                    example="two d6 per roll-off, like '2 5'"))
        if len(values) % 2:
            raise InputError(f"{label}: type two d6 per roll-off (the first player's, then the second's); got {len(values)} numbers.", "rolls")
        pairs = [values[i:i + 2] for i in range(0, len(values), 2)]
    elif isinstance(raw, list) and len(raw) <= ROLLS_MAX:
        pairs = raw
    else:
        raise InputError(f"{label}: at most {ROLLS_MAX} pairs of d6.", "rolls")
    out = []
    for pair in pairs:
        if not (isinstance(pair, list) and len(pair) == 2):
            raise InputError(f"{label}: each roll-off is two d6; got {got(pair)}.", "rolls")
        out.append([whole_text(v, f"{label}: a d{ROLL_OFF_SIDES}", "rolls", minimum=1, maximum=ROLL_OFF_SIDES) for v in pair])
    return out


def read_vote_pools(raw: object, names: dict[str, str]) -> dict[str, int]:
    """Each player's Vote Pool this week: {"first": 10, "second": 12}; a player left out or blank has the ruling's 10."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict) or set(raw) - set(PLAYERS):
        raise InputError("A Weekend's Vote Pools are an object with a number for 'first' and 'second'.", "first_vote_pool")
    out = {}
    for who in PLAYERS:
        value = raw.get(who)
        out[who] = DEFAULT_VOTE_POOL if blank(value) else whole_text(
            value, f"{names[who]}'s Vote Pool", f"{who}_vote_pool", minimum=0, maximum=VOTE_POOL_MAX)
    return out
