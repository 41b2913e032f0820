"""Running a calculator or a tracker step on strings from outside: the single entry points.

`run()` takes strings from a form, a URL or a command line; `track()` one
step of a tracker on JSON text; `track_json()` the same for the browser's
worker, answering text. The worker keeps each tracker's state between steps
(a session): a step may send, instead of the state, the `version` the page
holds, and is answered with what changed (calculators/stream.py). They parse, validate and never raise for bad input:
each answers a plain dict (JSON-ready) that says `ok` or gives the error
sentence and the parameter at fault. A tracker's JSON is measured before it
is read (`nesting`), and a state the worker answered comes back unchecked.
"""

from __future__ import annotations

import itertools
import json
import random
import secrets
from collections.abc import Mapping
from typing import Required, TypedDict

from . import fmt
from .checks import InputError, State, parse_seed
from .history import compact_json, state_text
from .registry import all_trackers, get
from .stream import Change, diff
from .types import Report, Tracker

__all__ = ["run", "track", "track_json", "link", "compact_json", "nesting", "MAX_NESTING"]


class Odd(TypedDict):
    """One line of an answer's odds: an exact probability and its percentage."""

    label: str
    numerator: int
    denominator: int
    percent: float


class Answer(TypedDict, total=False):
    """What run(), track() and link() answer (JSON-ready): `ok` False with the error
    sentence and the field at fault (or None), or `ok` True with what the
    Report says (_answer: outcome to seed; `highlight` run()'s only) and
    run()'s `calculator` and `upgraded` or track()'s `tracker` and new `state`."""

    ok: Required[bool]
    outcome: str
    headline: str
    details: list[str]
    rules: list[str]
    odds_title: str
    odds: list[Odd]
    highlight: str | None
    dice: dict[str, str]
    seed: int | None
    error: str
    field: str | None
    calculator: str
    upgraded: dict[str, object]
    tracker: str
    state: State
    version: str  # track_json()'s: the session's state after the step, by which the page's next step names it
    changes: list[Change]  # track_json()'s, for a step sent with a version: what the step changed (stream.py)
    base: str  # and the version those changes apply to
    stale: bool  # track_json()'s refusal: the worker does not hold that version; send the whole state
    forms: list[dict[str, object]]  # link()'s: what a share link may carry, fullest first


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
_answered_state: dict[str, tuple[str, State]] = {}
# The worker's sessions: each tracker's state as last answered, and its
# version. A step that names that version works from it, and answers only
# what changed; any other version is answered `stale`, and the page sends
# the whole state. A version is this worker's own token and a count, so one
# from another worker (before a restart) never matches.
_sessions: dict[str, tuple[str, State]] = {}
_versions = itertools.count(1)
_token: list[str] = []  # made at the first session, not on import: the snapshot would give every worker the same

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


def track(name: str, state_json: object, action_json: object, seed: object = None) -> Answer:
    """One step of a tracker on JSON text; a JSON-ready dict, never an exception for bad input.

    `state_json` empty or None starts a new state. The answer has the new
    `state` and what happened (outcome, headline, details, rules, dice,
    seed), or `ok: False` and the error sentence; the old state is never
    changed (it is not even returned: the caller keeps it).
    """
    return _track(name, state_json, action_json, seed, None)


def track_json(name: str, state_json: object, action_json: object, seed: object = None, version: object = None) -> str:
    """track()'s answer as JSON text, for the worker, with the session's new `version`.

    With a `version` (and no state): the step works from the state the
    worker holds under that version, and answers `changes` and `base`
    instead of the state; a version the worker does not hold is refused
    with `stale: true`, nothing changed. With a state's text (or none, for a
    new one): the new state is answered whole, its text written once (it
    is also what the next step is compared with), and a state sent back as
    answered is neither parsed nor checked.
    """
    if version is not None:
        return json.dumps(_track_session(name, version, action_json, seed))
    answer = _track(name, state_json, action_json, seed, _answered_state)
    if not answer["ok"]:
        return json.dumps(answer)
    answer["version"] = _keep(name, answer["state"])
    del answer["state"]
    head = json.dumps(answer)
    return "".join((head[:-1], ', "state": ', _answered[name], "}"))  # one copy of the state's text


