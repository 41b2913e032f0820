"""RPGDL TCG over a whole Season: the record the season tracker keeps.

A season is plain JSON-ready data built only from its log. Each action is
checked, completed (a roll-off rolled for it is written into it) and
applied by `apply_action`; `replay` rebuilds the very same season from the
log's actions alone, and a season from outside is believed only as far as
its own log rebuilds it (`league_check.check_season`). Undo and redo are
the trackers' one design (history.py), in `league_actions` with the actions' declarations.

The rules are the forms' own: the deck checks (`decks`), the Weekend
(`duels.resolve_weekend`) and the tally (`season.season_tally`). This
module adds the Roster (rpgdl.ruling.roster), running out of a division,
its champion (rpgdl.championship.*) and the end of the game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, cast

from ..checks import InputError, got, quote
from ..checks import Action
from .data import CHAMPIONSHIP_MAX_WEEKS, CHAMPIONSHIP_POINTS, DIVISION_NAMES, DIVISIONS, PLAYERS, SEASON_WEEKS, DuelRulings
from .decks import NOM_POOL_RULES, SEASON_DECK_RULES, check_nom_pool, check_season_deck
from .duels import Duelist, DuelResult, WeekendRow, duel_rules, roll_off, weekend_from_rows, weekend_ties
from .league_cards import card_field, card_words, check_spending, ended_in_week, read_cards, unfought
from .league_input import norm, other, read_player, read_rolls, read_row, read_settings, read_vote_pools
from .league_types import Duel, DuelistRow, Player, Season, SeasonResult, Settings, Standing, Week
from .season import WeekScore, season_tally

__all__ = ["Season", "TRACKER", "VERSION", "MAX_LOG", "UNDO_CAP", "STATE_MAX_CHARS", "new_season", "settings_action", "player_action", "weekend_action",
           "result_of", "Roll"]

TRACKER = "rpgdl.season"
VERSION = 2  # 2: a Weekend keeps its Vote Pools; a division a Nom Pool never had ran out in week 0
MAX_LOG = 100  # entries: two players, their decks and twenty weeks fit many times over
UNDO_CAP = 30  # steps undone by their records; earlier ones by replaying the log
STATE_MAX_CHARS = 200_000  # a season's JSON: what the tracker reads back from outside, so no step may pass it
Roll = Callable[[], tuple[int, int]]  # one roll-off's two d6, first player's first



_SETTING_RULES = {
    "goal": ("rpgdl.season.winner", "rpgdl.championship.winner", "rpgdl.ruling.championship-length"), "trainwreck_limit": ("rpgdl.ruling.trainwreck-limit",),
    "season_tie": ("rpgdl.ruling.season-tie",), "division_penalty": ("rpgdl.ruling.division-penalty",),
    "half_draw": ("rpgdl.ruling.half-draw",), "successes_worth": ("rpgdl.ruling.successes-worth",),
    "sudden_death": ("rpgdl.ruling.sudden-death",),
}


# ---------------------------------------------------------------- a new season


def _player(name: str) -> Player:
    return {"name": name, "nom_pool": [], "nom_pool_problems": [], "season_deck": {}, "season_deck_total": 0,
            "season_deck_problems": []}


def new_season() -> Season:
    """An empty season: the site's rulings, two unnamed players, no weeks."""
    season: Season = {
        "tracker": TRACKER,
        "version": VERSION,
        "settings": cast("Settings", read_settings({}, None)),
        "players": {"first": _player("First player"), "second": _player("Second player")},
        "weeks": [],
        "standings": [],
        "champions": {d: None for d in DIVISIONS},
        "run_out": {p: {} for p in PLAYERS},
        "result": cast("SeasonResult", {}),  # written below, from the rest
        "log": [],
        "undo": [],
        "redo": [],
    }
    season["result"] = result_of(season)
    return season


# ---------------------------------------------------------------- actions (league_actions declares them)


