"""What a game's GM screen holds: panels of tables and rule lines, the types each game's `gm_panels` module uses.

A panel is a title and what it shows, in order: tables computed from the
rules modules (the attack table with its odds, who plays in which slot,
the multiple action penalty...), and lines, each one rule by its ID. A line
shows the rule's short form, the one the build publishes for previews and
unfurls (rule-previews.json), or for a ruling the short form of its
**Ruling:** paragraph; `whole` shows the rule's whole text (a list such as
the nine actions, cut short by a preview). The words are filled in by the
finishing step from the built pages (rulebook/site/gm_screens.py), so
nothing here retypes a rule: a game's panels name rules and call functions.

Each game package has its panels in `gm_panels.py` (`panels()`), beside its
CALCULATORS and TRACKERS; rulebook/gm_screen.py draws them on
`docs/<game>/gm-screen.md`, which holds `{{ gm-screen <prefix> }}`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from calculators import fmt


@dataclass(frozen=True)
class Line:
    """One rule on the screen: its ID (a link to it), its title and its words (`short` or `whole`)."""

    rule: str
    form: str = "short"


@dataclass(frozen=True)
class Table:
    """Numbers computed from the rules modules; `rules`, one per row ('' for none), names the rule of each row."""

    caption: str
    head: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    rules: tuple[str, ...] = ()
    source: str = ""  # the rule the whole table is data of


@dataclass(frozen=True)
class Follows:
    """A table whose numbers depend on house rulings a table may choose: `make` is called with every value of
    each setting it names (param names of the game's settings, `calculators.house_rules.table_settings`), as keyword
    arguments, so the build publishes the table for each choice and the page shows the one the table made."""

    settings: tuple[str, ...]
    make: Callable[..., Table]


@dataclass(frozen=True)
class Terms:
    """Every term rule of a kind (`keyword`) in the game, one line each: ID, title and effect (its text's first
    sentence); `marked`: those a tracker applies. `together`: a rule whose terms say only that they work as it says
    (their text one sentence that ends with a link to it), listed by name on its line."""

    kind: str
    marked: frozenset[str] = frozenset()
    mark: str = ""
    together: str = ""


@dataclass(frozen=True)
class Panel:
    key: str  # its anchor: gm-<key>
    title: str
    items: tuple[Line | Table | Follows | Terms, ...] = field(default_factory=tuple)


def lines(*rules: str) -> tuple[Line, ...]:
    """A Line for each rule, its short form."""
    return tuple(Line(r) for r in rules)


def pct(p: object) -> str:
    """A chance as a percentage with one decimal."""
    return fmt.percent(p, 1)  # type: ignore[arg-type]
