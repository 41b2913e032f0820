"""One registry of calculators, read by the CLI, the web forms and the docs.

A game package describes each calculator once, as a `Calculator`: its typed
parameters (`Param`) and an adapter that turns validated parameters into a
`Report`, the player-facing explanation of one result with its exact odds.
The games import these types; the registry finds the games by name (`GAMES`)
when first asked, so importing it imports no game.
`run()` is the single entry point for strings from a form, a URL or a
command line: it parses, validates and never raises for bad input; it
answers with a plain dict (JSON-ready) that says `ok` or gives the error
sentence and the parameter at fault.
"""

from __future__ import annotations

import importlib
import itertools
import json
import random
from dataclasses import dataclass, field
from fractions import Fraction
from collections.abc import Callable, Mapping

from . import fmt
from .checks import InputError, blank, parse_seed, whole_text

# Older imports from here keep working; they live in .checks now.
from .checks import MAX_DIGITS as MAX_DIGITS, MAX_SEED as MAX_SEED, parse_numbers as parse_numbers, quote as quote

__all__ = ["InputError", "Param", "Legacy", "Report", "Calculator", "Tracker", "all_calculators", "all_trackers", "apply_table", "get", "run", "table_settings", "track"]

# The games, by module name. Each defines a CALCULATORS tuple of the entries
# below; the registry imports them when first asked, never at its own top,
# so a game can import these types without an import circle.
GAMES = ("calculators.tell_tale", "calculators.talislanta", "calculators.rpgdl")

DEFAULT_MAX_LENGTH = 1_000  # characters, for a field without a max_length of its own (a number, a choice, dice)


@dataclass(frozen=True)
class Param:
    """One input of a calculator: a Python parameter, a form field, a CLI option.

    kind: "int" (a whole number within minimum..maximum), "choice" (one of
    `choices`, pairs of value and label), "dice" (dice the player rolled,
    typed as numbers; left empty, "roll for me" rolls them) or "text"
    (free text, such as a decklist).

    max_length: the longest text accepted, in characters (state it in
    `help`, which the form shows); a field without one takes
    DEFAULT_MAX_LENGTH.

    group: consecutive params with the same non-empty group are one row of a
    form (one duelist: division, Worth, Draw...); the group is the row's
    label, e.g. "Godlike slot, first player". short: the field's label inside
    such a row ("Worth"). `label` stays the full name that error messages and
    the CLI use ("Godlike slot, first player's Worth must be at most 99").

    ruling: the ID of the ruling this param lets a table decide (a choice,
    or a number such as a limit the text leaves open); its `default` is the
    site's ruling. Forms fold these into a "Rulings" box.
    """

    name: str
    label: str
    kind: str = "int"
    default: object = None
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[tuple[str, str], ...] = ()
    help: str = ""
    optional: bool = False
    max_length: int | None = None
    group: str = ""
    short: str = ""
    ruling: str = ""

    @property
    def display_label(self) -> str:
        """The label a form shows beside the field: `short` inside a group's row, else `label`."""
        return self.short or self.label

    def parse(self, raw: object) -> object:
        """Turn a string (or a Python value) into the value the adapter gets."""
        limit = self.max_length or DEFAULT_MAX_LENGTH
        if isinstance(raw, str) and len(raw) > limit:
            raise InputError(f"{self.label}: this is {len(raw):,} characters long; the limit is {limit:,}.", self.name)
        if blank(raw):
            if self.default is not None:
                return self.default
            if self.optional or self.kind == "dice":
                return None
            raise InputError(f"{self.label}: this needs a value.", self.name)
        if self.kind == "int":
            return self._int(raw)
        if self.kind == "choice":
            value = str(raw).strip().lower()
            allowed = [v for v, _ in self.choices]
            if value not in allowed:
                raise InputError(f"{self.label} must be one of {', '.join(allowed)}; got {str(raw)[:40]!r}.", self.name)
            return value
        return str(raw)

    def _int(self, raw: object) -> int:
        return whole_text(raw, self.label, self.name, minimum=self.minimum, maximum=self.maximum)


