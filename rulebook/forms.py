"""Calculator forms and table settings forms, generated from the registry.

A page asks for a calculator with a fence:

    ```calculator
    tell_tale.resolve_attack
    ```

rulebook/render.py heads it with a heading of its own ("Calculator: Attack
roll", anchor `#calc-tell-tale-resolve-attack`, listed in the page's table
of contents, one level below its section like a rule), and the fence's
format (`rulebook.extension.calculator_fence`, a pymdownx.superfences custom
fence in mkdocs.yml) draws the form here. `{{ calculator-index }}` (the
Calculators page) and `{{ calculator-links }}` (the home page) link straight
to each form; `{{ table-settings <prefix> }}` is a game's house rulings.

The form follows the contract the browser code and the tests rely on:
`<form data-calculator="module.function">`, inputs named after the Python
parameters, each with its own error line; an answer bar (status, error,
headline in `.calc-result[data-outcome]`, the dice buttons) right under the
dice and kept on screen while the form is; the steps, rules and odds below.

The markup is written once, in `templates/forms.html`, rendered with
autoescape: this module only gathers plain values from the registry (no HTML
is built by f-strings, no value escaped by hand). A yes/no param is drawn as
a switch (a checkbox with role=switch), which sends "yes" or "no".
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Mapping
from itertools import groupby

from calculators.registry import all_calculators
from calculators.types import Calculator, Param
from calculators.house_rules import settings_with_calculators

from calculators.games import GAMES

from .markup import MarkupError, Rule, relative_url
from .templating import macro

# From the games' records (calculators/games.py): each game's name by its package's name (tell_tale), its
# ID prefix -> that name, and where its table settings page is, which the page scripts and the forms link.
MODULE_NAMES = {g.key: g.name for g in GAMES}
PREFIXES = {g.prefix: g.key for g in GAMES}
SETTINGS_PAGES = {g.key: g.settings_page for g in GAMES}
DICE_HINT = "Several dice: type them all with spaces, like 4 17. Left empty, Roll for me rolls them."


def calculator_index(homes: Mapping[str, str], src: str) -> str:
    """Every calculator, where it is, what it takes: read from the registry (Markdown: a table)."""
    calcs = all_calculators()
    rows = ["| Calculator | What it resolves | Inputs |", "|---|---|---|"]  # the command line is the README's
    for name, calc in calcs.items():
        # A row of fields (a duelist) is listed once, by its row's name.
        inputs = ", ".join(dict.fromkeys(p.group or p.label for p in calc.params))
        rows.append(f"| [{calc.title}]({_home(name, homes, src)}) | {calc.summary} | {inputs} |")
    return "\n".join(rows)


def calculator_links(homes: Mapping[str, str], src: str) -> str:
    """One line per game, each calculator a link straight to its form (Markdown: a list)."""
    calcs = all_calculators()
    lines = []
    for game, names in groupby(calcs, key=lambda n: n.split(".")[0]):
        links = ", ".join(f"[{calcs[n].title.removeprefix('RPGDL: ')}]({_home(n, homes, src)})" for n in names)
        lines.append(f"- **{MODULE_NAMES.get(game, game)}**: {links}")
    return "\n".join(lines)


def _home(name: str, homes: Mapping[str, str], src: str) -> str:
    """The link from the page `src` to a calculator's form, as a link to its page's Markdown
    (the generator makes it the page's address); `homes`: name -> the src of its page."""
    home = homes.get(name)
    if home is None:
        raise MarkupError(src, None, f"Calculator {name} is on no page: add a calculator fence where its rules are.")
    return posixpath.relpath(home, posixpath.dirname(src) or ".") + "#" + anchor(name)


def heading(calc: Calculator, level: int) -> str:
    """The Markdown heading above a calculator's fence."""
    title = calc.title.replace("[", r"\[")
    return f"{'#' * level} Calculator: {title} {{ #{anchor(calc.name)} .calc-heading }}"


def render_settings(game: str, rules: Mapping[str, Rule], links_from: str) -> str:
    """The settings page of one game: a field per house ruling, with its rule (links relative to `links_from`)."""
    calcs = all_calculators()
    try:
        found = settings_with_calculators().get(game, {})
    except RuntimeError as err:  # one param name, two different settings
        raise MarkupError("docs", None, str(err)) from None
    rows = []
    for name, setting in found.items():
        p: Param = setting["param"]
        if p.ruling not in rules:
            raise MarkupError("docs", None, f"Setting {game}.{name} names unknown ruling {p.ruling}.")
        rule = rules[p.ruling]
        choice = p.kind == "choice"
        rows.append({
            "name": name, "fid": f"ts-{game}-{name}", "label": p.label, "default": str(p.default),
            "choices": [(v, label, v == p.default) for v, label in p.choices] if choice else [],
            "minimum": p.minimum, "maximum": p.maximum,
            "site_choice": dict(p.choices).get(str(p.default), str(p.default)) if choice else str(p.default),
            "used": ", ".join(calcs[c].title for c in setting["calculators"]),
            "href": relative_url(rule.url, links_from) + "#" + rule.id, "rule_title": rule.title, "rule_id": rule.id,
        })
    return _render("settings", {"game": game, "rows": rows})


def anchor(name: str) -> str:
    """The form's heading anchor: `tell_tale.resolve_attack` -> `calc-tell-tale-resolve-attack`."""
    return "calc-" + re.sub(r"[._]+", "-", name)


def _render(which: str, data: object) -> str:
    """One macro of forms.html, with autoescape: every value goes in as text, never as markup
    (rulebook/templating.py joins the template's lines, so the forms stay one line of HTML, which Markdown passes
    through whole)."""
    return macro("forms.html", which, data)


def render_form(calc: Calculator, rule_links: dict[str, str], runtime: str, settings: str = "") -> str:
    uid = anchor(calc.name).removeprefix("calc-")
    # What the player sets up first, then the dice: the answer bar sits right
    # under the last die, where the eye is when the roll is typed.
    # The rulings a table may decide differently are folded away under the
    # other fields: the site's choice holds until a player opens the box.
    plain = [p for p in calc.params if p.kind != "dice" and not p.ruling]
    rulings = [p for p in calc.params if p.ruling and p.kind != "dice"]
    dice = [p for p in calc.params if p.kind == "dice"]
    # Older parameters an old link may carry, and the fields each one fills.
    olds = {old.name: list(old.replaces) for old in getattr(calc, "legacy", ())}
    return _render("calculator", {
        "name": calc.name, "uid": uid, "anchor": anchor(calc.name), "runtime": runtime, "rules": json.dumps(rule_links),
        "legacy": json.dumps(olds) if olds else None, "settings": settings, "summary": calc.summary,
        "plain": _rows_help([item for group, params in groupby(plain, key=lambda p: p.group)
                             for item in _group(group, list(params), uid)]),
        "rulings": [_field_view(p, uid) for p in rulings],
        "dice": [_field_view(p, uid) for p in dice],
    })


def _group(group: str, params: list[Param], uid: str) -> list[dict[str, object]]:
    """The fields of consecutive params: alone, or as one row (a fieldset) when they share a group."""
    if not group:
        return [_field_view(p, uid) for p in params]
    gid = f"{uid}-{params[0].name}-row"
    return [{"legend": group, "gid": gid, "fields": [_field_view(p, uid, row=gid) for p in params]}]


def _rows_help(items: list[dict[str, object]]) -> list[dict[str, object]]:
    """Rows in a run whose fields have the same help (the eight duelists of a Weekend) say it once: each field
    is described by that one text, not by a help of its own read out eight times. Over several rows it is
    folded under one line before the first (the rows are the form's height); under one row it is shown. A
    row whose fields all have one help says it as it is; other rows say each field's label and help."""
    def said(item: dict[str, object]) -> tuple[tuple[str, str], ...] | None:
        fields = item.get("fields")
        if not isinstance(fields, list):
            return None  # a field alone says its own help
        return tuple((str(f["shown_label"]), str(f["help"])) for f in fields if f["help"]) or None
    out: list[dict[str, object]] = []
    for helps, run in groupby(items, key=said):
        rows = list(run)
        if helps:
            hid = f"{rows[0]['gid']}-help"
            one = {text for _, text in helps}
            folded = len(rows) > 1
            lines = [next(iter(one))] if len(one) == 1 else [f"{label}: {text}" for label, text in helps]
            help_item: dict[str, object] = {
                "help_id": hid, "lines": lines,
                "folded": f"What the fields of these {len(rows)} rows take" if folded else None}
            for row in rows:
                for f in row["fields"]:  # type: ignore[attr-defined]
                    f["described"], f["help"] = f"{hid} {f['fid']}-error", ""
            rows = [help_item, *rows] if folded else [*rows, help_item]
        out.extend(rows)
    return out


def _field_view(p: Param, uid: str, row: str = "") -> dict[str, object]:
    """What forms.html's `field` macro draws for one param (plain values: the template escapes them)."""
    fid = f"{uid}-{p.name}"
    several = p.kind == "dice" and re.search(r"\b(both|dice|d20s|d6s|two|rolls|roll-offs)\b", f"{p.label} {p.help}",
                                             re.I)
    help_text = p.help + (" " + DICE_HINT if several else "")
    return {
        "fid": fid, "name": p.name, "kind": p.kind, "row": row,
        "described": f"{fid}-help {fid}-error" if help_text else f"{fid}-error",
        # In a row the label is short ("Worth"); the row's legend completes its name.
        "labelledby": f"{row} {fid}-label" if row else None,
        "default": None if p.default is None else str(p.default),
        "value": "" if p.default is None else str(p.default),
        "checked": p.default == "yes",
        "choices": [(v, label, v == p.default) for v, label in p.choices],
        "hint": p.display_label + ("" if not p.optional else " (optional)"),
        "negative": p.minimum is None or p.minimum < 0,
        "minimum": p.minimum, "maximum": p.maximum,
        "label": p.label, "shown_label": p.display_label if row else p.label,
        "label_hidden": bool(row) and p.kind == "text",
        "help": help_text,
    }
