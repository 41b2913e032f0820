"""One registry of calculators, read by the CLI, the web forms and the docs.

A game module describes each calculator once, as a `Calculator`: its typed
parameters (`Param`) and an adapter that turns validated parameters into a
`Report`, the player-facing explanation of one result with its exact odds.
`run()` is the single entry point for strings from a form, a URL or a
command line: it parses, validates and never raises for bad input; it
answers with a plain dict (JSON-ready) that says `ok` or gives the error
sentence and the parameter at fault.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Mapping

__all__ = ["InputError", "Param", "Report", "Calculator", "all_calculators", "get", "run"]


class InputError(ValueError):
    """Bad input, with a sentence a player understands and the field at fault."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class Param:
    """One input of a calculator: a Python parameter, a form field, a CLI option.

    kind: "int" (a whole number within minimum..maximum), "choice" (one of
    `choices`, pairs of value and label), "dice" (dice the player rolled,
    typed as numbers; left empty, "roll for me" rolls them) or "text"
    (free text, such as a decklist).
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

    def parse(self, raw: object) -> object:
        """Turn a string (or a Python value) into the value the adapter gets."""
        if raw is None or (isinstance(raw, str) and raw.strip() == ""):
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
        if isinstance(raw, bool) or not isinstance(raw, (int, str)):
            raise InputError(f"{self.label} must be a whole number.", self.name)
        text = str(raw).strip()
        if len(text) > 12:
            raise InputError(f"{self.label} must be a whole number of at most 12 digits; got {text[:20]!r}...", self.name)
        try:
            value = int(text)
        except ValueError:
            raise InputError(f"{self.label} must be a whole number; got {str(raw)[:40]!r}.", self.name) from None
        if self.minimum is not None and value < self.minimum:
            raise InputError(f"{self.label} must be at least {self.minimum}; got {value}.", self.name)
        if self.maximum is not None and value > self.maximum:
            raise InputError(f"{self.label} must be at most {self.maximum}; got {value}.", self.name)
        return value


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

    def parse(self, raw: Mapping[str, object]) -> dict[str, object]:
        unknown = set(raw) - {p.name for p in self.params}
        if unknown:
            raise InputError(f"{self.title} has no setting called {sorted(unknown)[0][:40]!r}.")
        return {p.name: p.parse(raw.get(p.name)) for p in self.params}


def all_calculators() -> dict[str, Calculator]:
    from . import rpgdl, talislanta, tell_tale  # noqa: PLC0415 - the games register themselves

    found: dict[str, Calculator] = {}
    for module in (tell_tale, talislanta, rpgdl):
        for calc in module.CALCULATORS:
            found[calc.name] = calc
    return found


def get(name: str) -> Calculator:
    calcs = all_calculators()
    if name not in calcs:
        raise InputError(f"There is no calculator called {name[:60]!r}.")
    return calcs[name]


MAX_SEED = 2**32 - 1


def parse_seed(raw: object) -> int | None:
    if raw is None or str(raw).strip() == "":
        return None
    try:
        seed = int(str(raw).strip())
    except ValueError:
        raise InputError(f"The seed must be a whole number from 0 to {MAX_SEED}; got {str(raw)[:40]!r}.", "seed") from None
    if not 0 <= seed <= MAX_SEED:
        raise InputError(f"The seed must be a whole number from 0 to {MAX_SEED}; got {seed}.", "seed")
    return seed


def run(name: str, raw: Mapping[str, object], seed: object = None) -> dict:
    """Run a calculator on raw strings; return a JSON-ready dict, never raise for bad input."""
    try:
        calc = get(name)
        params = calc.parse(raw)
        seed_value = parse_seed(seed)
        rng = random.Random(seed_value) if seed_value is not None else None
        report = calc.adapter(rng, **params)
    except InputError as err:
        return {"ok": False, "error": str(err), "field": err.field}
    except ValueError as err:  # the rule functions' own checks
        return {"ok": False, "error": str(err), "field": None}
    unknown = set(report.rules) - set(calc.rules)
    if unknown:  # a programming error: the page could not link these
        raise RuntimeError(f"{name} cited rules it does not declare: {sorted(unknown)}")
    return {
        "ok": True,
        "calculator": name,
        "outcome": report.outcome,
        "headline": report.headline,
        "details": list(report.details),
        "rules": list(report.rules),
        "odds_title": report.odds_title,
        "odds": [
            {"label": label, "numerator": p.numerator, "denominator": p.denominator, "percent": float(p * 100)}
            for label, p in report.odds
        ],
        "highlight": report.highlight,
        "dice": dict(report.dice),
        "seed": seed_value,
    }