@dataclass(frozen=True)
class Legacy:
    """An older parameter a calculator still accepts, from links, code and the CLI.

    `translate(raw)` turns its value into the current parameters it stands for
    (name -> raw string, only names in `replaces`), or raises InputError with a
    sentence. Giving it together with any of `replaces` is refused. Errors
    about the fields it filled name it, the field the player actually typed.
    """

    name: str
    label: str
    replaces: tuple[str, ...]
    translate: Callable[[str], Mapping[str, str]]
    help: str = ""


@dataclass(frozen=True)
class Report:
    """What a player sees for one result.

    outcome: one machine word (the form's data-outcome), such as "full".
    headline: one sentence, the answer.
    details: the steps the rules took, in order.
    rules: the rule IDs that decided it.
    odds: (label, exact probability) in display order; may be empty.
    highlight: the odds label this result falls under, if any.
    dice: the dice used, by parameter name, as the player would type them.
    """

    outcome: str
    headline: str
    details: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    odds: tuple[tuple[str, Fraction], ...] = ()
    odds_title: str = ""
    highlight: str | None = None
    dice: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Calculator:
    """A calculator: `adapter(rng, **params) -> Report`.

    `rng` is a `random.Random` when the player asked to roll, else None;
    dice parameters left empty are rolled with it, or the adapter raises
    InputError asking for them. `rules` lists every rule ID it can cite.
    """

    name: str  # "module.function", e.g. "tell_tale.resolve_attack"
    title: str
    summary: str
    params: tuple[Param, ...]
    adapter: Callable[..., Report]
    rules: tuple[str, ...] = ()
    # Inputs that reach each outcome, as a form or a link would send them
    # (strings; "seed" rolls the dice left out). The browser and Pyodide
    # tests replay them; a test checks they cover every outcome.
    examples: tuple[Mapping[str, str], ...] = ()
    # Every outcome word the adapter can give (the forms' data-outcome).
    outcomes: tuple[str, ...] = ()
    # Older parameters still accepted (old share links, scripts, command lines).
    legacy: tuple[Legacy, ...] = ()

    def upgrade(self, raw: Mapping[str, object]) -> tuple[dict[str, object], dict[str, str]]:
        """Replace older parameters by current ones.

        Returns the raw parameters in current names only and, for each field
        an older parameter filled, that parameter's name (for error messages).
        An older parameter left empty is ignored.
        """
        out = dict(raw)
        origin: dict[str, str] = {}
        for old in self.legacy:
            value = out.pop(old.name, None)
            if blank(value):
                continue
            given = [n for n in old.replaces if not blank(out.get(n))]
            if given:
                raise InputError(
                    f"{old.label} is given twice, as one line ({old.name}) and field by field ({given[0]}); keep one of the two.",
                    old.name,
                )
            try:
                new = dict(old.translate(str(value)))
            except ValueError as err:
                raise InputError(str(err), old.name) from None
            if set(new) - set(old.replaces):  # a programming error in the translation
                raise RuntimeError(f"{self.name}: {old.name} translated to {sorted(set(new) - set(old.replaces))}")
            out.update(new)
            origin.update(dict.fromkeys(old.replaces, old.name))
        return out, origin

    def parse(self, raw: Mapping[str, object]) -> dict[str, object]:
        """The checked parameters of raw strings, older parameters accepted."""
        return self.parse_upgraded(*self.upgrade(raw))

    def parse_upgraded(self, raw: Mapping[str, object], origin: Mapping[str, str]) -> dict[str, object]:
        """parse() of what upgrade() gave: run() upgrades once and keeps `origin` for its answer."""
        unknown = set(raw) - {p.name for p in self.params}
        if unknown:
            raise InputError(f"{self.title} has no setting called {sorted(unknown)[0][:40]!r}.")
        try:
            return {p.name: p.parse(raw.get(p.name)) for p in self.params}
        except InputError as err:
            raise InputError(str(err), origin.get(err.field, err.field) if err.field else None) from None