def settings_action(season: Season, action: Action, roll: Roll | None, notes: list[str]) -> dict[str, Any]:
    if season["weeks"]:
        raise InputError("The settings are fixed once the first Weekend is entered: undo the weeks to change them.", "settings")
    unknown = set(action) - {"do", "settings"}
    if unknown:
        raise InputError(f"A settings action has no field {quote(sorted(unknown)[0])}.", "action")
    changes = read_settings(action.get("settings"), season["settings"], partial=True)
    season["settings"] = cast("Settings", {**season["settings"], **changes})
    shown = [f"{key.replace('_', ' ')}: {value}" for key, value in changes.items()]
    return {"action": {"do": "settings", "settings": changes},
            "headline": "Settings: " + ("; ".join(shown) if shown else "no change") + ".",
            "details": [], "rules": [r for key in changes for r in _SETTING_RULES[key]]}


def player_action(season: Season, action: Action, roll: Roll | None, notes: list[str]) -> dict[str, Any]:
    who, changes = read_player(action)
    player = season["players"][who]
    old_name = player["name"]
    details: list[str] = []
    rules: list[str] = []
    if "nom_pool" in changes:
        if season["weeks"]:
            raise InputError("A Nom Pool is fixed once the first Weekend is entered: undo the weeks to change it.", "nom_pool")
        pool = changes["nom_pool"]
        c = check_nom_pool([tuple(p) for p in pool])
        player["nom_pool"] = [{"name": n, "division": d, "worth": None, "draw": None, "discarded": None} for n, d in pool]
        player["nom_pool_problems"] = list(c.problems) if pool else []
        spread = ", ".join(f"{c.counts[d]} {DIVISION_NAMES[d]}" for d in DIVISIONS)
        details.append(f"Nom Pool: {len(pool)} duelists ({spread})" + (", legal." if c.legal else f", not legal: {len(c.problems)} problem(s).")
                       if pool else "Nom Pool cleared: Weekends take any names, and the Roster is not kept.")
        details += player["nom_pool_problems"]
        rules += NOM_POOL_RULES
    if "season_deck" in changes:
        deck = changes["season_deck"]
        c = check_season_deck(deck)
        player["season_deck"] = dict(c.counts) if deck else {}
        player["season_deck_total"] = c.total
        player["season_deck_problems"] = list(c.problems) if deck else []
        details.append(f"Season Deck: {c.total} cards, {len(c.counts)} different" + (", legal." if c.legal else f", not legal: {len(c.problems)} problem(s).")
                       if deck else "Season Deck cleared.")
        details += player["season_deck_problems"]
        rules += SEASON_DECK_RULES
    if "name" in changes:
        player["name"] = changes["name"]
        if norm(player["name"]) == norm(season["players"][other(who)]["name"]):
            raise InputError(f"Both players would be called {player['name']}: give them different names.", "name")
    headline = f"{player['name']}: " + (details[0] if details else "no change.")
    if player["name"] != old_name:
        headline = f"{old_name} is now called {player['name']}." + (f" {details[0]}" if details else "")
    return {"action": {"do": "player", "player": who, **changes}, "headline": headline, "details": details[1:], "rules": rules}


# ---------------------------------------------------------------- the Weekend


