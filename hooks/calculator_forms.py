"""Calculator forms in the rule pages, generated from the registry.

A page asks for a calculator with a fence:

    ```calculator
    tell_tale.resolve_attack
    ```

The fence is a `pymdownx.superfences` custom fence (mkdocs.yml): this hook
heads it with a heading of its own ("Calculator: Attack roll", anchor
`#calc-tell-tale-resolve-attack`, listed in the page's table of contents,
one level below its section like a rule) and renders the form in its place
(`Forms.format_fence`, which on_config puts in the fence's settings for the
build). The fence ends a rule, so it never lands in a ruling's box
(the `rulebook` package reads it so). An unknown calculator, or one on two
pages or twice on one, fails the build with its file and line.
`{{ calculator-index }}` (the Calculators page) and `{{ calculator-links }}`
(the home page) link straight to each form.

State: `config["calculator_forms"]`, this build's `Forms`. It reads the rules
from hooks/rule_ids.py's `rulebook.Book` (`rulebook.book_of`), so its on_files
runs after that hook's (50) and its on_page_markdown after that hook has
made rules headings (this one is at -50).

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
from dataclasses import dataclass, field
from itertools import groupby

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.utils import get_relative_url
from pymdownx.superfences import SuperFencesException

from calculators.registry import Calculator, Param, all_calculators
from calculators.table import settings_with_calculators
from rulebook.site.data import MODULE_NAMES as GAME_NAMES
from rulebook.site.data import SETTINGS_PAGES
from rulebook import CALCULATOR, CalculatorFence, book_of, read_page

STATE_KEY = "calculator_forms"
INDEX = re.compile(r"^\{\{\s*calculator-index\s*\}\}[ \t]*$", re.M)
LINKS = re.compile(r"^\{\{\s*calculator-links\s*\}\}[ \t]*$", re.M)
SETTINGS = re.compile(r"^\{\{\s*table-settings\s+(\w+)\s*\}\}[ \t]*$", re.M)
SETTINGS_PLACEHOLDER = re.compile(r'<p>TABLE-SETTINGS-PLACEHOLDER (\w+)</p>')
PREFIXES = {"tt": "tell_tale", "tal": "talislanta", "rpgdl": "rpgdl"}  # rule ID prefix -> calculators module
DICE_HINT = "Several dice: type them all with spaces, like 4 17. Left empty, Roll for me rolls them."


@dataclass
class Forms:
    """This build's calculators: where each one lives, and the page being rendered."""

    homes: dict[str, CalculatorFence] = field(default_factory=dict)  # calculator name -> its fence (page, line, level)
    settings_pages: dict[str, str] = field(default_factory=dict)  # game module -> the page src of its table settings
    fence_bound: bool = False  # mkdocs.yml declares the calculator fence
    page_url: str = ""  # the page being rendered (the fence's format has no other way to know it)
    rule_links: dict[str, str] = field(default_factory=dict)  # rule ID -> its URL, from that page
    runtime: str = ""  # the runtime folder, from that page

    def format_fence(self, source, language, class_name, options, md, **kwargs) -> str:
        """pymdownx.superfences' format for a ```calculator fence: the form."""
        try:
            calc = all_calculators()[source.strip()]
            links = {r: self.rule_links[r] for r in calc.rules}
            settings = get_relative_url(SETTINGS_PAGES[calc.name.split(".")[0]], self.page_url)
            return render_form(calc, links, self.runtime, settings)
        except Exception as err:  # superfences would show the fence as code instead
            raise SuperFencesException(f"calculator {source.strip()!r}: {err!r}") from err


# ---------------------------------------------------------------- hooks


def on_config(config):
    state = config[STATE_KEY] = Forms()
    superfences = config["mdx_configs"].get("pymdownx.superfences", {})
    for fence in superfences.get("custom_fences", ()):
        if fence.get("name") == CALCULATOR:
            fence["format"] = state.format_fence  # this build's forms, for the page being rendered
            state.fence_bound = True
    return config


def on_files(files, config):  # after hooks/rule_ids.py's (50) has read the pages
    state, book, calcs = _forms(config), book_of(config), all_calculators()
    for page in book.pages.values():
        for fence in page.calculators:
            name, where = fence.name, f"{page.src}:{fence.line}"
            if name not in calcs:
                raise PluginError(f"{where}: unknown calculator {name!r}; known: {', '.join(calcs)}.")
            if name in state.homes:
                home = state.homes[name]
                again = f"twice on that page, at lines {home.line} and {fence.line}" if home.src == page.src else f"on {home.src}:{home.line} too"
                raise PluginError(f"{where}: calculator {name} is {again}; a calculator has one home.")
            state.homes[name] = fence
    for name, fence in state.homes.items():
        missing = [r for r in calcs[name].rules if r not in book.rules]
        if missing:
            raise PluginError(f"{fence.src}:{fence.line}: calculator {name} cites unknown rule IDs: {', '.join(missing)}.")
    if state.homes and not state.fence_bound:
        raise PluginError(f"mkdocs.yml: pymdownx.superfences needs the custom fence {CALCULATOR!r} "
                          "(format: !!python/name:rulebook.calculator_fence) for the calculators on the pages.")
    return files


