"""A page's Markdown and HTML, rendered from the book in one pass (issue 32).

The markup (documented in CONTRIBUTING.md) is read by rulebook/pages.py with
a real Markdown parser, once per page, so anything inside code stays text:

    r[tt.combat.attack-table] Attack table        a rule: ID, then its title
    ruling[tt.ruling.adv-and-dis] Both at once    a ruling (boxed), same shape
    r[tt.keyword.trample] Trample | trample       a glossary term with aliases
    [[tt.combat.attack-table]]                    link, text = the rule's title
    [[tt.combat.attack-table|the table]]          link with its own text
    {{ rule-index tt }}                           a shortcode (markup.SHORTCODES)
    ```calculator                                 a calculator's form
    ```pycon                                      a worked example, folded

`markdown()` gives the Markdown that Python-Markdown then renders: markers
become headings (a ruling's body indented into its box), links Markdown
links, each shortcode what its function in SHORTCODES below makes, each
calculator fence gets its heading, and worked examples are folded last.
`html()` finishes the rendered page: it fails on markup left as text, links
the terms (the first use of a term in each other rule of the same game) and
puts the table settings forms in. No MkDocs in here: rulebook/extension.py
calls both from Python-Markdown, under any generator.
"""

from __future__ import annotations

import html as html_lib
import itertools
import json
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from calculators.registry import all_calculators, all_trackers

from . import calc_print, coverage, forms, gm_screen
from .book import Book
from .examples import fold_examples
from .markup import LINK, CalculatorFence, MarkupError, Page, Rule, Shortcode, relative_url
from .site import qr_library
from .templating import macro
from .terms import link_terms

RULING_TITLE = "Ruling, not in the rulebook"
MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]#])")  # characters a title must not turn into Markdown
# Markup the rulebook did not read reaches the page as text: `[[ID]]`, a
# marker `r[ID]` / `ruling[ID]`, or a shortcode's `{{`. Code shows markup on
# purpose; nothing else may.
LEFT_MARKUP = re.compile(rf"{LINK.pattern}|(?<![\w-])(?:r|ruling)\[[^\]\n<]*\]|\{{\{{")
CODE_HTML = re.compile(r"<(pre|code|script|style)\b[^>]*>.*?</\1\s*>", re.S | re.I)
SETTINGS_PLACEHOLDER = re.compile(r"<p>TABLE-SETTINGS-PLACEHOLDER (\w+)</p>")
TEMPLATE = "render.html"  # the markup this module puts in a page (templates/render.html, autoescaped)


@dataclass
class Sources:
    """Everything the pages' markup refers to, read once from docs/ (rulebook/extension.py)."""

    book: Book
    order: list[str]  # page srcs in reading order (the nav): rule indexes follow it
    runtime: str  # the calculators' runtime folder, relative to the site root
    calculators: dict[str, CalculatorFence] = field(default_factory=dict)  # name -> its one fence
    trackers: dict[str, str] = field(default_factory=dict)  # name -> the src of its page

    @property
    def homes(self) -> dict[str, str]:
        """Calculator name -> the src of its page."""
        return {name: fence.src for name, fence in self.calculators.items()}


@dataclass(frozen=True)
class Place:
    """Where the page being rendered is: its address (relative to the site root), and what an href in
    its raw HTML is relative to. MkDocs leaves raw HTML as written, so that is the address; Zensical
    rewrites every relative href of a page as if written beside its source file, so there it is the
    source (`relative_url` drops a file's name): the same link reaches the same page under both."""

    url: str
    links_from: str


# ---------------------------------------------------------------- the Markdown


def markdown(page: Page, place: Place, sources: Sources) -> str:
    """The page's Markdown with the markup rendered (`page`: read_page of exactly this text)."""
    book = sources.book
    lines = _with_links(page, book).split("\n")
    rules = {rule.line - 1: rule for rule in page.rules}
    codes = {code.line - 1: code for code in page.shortcodes}
    fences = {fence.line - 1: fence for fence in page.calculators}
    boxed = {n for rule in page.rules if rule.ruling for n in range(rule.line, rule.end)}
    calcs = all_calculators()
    out: list[str] = []
    for n, line in enumerate(lines):
        if n in rules:
            out += _heading(rules[n])
        elif n in codes:
            out += SHORTCODES[codes[n].name](codes[n], page, place, sources)
        else:
            if n in fences:
                out += [forms.heading(calcs[fences[n].name], fences[n].level), ""]
            out.append(("    " + line) if n in boxed and line else line)
    return fold_examples("\n".join(out), page.src)


