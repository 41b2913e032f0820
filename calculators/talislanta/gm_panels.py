"""Talislanta's GM screen: the Action Table, its odds by modifier, what each result means, multiple actions
(calculators/gm_panels.py says what a panel is)."""

from __future__ import annotations

from calculators import fmt

from ..gm_panels import Line, Panel, Table, lines, pct
from . import rules as tal


def _action_table() -> Table:
    return Table("The modified total on the Action Table", ("Total", "Result"),
                 tuple((b.range_text, b.title) for b in tal.ACTION_TABLE), tuple(b.rule for b in tal.ACTION_TABLE),
                 source="tal.action.table")


def _action_odds(modifiers: tuple[int, ...] = (-10, -5, -2, 0, 2, 5, 10)) -> Table:
    rows = tuple((fmt.signed(m), *(pct(p) for p in tal.action_odds(m).values())) for m in modifiers)
    return Table("The chance of each result by modifier", ("Modifier", *(b.title for b in tal.ACTION_TABLE)), rows,
                 source="tal.action.total")


def _penalties(actions: int = 4) -> Table:
    rows = tuple((f"Action {n + 1}", fmt.signed(tal.multiple_action_penalty(n)) if n else "0") for n in range(actions))
    return Table("The multiple action penalty, by action in the round", ("Action", "Penalty"), rows,
                 source="tal.multiple.penalty")


def panels() -> tuple[Panel, ...]:
    return (
        Panel("action-table", "The Action Table", (_action_table(), Line("tal.action.procedure", "whole"), *lines(
            "tal.action.total", "tal.action.no-natural-results", "tal.ruling.totals-only", "tal.ruling.table-source"))),
        Panel("results", "What each result means", lines(
            "tal.action.mishap", "tal.action.mishap-gm", "tal.action.failure", "tal.action.partial", "tal.action.full",
            "tal.action.critical",
            "tal.action.critical-gm")),
        Panel("modifiers", "Modifiers", (_action_odds(), *lines(
            "tal.action.modifiers", "tal.ruling.difficulty-sign", "tal.ruling.modifier-list", "tal.difficulty.degree",
            "tal.opposed.difference",
            "tal.ruling.opposed-difficulty"))),
        Panel("multiple", "Multiple actions", (_penalties(), *lines(
            "tal.multiple.one-action", "tal.multiple.optional", "tal.multiple.penalty", "tal.multiple.timing",
            "tal.ruling.attempted-actions-count",
            "tal.multiple.offset", "tal.ruling.offset-later-actions", "tal.ruling.offset-cap",
            "tal.ruling.offset-negative",
            "tal.multiple.mishap", "tal.ruling.mishap-ends-sequence"))),
    )