def weekend_action(season: Season, action: Action, roll: Roll | None, notes: list[str]) -> dict[str, Any]:
    settings, players = season["settings"], season["players"]
    week = len(season["weeks"]) + 1
    unknown = set(action) - {"do", "week", "first", "second", "rolls", "vote_pools", "cards"}
    if unknown:
        raise InputError(f"A Weekend has no field {quote(sorted(unknown)[0])}.", "action")
    if "week" in action and (isinstance(action["week"], bool) or action["week"] != week):
        said = action["week"] if isinstance(action["week"], int) and 0 < action["week"] < 1000 else got(action["week"])
        raise InputError(f"This was entered as week {said}, but the season is at week {week}: "
                         "was it entered already? Reload to see the season as it is.", "week")
    if season["result"]["over"]:
        raise InputError(f"The game is over: {season['result']['headline']} Undo a week to change it, or start a new season.", "action")
    championship = settings["goal"] == "championship"
    most = CHAMPIONSHIP_MAX_WEEKS if championship else SEASON_WEEKS
    if week > most:
        raise InputError(f"A Season has {SEASON_WEEKS} weeks." if not championship else
                         f"This tracker keeps at most {CHAMPIONSHIP_MAX_WEEKS} weeks under the Championship goal.", "action")
    if championship and not all(players[p]["nom_pool"] for p in PLAYERS):
        raise InputError("The Championship goal needs both players' Nom Pools: a division is lost when its duelists run out.", "nom_pool")
    lines = {p: _lineup(season, p, action.get(p), week) for p in PLAYERS}
    rows = {p: [None if r is None else WeekendRow(Duelist(_shown_name(players[p], r, slot), r["division"], r["worth"], r["draw"]),
                                                  r["votes"] + r.get("opponent_votes", 0), r["bonus"])  # whoever spent them
                for r, slot in zip(lines[p], DIVISIONS)] for p in PLAYERS}
    if not any(r for p in PLAYERS for r in rows[p]):
        raise InputError("Enter at least one duelist for this Weekend.", "godlike_first_worth")
    names = {p: players[p]["name"] for p in PLAYERS}
    pools = read_vote_pools(action.get("vote_pools"), names)
    rolls = read_rolls(action.get("rolls"))
    cards = read_cards(action.get("cards"), names)
    used: list[list[int]] = []

    def next_roll(why: str) -> str:
        if rolls:
            a, b = rolls.pop(0)
        elif roll is not None:
            for _ in range(100):
                a, b = roll()
                if a != b:
                    break
                notes.append(f"{why}: roll-off {a} against {b} is a tie, rolled again.")
        else:
            raise InputError(f"{why}: type the roll-off (two d6, {players['first']['name']}'s first), or let the page roll.", "rolls")
        if a == b:
            raise InputError(f"{why}: the roll-off shows {a} and {b}, a tie: type the roll that broke the tie.", "rolls")
        used.append([a, b])
        won = roll_off(a, b)
        assert won is not None  # a tie was refused just above
        return won

    rulings = DuelRulings.of(cast("Mapping[str, str]", settings))  # the season's duel rulings, as one value
    winners: dict[str, str] = {}
    ties = weekend_ties(rows["first"], rows["second"], rulings=rulings, names=names)
    spent, stopped = check_spending(lines, pools, cards, names), ended_in_week(season["standings"], cards, settings["trainwreck_limit"])
    for slot, tie in ({} if stopped else ties).items():
        winners[slot] = next_roll(f"The {DIVISION_NAMES[slot]} duel is tied at {tie.first_worth}")
    result = unfought(rows) if stopped else weekend_from_rows(rows["first"], rows["second"], rulings=rulings, sudden_death_winners=winners)
    fought = {d.slot: d for d in result.duels}
    record: Week = {"week": week, "duels": [], "first_successes": result.first_successes, "second_successes": result.second_successes,
              "first_trainwrecks": result.first_trainwrecks, "second_trainwrecks": result.second_trainwrecks,
              "returned": {"first": list(result.first_returned), "second": list(result.second_returned)},
              "discarded": {"first": list(result.first_discarded), "second": list(result.second_discarded)}, "crowned": {}}
    details, rules = [], ["rpgdl.pools.select", "rpgdl.weekend.order", "rpgdl.weekend.discard-losers", "rpgdl.weekend.return-winners"]
    for i, slot in enumerate(DIVISIONS):
        d = fought.get(slot)
        row: Duel = {"slot": slot, "first": cast("DuelistRow | None", lines["first"][i]), "second": cast("DuelistRow | None", lines["second"][i]), "fought": d is not None,
               "first_worth": None, "second_worth": None, "winner": None, "successes": 0, "trainwreck": False, "reasons": [],
               "sudden_death": False, "roll": None}
        if d is None and not stopped:  # a game the cards ended in the Week fights no duel (league_cards)
            details.append(_empty_line(season, slot, rows, i))
            rules.append("rpgdl.ruling.empty-slot")
        elif d is not None:
            row["first_worth"], row["second_worth"], row["winner"], row["successes"] = d.first_worth, d.second_worth, d.winner, d.successes
            row["trainwreck"], row["reasons"], row["sudden_death"] = d.trainwreck, list(d.trainwreck_reasons), d.sudden_death
            if slot in winners:
                row["roll"] = used[list(winners).index(slot)]
                rules.append("rpgdl.ruling.roll-off")
            details.append(_duel_line(season, d, row["roll"]))
            rules += duel_rules(d)
        record["duels"].append(row)
    details += card_words(record, lines, cards, spent, pools, names, stopped, rules)  # the votes spent; the cards' Trainwrecks join the week's
    for p in PLAYERS:
        if record["discarded"][p]:
            details.append(f"Discarded to Defeated Duelists: {players[p]['name']}'s {', '.join(record['discarded'][p])}.")
    _results(season, record, lines, details, rules, next_roll, used)
    season["weeks"].append(record)
    season["standings"].append(_standing(season))
    stand = season["standings"][-1]
    f, s = players["first"]["name"], players["second"]["name"]
    lead = (f"{f} takes the Weekend" if result.first_successes > result.second_successes else
            f"{s} takes the Weekend" if result.second_successes > result.first_successes else "An even Weekend")
    headline = (f"Week {week}: the game ends in the Week, on the cards' Trainwrecks, " if stopped else f"Week {week}: {lead}, ") + (
                f"Successes {result.first_successes} to {result.second_successes}, "
                f"Trainwrecks {record['first_trainwrecks']} to {record['second_trainwrecks']}.")
    details.append(f"After week {week}: Successes {stand['first_successes']} to {stand['second_successes']}, Trainwrecks "
                   f"{stand['first_trainwrecks']} to {stand['second_trainwrecks']} ({settings['trainwreck_limit']} lose the game)"
                   + (f", Championship points {stand['first_points']} to {stand['second_points']}." if championship else "."))
    rules += ["rpgdl.season.trainwreck-loss", "rpgdl.ruling.trainwreck-limit"]
    rules += ["rpgdl.championship.divisions", "rpgdl.ruling.championship-length"] if championship else ["rpgdl.season.length"]
    if rolls:
        raise InputError(f"{len(rolls)} roll-off(s) more were typed than this Weekend needs ({len(used)}).", "rolls")
    completed = {"do": "weekend", "week": week, "first": lines["first"], "second": lines["second"], "vote_pools": pools, **card_field(cards)}
    if used:
        completed["rolls"] = used
    return {"action": completed, "headline": headline, "details": details, "rules": rules}


