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
"""

from __future__ import annotations

import html
import json
import posixpath
import re
from collections.abc import Mapping
from itertools import groupby

from calculators.registry import all_calculators
from calculators.types import Calculator, Param
from calculators.table import settings_with_calculators

from calculators.games import GAMES

from .markup import MarkupError, Rule, relative_url

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
        fid = f"ts-{game}-{name}"
        if p.kind == "choice":
            options = "".join(
                f'<option value="{_attr(v)}"{" selected" if v == p.default else ""}>{html.escape(label)}</option>' for v, label in p.choices
            )
            control = f'<select id="{fid}" name="{_attr(name)}" data-default="{_attr(p.default)}" aria-describedby="{fid}-help">{options}</select>'
            site_choice = dict(p.choices).get(str(p.default), str(p.default))
        else:
            control = (f'<input id="{fid}" name="{_attr(name)}" type="text" inputmode="numeric" autocomplete="off" value="{_attr(p.default)}" '
                       f'data-default="{_attr(p.default)}" data-min="{p.minimum}" data-max="{p.maximum}" aria-describedby="{fid}-help">')
            site_choice = str(p.default)
        used = ", ".join(calcs[c].title for c in setting["calculators"])
        href = relative_url(rule.url, links_from) + "#" + rule.id
        rows.append(
            f'<div class="ts-setting" data-setting="{_attr(game)}.{_attr(name)}">'
            f'<label for="{fid}">{html.escape(p.label)}</label>{control}'
            f'<p class="calc-field-error" id="{fid}-error" hidden></p>'
            f'<small id="{fid}-help">Ruling <a href="{_attr(href)}">{html.escape(rule.title)}</a> '
            f'(<code>{html.escape(rule.id)}</code>). The site\'s choice: {html.escape(site_choice)}. Used by: {html.escape(used)}.</small></div>'
        )
    return (
        f'<form class="table-settings" data-game="{_attr(game)}" novalidate>'
        f'<div class="ts-join" hidden></div>'
        f'<p class="ts-status" role="status">Your table uses the site\'s rulings.</p>'
        f'{"".join(rows)}'
        f'<div class="ts-actions">'
        f'<button type="button" class="md-button md-button--primary" data-action="join">Copy a join link for my table</button>'
        f'<button type="button" class="md-button" data-action="reset">Back to the site\'s rulings</button></div>'
        f"</form>"
    )



def anchor(name: str) -> str:
    """The form's heading anchor: `tell_tale.resolve_attack` -> `calc-tell-tale-resolve-attack`."""
    return "calc-" + re.sub(r"[._]+", "-", name)


def _attr(value: object) -> str:
    return html.escape(str(value), quote=True)


def render_form(calc: Calculator, rule_links: dict[str, str], runtime: str, settings: str = "") -> str:
    uid = anchor(calc.name).removeprefix("calc-")
    # What the player sets up first, then the dice: the answer bar sits right
    # under the last die, where the eye is when the roll is typed.
    # The rulings a table may decide differently are folded away under the
    # other fields: the site's choice holds until a player opens the box.
    plain = [p for p in calc.params if p.kind != "dice" and not p.ruling]
    rulings = [p for p in calc.params if p.ruling and p.kind != "dice"]
    dice = [p for p in calc.params if p.kind == "dice"]
    fields = "".join(_group(group, list(params), uid) for group, params in groupby(plain, key=lambda p: p.group))
    if rulings:
        fields += (
            f'<details class="calc-rulings"><summary>Rulings: the site\'s choices ({len(rulings)})</summary>'
            f'<div class="calc-fields">{"".join(_field(p, uid) for p in rulings)}</div></details>'
            f'<p class="calc-table-line" hidden></p>'  # "Table settings: 2 house rulings", by the page script
        )
    fields += "".join(_field(p, uid) for p in dice)
    has_dice = any(p.kind == "dice" for p in calc.params)
    # Older parameters an old link may carry, and the fields each one fills.
    olds = {old.name: list(old.replaces) for old in getattr(calc, "legacy", ())}
    legacy = f' data-legacy="{_attr(json.dumps(olds))}"' if olds else ""
    roll = '<button type="button" class="md-button md-button--primary" data-action="roll">Roll for me</button>' if has_dice else ""
    return (
        f'<form class="calc" data-calculator="{_attr(calc.name)}" id="{uid}" novalidate '
        f'aria-labelledby="{anchor(calc.name)}" data-runtime="{_attr(runtime)}" data-rules="{_attr(json.dumps(rule_links))}"'
        f'{legacy} data-settings="{_attr(settings)}">'
        f'<p class="calc-summary">{html.escape(calc.summary)}</p>'
        f'<div class="calc-fields">{fields}</div>'
        f'<div class="calc-answer">'
        f'<p class="calc-status" role="status">The calculator starts when you open a page with one.</p>'
        f'<p class="calc-error" role="alert" id="{uid}-error"></p>'
        f'<div class="calc-result" aria-live="polite" aria-atomic="true"></div>'
        f"</div>"
        f'<div class="calc-actions">{roll}'
        f'<button type="button" class="md-button" data-action="share" title="Copy a link that shows this result to anyone">Copy link</button></div>'
        f'<div class="calc-explain"></div>'
        f"</form>"
    )