def all_calculators() -> dict[str, Calculator]:
    """Every calculator by name, game by game in the order of GAMES."""
    found: dict[str, Calculator] = {}
    for name in GAMES:
        for calc in importlib.import_module(name).CALCULATORS:
            found[calc.name] = calc
    return found


def table_settings() -> dict[str, dict[str, Param]]:
    """Every house ruling a table may choose: game module -> param name -> Param.

    Declared once, by `Param.ruling`; the settings pages, the forms' defaults,
    the CLI's --table/--set and the tests all read them from here. A param
    name used by several calculators of a game is one setting (the same
    choices and default everywhere, or this raises).
    """
    found: dict[str, dict[str, Param]] = {}
    for name, calc in all_calculators().items():
        game = name.split(".")[0]
        for p in calc.params:
            if not p.ruling:
                continue
            other = found.setdefault(game, {}).setdefault(p.name, p)
            if (other.ruling, other.default, other.choices, other.minimum, other.maximum, other.kind) != (
                    p.ruling, p.default, p.choices, p.minimum, p.maximum, p.kind):
                raise RuntimeError(f"{game}: the setting {p.name} differs between calculators; a setting is one ruling.")
    return found


def apply_table(name: str, raw: Mapping[str, object], table: Mapping[str, object]) -> dict[str, object]:
    """`raw` with the table's house rulings as defaults (values given in `raw` win).

    `table` maps "<game>.<param>" (as the web page stores them, "tell_tale.both")
    or a bare param name to a value. A name no game's rulings know, or a value
    its ruling does not allow, raises InputError: never applied.
    """
    settings = table_settings()
    game = name.split(".")[0]
    chosen: dict[tuple[str, str], str] = {}  # (game, param) -> value; a later entry wins
    for key, value in table.items():
        where, _, param = str(key).rpartition(".")
        games = [where] if where else [g for g in settings if param in settings[g]]
        if not games or any(g not in settings or param not in settings[g] for g in games):
            known = ", ".join(f"{g}.{n}" for g in settings for n in settings[g])
            raise InputError(f"There is no house ruling called {quote(str(key))}: the table settings name {known}.", "table")
        try:
            settings[games[0]][param].parse(str(value))
        except InputError as err:
            raise InputError(f"Table setting {key}: {err}", "table") from None
        for g in games:
            chosen[(g, param)] = str(value)
    out = dict(raw)
    mine = {p.name for p in get(name).params}
    for (g, param), value in chosen.items():
        if g == game and param in mine and blank(out.get(param)):
            out[param] = value
    return out


@dataclass(frozen=True)
class Tracker:
    """A record kept across many rolls, such as a fight or a season.

    The state is plain JSON-ready data (dicts, lists, strings, numbers), so
    the page can keep it on the device, export it and put it in a link; it
    is only ever changed by `step`, a pure function:

    - `new()`: an empty state;
    - `check(raw)`: a state that came from outside (storage, a file, a link),
      checked and normalised, or InputError with a sentence naming what is
      wrong (a game's own "state" field);
    - `step(state, action, rng)`: apply one action (a dict with a "do" key
      naming one of `actions`) and return the new state and the Report of
      what happened (with the rule IDs it applied); bad actions raise
      InputError. `rng` rolls the dice the action leaves out (None: the
      action must give them).
    """

    name: str  # "tell_tale.encounter"
    title: str
    summary: str
    new: Callable[[], dict]
    check: Callable[[object], dict]
    step: Callable[..., tuple[dict, Report]]
    actions: tuple[str, ...]
    rules: tuple[str, ...] = ()
    max_state_chars: int = 200_000  # a state from outside longer than this is refused unread
    max_link_chars: int = 8_000  # a whole share link carrying the state: longer ones break in chats and mail
    # A few lines for a person, such as the command line's summary of the state (None: the JSON).
    describe: Callable[[dict], str] | None = None
    # The words and numbers the page draws with (kinds, keywords, divisions,
    # points...), JSON-ready: published in the tracker's container by
    # hooks/trackers.py, so the page script never declares a copy.
    vocabulary: Callable[[], dict] | None = None