def _shown_name(player: Player, row: dict[str, Any], slot: str) -> str:
    return row["name"] or f"{player['name']}'s {DIVISION_NAMES[slot]}"


def _lineup(season: Season, who: str, raw: object, week: int) -> list[dict[str, Any] | None]:
    """One player's four rows, checked against the Roster when there is a Nom Pool."""
    player = season["players"][who]
    if not isinstance(raw, list) or len(raw) != len(DIVISIONS):
        raise InputError(f"{player['name']}'s line-up is four rows, Godlike, Heavy, Middle and Light.", f"godlike_{who}_worth")
    rows = [read_row(r, slot, who, player["name"]) for r, slot in zip(raw, DIVISIONS)]
    seen: dict[str, str] = {}
    pool = {norm(e["name"]): e for e in player["nom_pool"]}
    for row, slot in zip(rows, DIVISIONS):
        if row is None:
            continue
        field = f"{slot}_{who}_name"
        if row["name"]:
            key = norm(row["name"])
            if key in seen:
                raise InputError(f"{row['name']} is in {player['name']}'s {DIVISION_NAMES[seen[key]]} and "
                                 f"{DIVISION_NAMES[slot]} slots: a duelist fights once a Weekend.", field)
            seen[key] = slot
        if not pool:
            continue
        if not row["name"]:
            raise InputError(f"{DIVISION_NAMES[slot]} slot, {player['name']}: name the duelist, one of the Roster.", field)
        entry = pool.get(norm(row["name"]))
        if entry is None:
            raise InputError(f"{row['name']} is not in {player['name']}'s Nom Pool.", field)
        if entry["discarded"] is not None:
            raise InputError(f"{entry['name']} lost in week {entry['discarded']} and was discarded: it is no longer in "
                             f"{player['name']}'s Roster.", field)
        if entry["division"] != row["division"]:
            raise InputError(f"{player['name']}'s Nom Pool lists {entry['name']} as {DIVISION_NAMES[entry['division']]}, "
                             f"not {DIVISION_NAMES[row['division']]}.", f"{slot}_{who}_division")
        row["name"] = entry["name"]
    if pool:  # a slot left empty while an unused duelist of the Roster could fill it (rpgdl.ruling.empty-slot)
        for row, slot in zip(rows, DIVISIONS):
            spare = [e for e in player["nom_pool"] if e["discarded"] is None and norm(e["name"]) not in seen
                     and DIVISIONS.index(e["division"]) >= DIVISIONS.index(slot)]
            if row is None and spare:
                raise InputError(f"{player['name']} leaves the {DIVISION_NAMES[slot]} slot empty but still has {spare[0]['name']} "
                                 f"({DIVISION_NAMES[spare[0]['division']]}) to put there: fill every slot you can.", f"{slot}_{who}_name")
    return rows  # each row's Worth, votes and slot are checked with the other line-up's (duels.weekend_ties)