def _group(group: str, params: list[Param], uid: str) -> str:
    if not group:
        return "".join(_field(p, uid) for p in params)
    gid = f"{uid}-{params[0].name}-row"
    inner = "".join(_field(p, uid, row=gid) for p in params)
    return f'<fieldset class="calc-row"><legend id="{gid}">{html.escape(group)}</legend>{inner}</fieldset>'


def _field(p: Param, uid: str, row: str = "") -> str:
    fid = f"{uid}-{p.name}"
    several = p.kind == "dice" and re.search(r"\b(both|dice|d20s|d6s|two|rolls|roll-offs)\b", f"{p.label} {p.help}", re.I)
    help_text = p.help + (" " + DICE_HINT if several else "")
    described = f"{fid}-help {fid}-error" if help_text else f"{fid}-error"
    # In a row the label is short ("Worth"); the row's legend completes its name.
    named = f' aria-labelledby="{row} {fid}-label"' if row else ""
    common = f'id="{fid}" name="{_attr(p.name)}"{named} aria-describedby="{described}"'
    value = "" if p.default is None else _attr(p.default)
    if p.kind == "choice":
        options = "".join(
            f'<option value="{_attr(v)}"{" selected" if v == p.default else ""}>{html.escape(label)}</option>'
            for v, label in p.choices
        )
        control = f"<select {common}>{options}</select>"
    elif p.kind == "text" and row:  # a name in a row: one line, labelled inside
        hint = p.display_label + ("" if not p.optional else " (optional)")
        control = f'<input {common} type="text" autocomplete="off" spellcheck="false" value="{value}" placeholder="{_attr(hint)}">'
    elif p.kind == "text":
        control = f'<textarea {common} rows="3" spellcheck="false">{value}</textarea>'
    elif p.kind == "int" and row:  # in a row: no stepper buttons, arrow keys still step
        kind = 'type="number" step="1"' if p.minimum is None or p.minimum < 0 else 'type="text" inputmode="numeric"'
        bounds = "".join(f' data-{k}="{v}"' for k, v in (("min", p.minimum), ("max", p.maximum)) if v is not None)
        control = f'<input {common} {kind} autocomplete="off" value="{value}"{bounds}>'
    elif p.kind == "dice":
        control = f'<input {common} type="text" inputmode="decimal" autocomplete="off" value="{value}" placeholder="type, or Roll for me">'
    else:
        bounds = "".join(f' data-{k}="{v}"' for k, v in (("min", p.minimum), ("max", p.maximum)) if v is not None)
        # A field that takes negatives needs a keypad with a minus sign: only
        # type=number brings one on every phone.
        kind = 'type="number" step="1"' if p.minimum is None or p.minimum < 0 else 'type="text" inputmode="numeric"'
        limits = "".join(f' {k}="{v}"' for k, v in (("min", p.minimum), ("max", p.maximum)) if v is not None) if "number" in kind else ""
        control = (
            f'<span class="calc-stepper"><button type="button" data-step="-1" aria-label="{_attr(p.label)} minus one">−</button>'
            f'<input {common} {kind}{limits} autocomplete="off" value="{value}"{bounds}>'
            f'<button type="button" data-step="1" aria-label="{_attr(p.label)} plus one">+</button></span>'
        )
    label = p.display_label if row else p.label
    label_class = ' class="calc-sr-only"' if row and p.kind == "text" else ""
    # In a row the help is read out with the field but not shown: the row stays one line.
    hidden = ' class="calc-sr-only"' if row else ""
    help_html = f'<small id="{fid}-help"{hidden}>{html.escape(help_text)}</small>' if help_text else ""
    if p.default is not None:
        control = control.replace(f'id="{fid}"', f'id="{fid}" data-default="{_attr(p.default)}"', 1)
    return (
        f'<div class="calc-field calc-{p.kind}" data-param="{_attr(p.name)}"><label for="{fid}" id="{fid}-label"{label_class}>{html.escape(label)}</label>{control}'
        f'<p class="calc-field-error" id="{fid}-error" hidden></p>{help_html}</div>'
    )