def all_trackers() -> dict[str, Tracker]:
    """Every tracker by name: each game module's TRACKERS, in the order of GAMES."""
    found: dict[str, Tracker] = {}
    for name in GAMES:
        for tracker in getattr(importlib.import_module(name), "TRACKERS", ()):
            found[tracker.name] = tracker
    return found


# The state each tracker last answered, as compact JSON text (what a page
# sends back: JSON.stringify's form). That text came from a checked state, so
# when it comes back it is parsed, not checked again: the check reads every
# undo record and log entry, and made a step's cost grow with the fight's
# history (an encounter after 1,000 actions: about 500 ms a step, all but a
# few ms of it the check). A state from anywhere else is checked in full.
_answered: dict[str, str] = {}
# The same state as the object it was answered as, kept only by track_json
# (the worker's entry point, whose answer leaves as text and so can never be
# changed by its caller): the text that comes back is compared, not parsed.
_answered_state: dict[str, tuple[str, dict]] = {}

MAX_NESTING = 64  # levels of [ and { in a tracker's JSON: states are a few deep, and Pyodide's stack ends near 5,000


def nesting(text: str) -> int:
    """How deeply `text`'s JSON nests, brackets inside strings left out; linear, no recursion.

    json.loads recurses once per level in C, and under Pyodide the browser's
    stack runs out (a fatal RangeError, not a RecursionError) a few thousand
    levels down: so a tracker's JSON is measured before it is read.
    """
    parts = text.split('"')
    outside = []
    in_string = False
    for part in parts:
        if not in_string:
            outside.append(part)
            in_string = True
        elif (len(part) - len(part.rstrip("\\"))) % 2 == 0:  # this quote was not escaped: the string ends
            in_string = False
    steps = "".join(outside).translate(_BRACKETS)
    return max(itertools.accumulate(1 if c == "(" else -1 for c in steps if c in "()"), default=0)


_BRACKETS = {**{ord(c): None for c in map(chr, range(128))}, ord("["): "(", ord("{"): "(", ord("]"): ")", ord("}"): ")"}


def track(name: str, state_json: object, action_json: object, seed: object = None) -> dict:
    """One step of a tracker on JSON text; a JSON-ready dict, never an exception for bad input.

    `state_json` empty or None starts a new state. The answer has the new
    `state` and what happened (outcome, headline, details, rules, dice,
    seed), or `ok: False` and the error sentence; the old state is never
    changed (it is not even returned: the caller keeps it).
    """
    return _track(name, state_json, action_json, seed, None)


def track_json(name: str, state_json: object, action_json: object, seed: object = None) -> str:
    """track()'s answer as JSON text, for the worker: the new state's text is
    written once (it is also what the next step is compared with), and a
    state sent back as answered is neither parsed nor checked."""
    answer = _track(name, state_json, action_json, seed, _answered_state)
    if not answer["ok"]:
        return json.dumps(answer)
    del answer["state"]
    head = json.dumps(answer)
    return head[:-1] + ', "state": ' + _answered[name] + "}"