def _rule_index(code: Shortcode, page: Page, place: Place, sources: Sources) -> list[str]:
    """Every rule of a game: a heading per page (in nav order) and per section,
    a list of rules under each, and a filter box that rule-lookup.js shows.
    Out of the search index: the rules themselves are in it."""
    prefix, src, book = code.argument or "", page.src, sources.book
    order = {path: i for i, path in enumerate(sources.order)}
    rules = sorted((r for r in book.rules.values() if r.id.startswith(prefix + ".")), key=lambda r: order.get(r.src, len(order)))
    out = ['<div class="rule-index" markdown>', "", macro(TEMPLATE, "rule_filter", prefix, len(rules)), ""]
    for chapter_src, grouped in itertools.groupby(rules, key=lambda r: r.src):
        chapter = list(grouped)
        link = f"[{chapter[0].chapter}]({posixpath.relpath(chapter_src, posixpath.dirname(src) or '.')})"
        out += ['<section class="rule-index-chapter" markdown>', "", f"## {link} {{ data-search-exclude }}", ""]
        for section, group in itertools.groupby(chapter, key=lambda r: r.section):
            if section:
                out += [f"### {section} {{ data-search-exclude }}", ""]
            out += ['<ul class="rule-index-list">', *(_index_item(r, place.links_from) for r in group), "</ul>", ""]
        out += ["</section>", ""]
    return out + ["</div>", ""]


def _tracker(code: Shortcode, page: Page, place: Place, sources: Sources) -> list[str]:
    """An empty container the page script fills (docs/assets/<tracker>.js, loaded by rules.js). It
    carries the tracker's vocabulary (`Tracker.vocabulary`: kinds, keywords, divisions, points... as
    JSON in `data-vocabulary`, read with JSON.parse, never as HTML) and its limits (`data-limits`),
    so the script declares none of them; the rules logic is all in Python, through the worker. `data-qr` names
    the QR code library the finishing step copies into the site (site/qr_library.py), for the codes players'
    phones join a fight with (docs/assets/encounter-phones.js)."""
    tracker = all_trackers()[code.argument or ""]
    words = json.dumps(tracker.vocabulary() if tracker.vocabulary else {}, ensure_ascii=False, separators=(",", ":"))
    limits = json.dumps({"state": tracker.max_state_chars, "link": tracker.max_link_chars}, separators=(",", ":"))
    qr = relative_url(qr_library.module(), place.url)
    return [macro(TEMPLATE, "tracker", tracker.name, relative_url(sources.runtime, place.url), words, limits, tracker.title, qr)]


def _table_settings(code: Shortcode, page: Page, place: Place, sources: Sources) -> list[str]:
    """A placeholder paragraph: html() puts the form in after the terms are linked (no terms in forms)."""
    return [f"TABLE-SETTINGS-PLACEHOLDER {forms.PREFIXES[code.argument or '']}"]


def _calculator_index(code: Shortcode, page: Page, place: Place, sources: Sources) -> list[str]:
    return [forms.calculator_index(sources.homes, page.src)]


def _calculator_links(code: Shortcode, page: Page, place: Place, sources: Sources) -> list[str]:
    return [forms.calculator_links(sources.homes, page.src)]


def _gm_screen(code: Shortcode, page: Page, place: Place, sources: Sources) -> list[str]:
    return gm_screen.screen(code.argument or "", sources.book, place.links_from, place.url, page.src, code.line)


def _rules_coverage(code: Shortcode, page: Page, place: Place, sources: Sources) -> list[str]:
    return coverage.page(sources.book, sources.homes, sources.trackers, page.src, place.links_from)


# Each shortcode of pages.SHORTCODES -> the lines it becomes.
SHORTCODES: dict[str, Callable[[Shortcode, Page, Place, Sources], list[str]]] = {
    "rule-index": _rule_index,
    "tracker": _tracker,
    "table-settings": _table_settings,
    "calculator-index": _calculator_index,
    "calculator-links": _calculator_links,
    "gm-screen": _gm_screen,
    "rules-coverage": _rules_coverage,
}