def _keep(name: str, state: State) -> str:
    """Make `state` the session of tracker `name`; its new version."""
    if not _token:
        _token.append(secrets.token_hex(6))
    version = f"{_token[0]}.{next(_versions)}"
    _sessions[name] = (version, state)
    return version


def _track_session(name: str, version: object, action_json: object, seed: object) -> Answer:
    """One step from the state the session holds as `version`: what it changed, or `stale`."""
    held = _sessions.get(name)
    if held is None or version != held[0]:
        return {"ok": False, "stale": True, "field": None,
                "error": "The calculator no longer holds this state (it was restarted, or another state was opened): send it whole."}
    answer = _track(name, held[1], action_json, seed, None)
    if not answer["ok"]:
        return answer
    new_state = answer.pop("state")
    answer["changes"] = diff(held[1], new_state)
    answer["base"] = held[0]
    answer["version"] = _keep(name, new_state)
    return answer


def _read_state(tracker: Tracker[State], name: str, state_json: object,
                kept: dict[str, tuple[str, State]] | None) -> State:
    """The state `state_json` stands for: a new one for nothing, the one last answered as it was, else checked.
    A dict is a session's state, held by the worker since it was answered (never from outside)."""
    if isinstance(state_json, dict):
        state = state_json
    elif state_json is None or (isinstance(state_json, str) and not state_json.strip()):
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
            raise InputError(f"The saved {tracker.title.lower()} is not readable: it is nested too deep.",
                             "state") from None
        except ValueError:
            raise InputError(f"The saved {tracker.title.lower()} is not readable: it is not JSON.", "state") from None
        state = tracker.check(raw)
    return state


def _no_tracker(name: object) -> Answer:
    return {"ok": False, "error": f"There is no tracker called {str(name)[:60]!r}.", "field": None}


def link(name: str, state_json: object) -> Answer:
    """What a share link of tracker `name` may carry for this state, the fullest first (`Tracker.links`): a JSON-ready
    dict, {"ok": True, "forms": [{"state", "note"}, ...]}, or the refusal, never an exception for bad input."""
    tracker = all_trackers().get(name)
    if tracker is None:
        return _no_tracker(name)
    try:
        state = _read_state(tracker, name, state_json, None)
    except (InputError, ValueError) as err:
        return {"ok": False, "error": str(err), "field": getattr(err, "field", None)}
    forms = tracker.links(state) if tracker.links else ((state, ""),)
    return {"ok": True, "tracker": name, "forms": [{"state": form, "note": note} for form, note in forms]}


def _track(name: str, state_json: object, action_json: object, seed: object,
           kept: dict[str, tuple[str, State]] | None) -> Answer:
    tracker = all_trackers().get(name)
    if tracker is None:
        return _no_tracker(name)
    try:
        state = _read_state(tracker, name, state_json, kept)
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
    if isinstance(state_json, dict):  # a session's step: its answer is the changes, and no text is written
        _answered.pop(name, None)
        _answered_state.pop(name, None)
    else:
        # its records' texts reused: a step's cost does not grow with the history
        _answered[name] = state_text(new_state)
        if kept is not None:
            kept[name] = (_answered[name], new_state)
        else:
            _answered_state.pop(name, None)  # the object went to a caller who may change it
    return {"ok": True, "tracker": name, "state": new_state, **answer}


def _answer(name: str, report: Report, declared: tuple[str, ...], seed: int | None) -> Answer:
    """What a Report says, JSON-ready: the part of run()'s and track()'s answers they share."""
    unknown = set(report.rules) - set(declared)
    if unknown:  # a programming error: the page could not link these
        raise RuntimeError(f"{name} cited rules it does not declare: {sorted(unknown)}")
    return {
        "ok": True,
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


def run(name: str, raw: Mapping[str, object], seed: object = None) -> Answer:
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
