"""The types every game declares its calculators and trackers with, and the answer they give.

A game package describes each calculator once, as a `Calculator`: its typed
parameters (`Param`, older ones as `Legacy`) and an adapter that turns
validated parameters into a `Report`, the player-facing explanation of one
result with its exact odds; a record kept across many steps is a `Tracker`.
This module imports only the checks: the games' entries and reports, the
runner, the table's rulings and a rules module that answers with a `Report`
all import it, and it imports none of them. Finding the games' entries is
`calculators.registry`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from .checks import InputError, blank, whole_text

__all__ = ["DEFAULT_MAX_LENGTH", "YES_NO", "Param", "Legacy", "Report", "Calculator", "ActionSpec", "Tracker"]

DEFAULT_MAX_LENGTH = 1_000  # characters, for a field without a max_length of its own (a number, a choice, dice)
YES_NO = (("no", "No"), ("yes", "Yes"))  # a "yes_no" param's two values, as links and the command line give them


# What a tracker action's field holds (its Param's kind; a calculator's are int, choice, yes_no, dice and text):
#   who     a combatant's id                       choice  one of `choices`
#   number  a whole number (typed)                 text    free text (a loyalty cost, a name)
#   die     one die of `sides`                     d20s    one d20, or two with advantage or disadvantage
#   ids     a list of combatants' ids              line    a charge's line: ids in order, with each one's dice and flag
#   flag    true or false                          list    a list the handler checks (4d6, keywords, an order)
#   object  an object the handler checks (an edit's changes, the rulings)
Kind = Literal["who", "choice", "number", "text", "die", "d20s", "ids", "line", "flag", "list", "object"]
# Whom a `who` or `ids` field offers on the page: those who may take the action and can act now ("actor":
# Python's derived `in_fight`), anybody but the actor ("others"; the nearest living enemy first), the actor's
# enemies ("enemies"), anybody ("anyone"), or those the actor has a chance to strike now (derived `chances`).
Pick = Literal["", "actor", "others", "enemies", "anyone", "chances"]
# Where an action's control sits on its tracker's page: the action menu, a roster card (or the roster's
# add form), the bar (the steps, undo, redo), or the set-up (the rulings, the turn order, a party, a player);
# "shell": no control of its own, the tracker's shell sends it (show: a state from outside checked).
# Every control that sends an action carries the action's name in `data-do` (tests/test_tracker_actions.py).
Place = Literal["menu", "roster", "bar", "setup", "shell"]


@dataclass(frozen=True)
class Param:
    """One input of a calculator: a Python parameter, a form field, a CLI option.

    kind: "int" (a whole number within minimum..maximum), "choice" (one of
    `choices`, pairs of value and label), "yes_no" (a question answered
    "yes" or "no", such as Haste: a switch in the forms, one tap where a
    menu took two; its `choices` are YES_NO), "dice" (dice the player
    rolled, typed as numbers; left empty, "roll for me" rolls them) or
    "text" (free text, such as a decklist).

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

    The same type is a tracker action's field (ActionSpec.fields; made with
    `Param.of`, its kinds are `Kind`'s): JSON names it by `name` (`key`),
    and the attributes after `ruling` say how the action's form asks for it
    and how the action's check holds it (encounter_actions.check).
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
    # A tracker action's field:
    required: bool = False
    refusal: str = ""  # choice: the sentence that says what it may be
    sides: int = 0  # die: its sides
    pick: Pick = ""
    blank: str = ""  # who: what choosing nobody is called (the field is then left out)
    # asked only when the actor's or the target's keywords hold one of these
    needs: tuple[str, tuple[str, ...]] | None = None
    dice: bool = False  # in the action's "dice" object (or, for a line, in each entry of its "dice" list)
    each: tuple[Param, ...] = ()  # line: each enemy's dice
    flag: Param | None = None  # line: a flag per enemy, sent as the list of ids it is set for
    form: bool = True  # the action form asks for it (False: the page sets it from elsewhere)
    # d20s: whose attack roll it is ("actor" or "target") and the field whose choice is its situation ("": none, the
    # usual one); the form says before the roll what that combatant's derived `attack_rolls` says of it
    roll: tuple[str, str] | None = None
    said: str = ""  # what a sentence calls it, where that is not its label ("votes spent on cards")
    # choice: (value, key) pairs: the value is offered only where the entry the form asks about (a party's member)
    # has `key` set (a companion's stat, to a member with a companion)
    only: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, key: str, kind: Kind, label: str = "", help: str = "", **more: Any) -> Param:
        """A tracker action's field, as its declarations write it: key, kind, label, help first."""
        return cls(key, label, kind, help=help, **more)

    @property
    def key(self) -> str:
        """Its name, as a tracker action's JSON and the page call it."""
        return self.name

    def __post_init__(self) -> None:
        if self.kind == "yes_no":
            if self.choices not in ((), YES_NO) or self.default not in ("no", "yes"):
                raise ValueError(f"{self.name}: a yes_no param takes no choices of its own and defaults to 'no' or 'yes'")
            object.__setattr__(self, "choices", YES_NO)

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
        if self.kind in ("choice", "yes_no"):
            value = str(raw).strip().lower()
            allowed = [v for v, _ in self.choices]
            if value not in allowed:
                raise InputError(f"{self.label} must be one of {', '.join(allowed)}; got {str(raw)[:40]!r}.", self.name)
            return value
        return str(raw)

    def _int(self, raw: object) -> int:
        return whole_text(raw, self.label, self.name, minimum=self.minimum, maximum=self.maximum)

    def public(self) -> dict[str, Any]:
        """What the page's form builder (docs/assets/tracker-form.js) is told of a tracker action's field: what it
        sets, with its limits, choices, needs and, for a list, each entry's fields."""
        out: dict[str, Any] = {"key": self.key, "kind": self.kind, "label": self.label}
        for name in ("help", "required", "refusal", "sides", "pick", "blank", "dice"):
            if getattr(self, name):
                out[name] = getattr(self, name)
        for name in ("minimum", "maximum", "max_length"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        if self.choices:
            out["choices"] = [list(c) for c in self.choices]
        if self.only:
            out["only"] = [list(o) for o in self.only]
        if self.needs:
            out["needs"] = [self.needs[0], list(self.needs[1])]
        if self.each:
            out["each"] = [e.public() for e in self.each]
        if self.flag:
            out["flag"] = self.flag.public()
        if not self.form:
            out["form"] = False
        if self.roll:
            out["roll"] = list(self.roll)
        return out


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


@dataclass(frozen=True)
class ActionSpec:
    """One tracker action, declared once: its tracker's step dispatches by it, the page draws its control from it,
    the coverage page reads its rules from it and the tests draw random actions from it.

    handler: what it does. A recorded action's handler changes the step's copy of the state (the tracker's
    step calls it with its own arguments, and writes the log entry and the undo record); an action that is not
    recorded (undo, redo, show) takes the state and answers with the state and its Report.
    rules: the rule IDs its handling can cite (a step's Report cites only these and the tracker's `step_rules`).
    """

    name: str
    label: str
    fields: tuple[Param, ...] = ()
    handler: Callable[..., Any] = lambda *_: None  # every tracker action declares its own
    rules: tuple[str, ...] = ()
    place: Place = "menu"
    records: bool = True  # a step of the game, logged and undoable; False: undo, redo and show
    needs: tuple[str, ...] = ()  # keywords one of which its taker needs ("planeswalker": a planeswalker PC)
    actor: str = ""  # the field naming who acts
    target: str = ""  # the field naming who is acted on
    chance: bool = False  # offered only to an actor with a chance for it now (Python's derived `chances`)

    @property
    def menu(self) -> bool:
        """Whether it is in the action menu ("What happens"); else it has a control of its own."""
        return self.place == "menu"

    @property
    def rolls(self) -> bool:
        """Whether it has dice the page can roll ("Roll for me")."""
        return any(f.dice or f.kind == "line" for f in self.fields)

    def field(self, key: str) -> Param:
        return next(f for f in self.fields if f.name == key)

    def public(self) -> dict[str, Any]:
        """What the page is told of it (its tracker's vocabulary, "actions"), all its form is drawn from: its name,
        label and place, who takes it and whom it names, and each field as `Param.public` gives it."""
        return {"name": self.name, "label": self.label, "place": self.place, "records": self.records, "menu": self.menu,
                "rolls": self.rolls, "needs": list(self.needs), "actor": self.actor, "target": self.target, "chance": self.chance,
                "fields": [f.public() for f in self.fields]}


@dataclass(frozen=True)
class Tracker[S: Mapping[str, Any]]:
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
    new: Callable[[], S]
    check: Callable[[object], S]
    step: Callable[..., tuple[S, Report]]
    # Its actions as declared, each with its handler and the rules it applies: `step` dispatches by them.
    specs: tuple[ActionSpec, ...]
    # The rules every recorded step applies whatever its action (the state's own rules, checked again after each).
    step_rules: tuple[str, ...] = ()
    max_state_chars: int = 200_000  # a state from outside longer than this is refused unread
    max_link_chars: int = 8_000  # a whole share link carrying the state: longer ones break in chats and mail
    # A few lines for a person, such as the command line's summary of the state (None: the JSON).
    describe: Callable[[S], str] | None = None
    # The words and numbers the page draws with (kinds, keywords, divisions,
    # points...), JSON-ready: published in the tracker's container by
    # rulebook/render.py, so the page script never declares a copy.
    vocabulary: Callable[[], dict[str, Any]] | None = None
    # What a share link may carry, the fullest first, each with the sentence
    # the page adds when it is the one that fits (None: the state itself).
    links: Callable[[S], tuple[tuple[object, str], ...]] | None = None
    # The TypedDict of its state: the page's types are written from it (calculators.typescript). None: untyped there.
    state_type: type | None = None

    @property
    def actions(self) -> tuple[str, ...]:
        """Every action's name, in its declaration's order."""
        return tuple(spec.name for spec in self.specs)

    @property
    def rules(self) -> tuple[str, ...]:
        """Every rule ID a step can cite: each action's and every step's."""
        return tuple(dict.fromkeys((*self.step_rules, *(r for spec in self.specs for r in spec.rules))))

    def rules_of(self, action: str) -> tuple[str, ...]:
        """The rules a step of `action` can cite: its declaration's and, when it is recorded, every step's."""
        spec = next(s for s in self.specs if s.name == action)
        return tuple(dict.fromkeys((*(self.step_rules if spec.records else ()), *spec.rules)))