# ---------------------------------------------------------------- the HTML


def html(content: str, page: Page, place: Place, sources: Sources) -> str:
    """The rendered page checked for markup left as text, its terms linked, its settings forms drawn."""
    _check_no_markup_left(content, page)
    book = sources.book
    terms = book.terms(page.src.split("/")[0])
    content, _ = link_terms(content, book.rules, terms, lambda rule: relative_url(rule.url, place.links_from) + "#" + rule.id)
    return SETTINGS_PLACEHOLDER.sub(lambda m: forms.render_settings(m.group(1), book.rules, place.links_from), content)


def calculator_form(name: str, url: str, sources: Sources) -> str:
    """A calculator fence's form, on the page at `url` (its links are data the page script reads: from the address)."""
    calc = all_calculators()[name]
    rules = sources.book.rules
    links = {r: relative_url(rules[r].url, url) + "#" + r for r in calc.rules}
    settings = relative_url(forms.SETTINGS_PAGES[name.split(".")[0]], url)
    return forms.render_form(calc, links, relative_url(sources.runtime, url), settings) + calc_print.odds_on_paper(name)


# ---------------------------------------------------------------- helpers


def _check_no_markup_left(content: str, page: Page) -> None:
    """Fail the build when a link or a marker shows as text on the page.

    The rulebook reads a page with CommonMark, MkDocs with Python-Markdown:
    where they disagree (a `!!! note` paragraph after a blank line is code to
    the first, text to the second; so is Markdown inside an HTML block), the
    markup is never turned into a link or a heading and the reader sees it."""
    m = LEFT_MARKUP.search(CODE_HTML.sub("", content))
    if not m:
        return
    found = html_lib.unescape(m.group(0))
    src, source, read = page.src, page.text, page  # the markup that was read: the line to name is one of the others
    links, markers = {link.start for link in read.links}, {rule.line for rule in read.rules}
    line = None
    for at in (m.start() for m in re.finditer(re.escape(found), source)):
        n = source.count("\n", 0, at) + 1
        if at not in links and n not in markers:
            line = n
            break
    raise MarkupError(
        src, line, f"{found} shows as text on the built page: the rulebook reads an indented block (a !!! note's "
                   "paragraph after a blank line) or an HTML block as code, so write it in the note's first paragraph or outside the block")


def _with_links(page: Page, book: Book) -> str:
    """The page's text with each `[[ID]]` a Markdown link (as many lines)."""
    text = page.text
    for link in reversed(page.links):
        text = text[:link.start] + _md_link(book.resolve(link.id), link.text, page.src) + text[link.end:]
    return text


def _md_link(rule: Rule, text: str | None, src: str) -> str:
    rel = posixpath.relpath(rule.src, posixpath.dirname(src) or ".")
    label = _md_text(rule.title) if text is None else text.replace("[", r"\[").replace("]", r"\]")
    return f'[{label}]({rel}#{rule.id}){{: data-rule="{rule.id}" }}'  # data-rule: print.css prints the ID beside the link


def _md_text(text: str) -> str:
    """Plain text as Markdown that shows exactly that text: no tag, no emphasis."""
    return MARKDOWN_SPECIAL.sub(r"\\\1", html_lib.escape(text, quote=False))


def _heading(rule: Rule) -> list[str]:
    """A rule's heading (anchor = its ID), its ID badge, and a ruling's box."""
    css = ".rule .ruling" if rule.ruling else ".rule"
    prefix = "Ruling: " if rule.ruling else ""
    out = [f"{'#' * rule.level} {prefix}{_md_text(rule.title)} {{ #{rule.id} {css} }}", "", _id_badge(rule), ""]
    if rule.ruling:
        out += [f'!!! ruling "{RULING_TITLE}"', ""]
    return out


def _id_badge(rule: Rule) -> str:
    return macro(TEMPLATE, "id_badge", rule.id)


def _index_item(rule: Rule, links_from: str) -> str:
    """One rule in the index: its title, then its ID, which wraps only after a dot."""
    title = ("Ruling: " if rule.ruling else "") + rule.title
    return macro(TEMPLATE, "index_item", relative_url(rule.url, links_from) + "#" + rule.id, title, rule.id.split("."))