def _duel_line(season: Season, d: DuelResult, roll: list[int] | None) -> str:
    names = {p: season["players"][p]["name"] for p in PLAYERS}
    up = {p: f", playing up -{parts.penalty}" if parts.penalty else "" for p, parts in (("first", d.first_parts), ("second", d.second_parts))}
    line = (f"{DIVISION_NAMES[d.slot]}: {d.first.name} ({names['first']}{up['first']}) {d.first_worth} against "
            f"{d.second.name} ({names['second']}{up['second']}) {d.second_worth}")
    if d.sudden_death:
        line += ", tied: Sudden Death"
        if roll:
            line += f", roll-off {roll[0]} against {roll[1]}"
    if d.winner is None:
        return line + ", nobody wins; both return."
    line += f"; {names[d.winner]} wins, {d.successes} Success{'es' if d.successes != 1 else ''}"
    if d.trainwreck:
        why = " and ".join({"division-gap": "two or more divisions lower", "half-draw": "half the Draw or less"}[r] for r in d.trainwreck_reasons)
        line += f", a Trainwreck for {names[cast(str, d.loser)]} (the winner is {why})"
    return line + "."


def _empty_line(season: Season, slot: str, rows: dict[str, Any], i: int) -> str:
    there = [(p, rows[p][i]) for p in PLAYERS if rows[p][i] is not None]
    empty = " and ".join(season["players"][p]["name"] for p in PLAYERS if rows[p][i] is None)
    back = f"; {there[0][1].duelist.name} returns to {season['players'][there[0][0]]['name']}'s Roster" if there else ""
    return f"{DIVISION_NAMES[slot]}: no duel, {empty} left the slot empty{back}."


def _results(season: Season, record: Week, lines: dict[str, Any], details: list[str], rules: list[str], next_roll: Callable[[str], str], used: list[Any]) -> None:
    """Discards and returns in the Roster, then who has run out of a division and its champion."""
    players, week = season["players"], record["week"]
    for p in PLAYERS:
        pool = {norm(e["name"]): e for e in players[p]["nom_pool"]}
        if not pool:
            continue
        rules.append("rpgdl.ruling.roster")
        for row in lines[p]:
            if row is not None:
                pool[norm(row["name"])]["worth"], pool[norm(row["name"])]["draw"] = row["worth"], row["draw"]
        for row, duel in zip(lines[p], record["duels"]):
            if row is not None and duel["winner"] is not None and duel["winner"] != p:
                pool[norm(row["name"])]["discarded"] = week
        for d in DIVISIONS:
            if d not in season["run_out"][p] and not any(e["division"] == d and e["discarded"] is None for e in players[p]["nom_pool"]):
                never = not any(e["division"] == d for e in players[p]["nom_pool"])  # out from the start: week 0
                season["run_out"][p][d] = 0 if never else week
                details.append(f"{players[p]['name']} had no {DIVISION_NAMES[d]} duelist in the Nom Pool: out of that division from the start."
                               if never else f"{players[p]['name']} has no {DIVISION_NAMES[d]} duelist left in the Roster.")
                rules += ["rpgdl.championship.divisions", "rpgdl.ruling.championship-run-out"]
    if season["settings"]["goal"] != "championship":
        return
    for d in DIVISIONS:
        if season["champions"][d] is not None:
            continue
        out = {p: season["run_out"][p][d] for p in PLAYERS if d in season["run_out"][p]}
        if not out:
            continue
        first_out = min(out.values())  # a Nom Pool without the division ran out before the game began (week 0)
        out = {p: w for p, w in out.items() if w == first_out}
        if len(out) == 2:
            champion = next_roll(f"Both players ran out of {DIVISION_NAMES[d]} duelists together")
            rules += ["rpgdl.ruling.championship-same-results", "rpgdl.ruling.roll-off"]
            how = f"both ran out together; {players[champion]['name']} wins the roll-off, {used[-1][0]} against {used[-1][1]}"
        else:
            (loser,) = out
            champion = other(loser)
            how = f"{players[loser]['name']} ran out first" + (", having none in the Nom Pool" if first_out == 0 else "")
        season["champions"][d] = {"player": champion, "week": week, "roll": used[-1] if len(out) == 2 else None}
        record["crowned"][d] = champion
        details.append(f"{players[champion]['name']} is the {DIVISION_NAMES[d]} champion ({how}): "
                       f"{CHAMPIONSHIP_POINTS[d]} Championship points.")
        rules.append("rpgdl.championship.points")