@event_priority(-50)  # after hooks/rule_ids.py (50): the rules are headings by now
def on_page_markdown(markdown, page, config, files):
    state, src = _forms(config), page.file.src_uri
    used = [name for name, home in state.homes.items() if home.src == src]  # in page order
    if used:
        markdown = _head_fences(markdown, src, all_calculators(), state)

    def settings(m):
        prefix = m.group(1)
        if prefix not in PREFIXES:
            source = page.file.content_string
            line = source.count("\n", 0, max(source.find(m.group(0)), 0)) + 1
            raise PluginError(f"{src}:{line}: table-settings needs one of {', '.join(PREFIXES)}, got {prefix}.")
        state.settings_pages[PREFIXES[prefix]] = src
        return f"TABLE-SETTINGS-PLACEHOLDER {PREFIXES[prefix]}"

    markdown = SETTINGS.sub(settings, markdown)
    homes = {name: home.src for name, home in state.homes.items()}
    markdown = INDEX.sub(lambda m: _index(all_calculators(), src, homes), markdown)
    markdown = LINKS.sub(lambda m: _links(all_calculators(), src, homes), markdown)
    if used:
        # What the fence's format needs to draw this page's forms.
        rules, calcs = book_of(config).rules, all_calculators()
        state.page_url = page.url
        state.runtime = get_relative_url(config["pyodide_runtime"], page.url)
        state.rule_links = {r: get_relative_url(rules[r].url, page.url) + "#" + r for name in used for r in calcs[name].rules}
        # The page template starts the calculator's worker from <head>, before
        # the rest of the page has loaded, and offers a skip link to the first
        # form (overrides/main.html).
        page.meta["calculator_runtime"] = state.runtime
        page.meta["calculator_anchor"] = anchor(used[0])
    return markdown


def on_page_content(content, page, config, files):
    return SETTINGS_PLACEHOLDER.sub(lambda m: render_settings(m.group(1), config, page.url), content)


# ---------------------------------------------------------------- helpers


def render_settings(game: str, config, page_url: str) -> str:
    """The settings page of one game: a field per house ruling, with its rule."""
    calcs = all_calculators()
    rules = book_of(config).rules
    try:
        found = settings_with_calculators().get(game, {})
    except RuntimeError as err:  # one param name, two different settings
        raise PluginError(str(err)) from None
    rows = []
    for name, setting in found.items():
        p: Param = setting["param"]
        if p.ruling not in rules:
            raise PluginError(f"Setting {game}.{name} names unknown ruling {p.ruling}.")
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
        href = get_relative_url(rule.url, page_url) + "#" + rule.id
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


def _forms(config) -> Forms:
    return config[STATE_KEY]


def _head_fences(markdown: str, src: str, calcs: dict[str, Calculator], state: Forms) -> str:
    """Each calculator fence of the page with its heading above it."""
    lines = markdown.split("\n")
    for fence in reversed(read_page(markdown, src).calculators):
        level = state.homes[fence.name].level  # as read in the page itself, before rules became headings
        title = calcs[fence.name].title.replace("[", r"\[")
        lines[fence.line - 1:fence.line - 1] = [f"{'#' * level} Calculator: {title} {{ #{anchor(fence.name)} .calc-heading }}", ""]
    return "\n".join(lines)


def _home(name: str, src: str, homes: dict[str, str]) -> str:
    home = homes.get(name)
    if home is None:
        raise PluginError(f"Calculator {name} is on no page: add a calculator fence where its rules are.")
    return posixpath.relpath(home, posixpath.dirname(src) or ".") + "#" + anchor(name)


def _index(calcs: dict[str, Calculator], src: str, homes: dict[str, str]) -> str:
    """Every calculator, where it is, what it takes: read from the registry."""
    rows = ["| Calculator | What it resolves | Inputs |", "|---|---|---|"]  # the command line is the README's
    for name, calc in calcs.items():
        # A row of fields (a duelist) is listed once, by its row's name.
        inputs = ", ".join(dict.fromkeys(p.group or p.label for p in calc.params))
        rows.append(f"| [{calc.title}]({_home(name, src, homes)}) | {calc.summary} | {inputs} |")
    return "\n".join(rows)


def _links(calcs: dict[str, Calculator], src: str, homes: dict[str, str]) -> str:
    """One line per game, each calculator a link straight to its form."""
    lines = []
    for game, names in groupby(calcs, key=lambda n: n.split(".")[0]):
        links = ", ".join(f"[{calcs[n].title.removeprefix('RPGDL: ')}]({_home(n, src, homes)})" for n in names)
        lines.append(f"- **{GAME_NAMES.get(game, game)}**: {links}")
    return "\n".join(lines)


def _attr(value) -> str:
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
