"""Calculator forms in the rule pages, generated from the registry.

A page asks for a calculator with a fence:

    ```calculator
    tell_tale.resolve_attack
    ```

The fence becomes a placeholder in the Markdown and the form is put in the
HTML afterwards, so Markdown never touches it. The form follows the contract
the browser code and the tests rely on: `<form data-calculator="module.function">`,
inputs named after the Python parameters, results in an element with
`data-outcome`, errors in the form's `role="alert"` element.
"""

from __future__ import annotations

import html
import json
import posixpath
import re

from mkdocs.exceptions import PluginError
from mkdocs.utils import get_relative_url

from calculators.registry import Calculator, Param, all_calculators

FENCE = re.compile(r"^[ \t]*```calculator[ \t]*\n(.*?)\n[ \t]*```[ \t]*$", re.M | re.S)
INDEX = re.compile(r"^\{\{\s*calculator-index\s*\}\}[ \t]*$", re.M)
PLACEHOLDER = re.compile(r'<p>CALCULATOR-PLACEHOLDER (\S+)</p>')


# ---------------------------------------------------------------- hooks


def on_config(config):
    config["calculator_pages"] = {}  # page src -> calculator names
    config["calculator_homes"] = {}  # calculator name -> the page src it is on
    return config


def on_files(files, config):
    for file in files.documentation_pages():
        for m in FENCE.finditer(file.content_string):
            config["calculator_homes"].setdefault(m.group(1).strip(), file.src_uri)
    return files


def on_page_markdown(markdown, page, config, files):
    calcs = all_calculators()
    used = []

    def placeholder(m):
        name = m.group(1).strip()
        if name not in calcs:
            raise PluginError(f"{page.file.src_uri}: unknown calculator {name!r}; known: {', '.join(calcs)}.")
        used.append(name)
        return f"CALCULATOR-PLACEHOLDER {name}"

    markdown = FENCE.sub(placeholder, markdown)
    markdown = INDEX.sub(lambda m: _index(calcs, page.file.src_uri, config["calculator_homes"]), markdown)
    if used:
        config["calculator_pages"][page.file.src_uri] = used
        # The page template starts the calculator's worker from <head>, before
        # the rest of the page has loaded (overrides/main.html).
        page.meta["calculator_runtime"] = get_relative_url(config["pyodide_runtime"], page.url)
    return markdown


def on_page_content(content, page, config, files):
    if page.file.src_uri not in config["calculator_pages"]:
        return content
    calcs = all_calculators()
    rules = config["rules_state"].rules
    runtime = get_relative_url(config["pyodide_runtime"], page.url)
    counter = iter(range(1, 100))

    def form(m):
        calc = calcs[m.group(1)]
        missing = [r for r in calc.rules if r not in rules]
        if missing:
            raise PluginError(f"Calculator {calc.name} cites unknown rule IDs: {', '.join(missing)}.")
        links = {r: get_relative_url(rules[r].url, page.url) + "#" + r for r in calc.rules}
        return render_form(calc, f"calc{next(counter)}", links, runtime)

    return PLACEHOLDER.sub(form, content)


# ---------------------------------------------------------------- helpers


def _index(calcs: dict[str, Calculator], src: str, homes: dict[str, str]) -> str:
    """Every calculator, where it is, what it takes: read from the registry."""
    rows = ["| Calculator | What it resolves | Inputs | Command line |", "|---|---|---|---|"]
    for name, calc in calcs.items():
        home = homes.get(name)
        if home is None:
            raise PluginError(f"Calculator {name} is on no page: add a calculator fence where its rules are.")
        rel = posixpath.relpath(home, posixpath.dirname(src) or ".")
        inputs = ", ".join(p.label for p in calc.params)
        rows.append(f"| [{calc.title}]({rel}) | {calc.summary} | {inputs} | `python -m calculators {name}` |")
    return "\n".join(rows)


def _attr(value) -> str:
    return html.escape(str(value), quote=True)


def render_form(calc: Calculator, uid: str, rule_links: dict[str, str], runtime: str) -> str:
    fields = "".join(_field(p, uid) for p in calc.params)
    has_dice = any(p.kind == "dice" for p in calc.params)
    roll = '<button type="button" class="md-button md-button--primary" data-action="roll">Roll for me</button>' if has_dice else ""
    return (
        f'<form class="calc" data-calculator="{_attr(calc.name)}" id="{uid}" novalidate '
        f'data-runtime="{_attr(runtime)}" data-rules="{_attr(json.dumps(rule_links))}">'
        f'<fieldset><legend>{html.escape(calc.title)}</legend>'
        f'<p class="calc-summary">{html.escape(calc.summary)}</p>'
        f'<div class="calc-fields">{fields}</div>'
        f'<div class="calc-actions">{roll}'
        f'<button type="button" class="md-button" data-action="share">Copy link to this result</button>'
        f'<span class="calc-seed" hidden></span></div>'
        f'<p class="calc-status" role="status">The calculator starts when you open a page with one.</p>'
        f'<p class="calc-error" role="alert" id="{uid}-error"></p>'
        f'<div class="calc-result" aria-live="polite" aria-atomic="true"></div>'
        f"</fieldset></form>"
    )


def _field(p: Param, uid: str) -> str:
    fid = f"{uid}-{p.name}"
    described = f"{fid}-help {uid}-error" if p.help else f"{uid}-error"
    common = f'id="{fid}" name="{_attr(p.name)}" aria-describedby="{described}"'
    value = "" if p.default is None else _attr(p.default)
    if p.kind == "choice":
        options = "".join(
            f'<option value="{_attr(v)}"{" selected" if v == p.default else ""}>{html.escape(label)}</option>'
            for v, label in p.choices
        )
        control = f"<select {common}>{options}</select>"
    elif p.kind == "text":
        control = f'<textarea {common} rows="6" spellcheck="false">{value}</textarea>'
    elif p.kind == "dice":
        control = f'<input {common} type="text" inputmode="decimal" autocomplete="off" value="{value}" placeholder="roll or type">'
    else:
        bounds = "".join(f' data-{k}="{v}"' for k, v in (("min", p.minimum), ("max", p.maximum)) if v is not None)
        control = (
            f'<span class="calc-stepper"><button type="button" data-step="-1" aria-label="{_attr(p.label)} minus one">−</button>'
            f'<input {common} type="text" inputmode="numeric" autocomplete="off" value="{value}"{bounds}>'
            f'<button type="button" data-step="1" aria-label="{_attr(p.label)} plus one">+</button></span>'
        )
    help_text = f'<small id="{fid}-help">{html.escape(p.help)}</small>' if p.help else ""
    return f'<div class="calc-field calc-{p.kind}"><label for="{fid}">{html.escape(p.label)}</label>{control}{help_text}</div>'