def _track(name: str, state_json: object, action_json: object, seed: object, kept: dict[str, tuple[str, dict]] | None) -> dict:
    trackers = all_trackers()
    if name not in trackers:
        return {"ok": False, "error": f"There is no tracker called {str(name)[:60]!r}.", "field": None}
    tracker = trackers[name]
    try:
        if state_json is None or (isinstance(state_json, str) and not state_json.strip()):
            state = tracker.new()
        elif kept is not None and name in kept and state_json == kept[name][0]:
            state = kept[name][1]  # never changed: a step copies what it changes, and this one's answer left as text
        elif isinstance(state_json, str) and state_json == _answered.get(name):
            state = json.loads(state_json)
        else:
            if not isinstance(state_json, str) or len(state_json) > tracker.max_state_chars:
                raise InputError(f"The saved {tracker.title.lower()} is too long to read (over {tracker.max_state_chars:,} characters).", "state")
            if nesting(state_json) > MAX_NESTING:
                raise InputError(f"The saved {tracker.title.lower()} is not readable: it is nested too deep.", "state")
            try:
                raw = json.loads(state_json)
            except RecursionError:  # JSON nested deeper than Python recurses: no state is shaped so
                raise InputError(f"The saved {tracker.title.lower()} is not readable: it is nested too deep.", "state") from None
            except ValueError:
                raise InputError(f"The saved {tracker.title.lower()} is not readable: it is not JSON.", "state") from None
            state = tracker.check(raw)
        if not isinstance(action_json, str) or len(action_json) > 20_000:
            raise InputError("The action did not arrive as JSON text (at most 20,000 characters).", "action")
        try:
            if nesting(action_json) > MAX_NESTING:
                raise ValueError("nested too deep")
            action = json.loads(action_json)
        except (ValueError, RecursionError):
            raise InputError("The action is not readable: it is not JSON.", "action") from None
        if not isinstance(action, dict) or action.get("do") not in tracker.actions:
            raise InputError(f"{tracker.title} knows these actions: {', '.join(tracker.actions)}.", "action")
        seed_value = parse_seed(seed)
        rng = random.Random(seed_value) if seed_value is not None else None
        new_state, report = tracker.step(state, action, rng)
    except InputError as err:
        return {"ok": False, "error": str(err), "field": err.field}
    except ValueError as err:
        return {"ok": False, "error": str(err), "field": None}
    answer = _answer(name, report, tracker.rules, seed_value)
    del answer["highlight"]
    _answered[name] = compact_json(new_state)
    if kept is not None:
        kept[name] = (_answered[name], new_state)
    else:
        kept = _answered_state
        kept.pop(name, None)  # the object went to a caller who may change it
    return {"ok": True, "tracker": name, "state": new_state, **answer}


def compact_json(state: object) -> str:
    """A state as JSON.stringify writes it, so that a page's text matches the one answered."""
    return json.dumps(state, separators=(",", ":"), ensure_ascii=False)


def _answer(name: str, report: Report, declared: tuple[str, ...], seed: int | None) -> dict:
    """What a Report says, JSON-ready: the part of run()'s and track()'s answers they share."""
    unknown = set(report.rules) - set(declared)
    if unknown:  # a programming error: the page could not link these
        raise RuntimeError(f"{name} cited rules it does not declare: {sorted(unknown)}")
    return {
        "outcome": report.outcome,
        "headline": report.headline,
        "details": list(report.details),
        "rules": list(report.rules),
        "odds_title": report.odds_title,
        "odds": [
            {"label": label, "numerator": p.numerator, "denominator": p.denominator, "percent": fmt.percent_value(p)}
            for label, p in report.odds
        ],
        "highlight": report.highlight,
        "dice": dict(report.dice),
        "seed": seed,
    }


def get(name: str) -> Calculator:
    calcs = all_calculators()
    if name not in calcs:
        raise InputError(f"There is no calculator called {name[:60]!r}.")
    return calcs[name]


def run(name: str, raw: Mapping[str, object], seed: object = None) -> dict:
    """Run a calculator on raw strings; return a JSON-ready dict, never raise for bad input.

    Older parameters (`Calculator.legacy`) are accepted; an error about a
    field one of them filled names the older parameter.
    """
    origin: dict[str, str] = {}
    try:
        calc = get(name)
        raw, origin = calc.upgrade(raw)
        params = calc.parse_upgraded(raw, origin)
        seed_value = parse_seed(seed)
        rng = random.Random(seed_value) if seed_value is not None else None
        report = calc.adapter(rng, **params)
    except InputError as err:
        return {"ok": False, "error": str(err), "field": origin.get(err.field, err.field) if err.field else None}
    except ValueError as err:  # bad input that names no field (the games raise InputError)
        return {"ok": False, "error": str(err), "field": None}
    return {
        "ok": True,
        "calculator": name,
        **_answer(name, report, calc.rules, seed_value),
        # The current fields that older parameters filled, so a form opened
        # from an old link can show them field by field.
        "upgraded": {field: raw[field] for field in origin if field in raw},
    }