# ---------------------------------------------------------------- standings and the end


def _scores(season: Season) -> list[WeekScore]:
    return [WeekScore(w["first_successes"], w["second_successes"], w["first_trainwrecks"], w["second_trainwrecks"]) for w in season["weeks"]]


def _champions(season: Season) -> dict[str, str]:
    return {d: c["player"] for d, c in season["champions"].items() if c is not None}


def _standing(season: Season) -> Standing:
    s = season["settings"]
    r = season_tally(_scores(season), trainwreck_limit=s["trainwreck_limit"], season_tie=s["season_tie"], goal=s["goal"],
                     champions=_champions(season))
    points = {p: sum(CHAMPIONSHIP_POINTS[d] for d, c in _champions(season).items() if c == p) for p in PLAYERS}
    return {"week": r.weeks_played, "first_successes": r.first_successes, "second_successes": r.second_successes,
            "first_trainwrecks": r.first_trainwrecks, "second_trainwrecks": r.second_trainwrecks,
            "first_points": points["first"], "second_points": points["second"], "outcome": r.outcome, "winner": r.winner}


def result_of(season: Season) -> SeasonResult:
    """Where the game stands: its outcome word, the winner, whether it is over, and one sentence."""
    s, players = season["settings"], season["players"]
    championship = s["goal"] == "championship"
    if not season["standings"]:
        goal = "most Championship points" if championship else f"most Successes after {SEASON_WEEKS} weeks"
        return {"outcome": "in-progress", "winner": None, "over": False, "weeks_played": 0,
                "headline": f"Week 1 next. The goal: the {goal}; {s['trainwreck_limit']} Trainwrecks lose at once."}
    st = season["standings"][-1]
    name = {p: players[p]["name"] for p in PLAYERS}
    week, outcome, winner = st["week"], st["outcome"], st["winner"]
    score = f"Successes {st['first_successes']} to {st['second_successes']}"
    if championship:
        score = f"Championship points {st['first_points']} to {st['second_points']}"
    if outcome.endswith("-trainwrecked"):
        loser = outcome.split("-")[0]
        if loser == "both":
            text = f"Both players reach {s['trainwreck_limit']} Trainwrecks in week {week}: both lose, a draw."
        else:
            text = f"{name[loser]} reaches {s['trainwreck_limit']} Trainwrecks in week {week} and loses: {name[str(winner)]} wins."
    elif outcome.endswith("-wins"):
        text = f"{name[str(winner)]} wins the game: {score}."
    elif outcome == "draw":
        text = f"The game is drawn: {score}" + (", and Trainwrecks level too." if s["season_tie"] == "fewer-trainwrecks" else ".")
    else:
        key = ("first_points", "second_points") if championship else ("first_successes", "second_successes")
        counts = cast("Mapping[str, int]", st)  # the pair the goal counts
        lead = "level" if counts[key[0]] == counts[key[1]] else f"{name['first' if counts[key[0]] > counts[key[1]] else 'second']} leads"
        text = f"Week {week + 1} next: {lead}, {score}."
    return {"outcome": outcome, "winner": winner, "over": outcome != "in-progress", "weeks_played": week, "headline": text}
