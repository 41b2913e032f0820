"""A page's Markdown and HTML, rendered from the book in one pass.

The markup (documented in CONTRIBUTING.md) is read by rulebook/pages.py with
a real Markdown parser, once per page, so anything inside code stays text:

    r[tt.combat.attack-table] Attack table        a rule: ID, then its title
    ruling[tt.ruling.adv-and-dis] Both at once    a ruling (boxed), same shape
    r[tt.keyword.trample] Trample | trample       a glossary term with aliases
    [[tt.combat.attack-table]]                    link, text = the rule's title
    [[tt.combat.attack-table|the table]]          link with its own text
    {{ rule-index tt }}                           a shortcode (SHORTCODES below)
    ```calculator                                 a calculator's form
    ```pycon                                      a worked example, folded

`markdown()` gives the Markdown that Python-Markdown then renders: markers
become headings (a ruling's body indented into its box), links Markdown
links, each shortcode what its function in SHORTCODES below makes (the one
table of shortcodes: name, argument, function), each calculator fence gets
its heading, and worked examples are folded last. `html()` finishes the
rendered page: it links the terms (the first use of a term in each other
rule of the same game). Markup the reader would see as text is refused as
the page is read (rulebook/pages.py), so nothing here checks the rendered
page for it. No MkDocs in
here: rulebook/extension.py calls both from Python-Markdown, under any
generator.
"""

from __future__ import annotations

import html as html_lib
import itertools
import json
import posixpath
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path

from calculators.registry import all_calculators, all_trackers

from . import calc_print, coverage, forms, gm_screen
from .book import Book
from .examples import fold_examples
from .markup import GAMES, CalculatorFence, MarkupError, Page, Rule, Shortcode, relative_url
from .pages import without_front_matter
from .site import qr_library
from .templating import macro
from .terms import link_terms

RULING_TITLE = "Ruling, not in the rulebook"
MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]#])")  # characters a title must not turn into Markdown
TEMPLATE = "render.html"  # the markup this module puts in a page (templates/render.html, autoescaped)


@dataclass
class Sources:
    """Everything the pages' markup refers to, read once from docs/ (rulebook/extension.py)."""

    book: Book
    order: list[str]  # page srcs in reading order (the nav): rule indexes follow it
    runtime: str  # the calculators' runtime folder, relative to the site root
    calculators: dict[str, CalculatorFence] = field(default_factory=dict)  # name -> its one fence
    trackers: dict[str, str] = field(default_factory=dict)  # name -> the src of its page
    docs: Path = Path("docs")  # the folder of the pages (a GM screen's footer dates its game's rules from it)
    site_url: str = "/"  # the address the site is deployed to (a GM screen's footer gives its page's)

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
    src: str = ""  # the page's source, relative to docs/


# ---------------------------------------------------------------- the Markdown


def markdown(page: Page, place: Place, sources: Sources) -> str:
    """The page's Markdown with the markup rendered, from the book's reading of it; its front matter,
    which the generator has read, as blank lines."""
    book = sources.book
    lines = _with_links(page, book).split("\n")
    rules = {rule.line - 1: rule for rule in page.rules}
    codes = {code.line - 1: code for code in page.shortcodes}
    fences = {fence.line - 1: fence for fence in page.calculators}
    boxed = {n for rule in page.rules if rule.ruling for n in range(rule.line, rule.end)}
    front = page.text.count("\n", 0, len(page.text) - len(without_front_matter(page.text)))  # the generator's already
    calcs = all_calculators()
    out: list[str] = [""] * front
    for n, line in enumerate(lines[front:], front):
        if n in rules:
            out += _heading(rules[n])
        elif n in codes:
            out += SHORTCODES[codes[n].name].render(codes[n], page, place, sources)
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
    rules = sorted((r for r in book.rules.values() if r.id.startswith(prefix + ".")),
                   key=lambda r: order.get(r.src, len(order)))
    out = [macro(TEMPLATE, "index_open"), "", macro(TEMPLATE, "rule_filter", prefix, len(rules)), ""]
    for chapter_src, grouped in itertools.groupby(rules, key=lambda r: r.src):
        chapter = list(grouped)
        link = f"[{chapter[0].chapter}]({posixpath.relpath(chapter_src, posixpath.dirname(src) or '.')})"
        out += [macro(TEMPLATE, "chapter_open"), "", f"## {link} {{ data-search-exclude }}", ""]
        for section, group in itertools.groupby(chapter, key=lambda r: r.section):
            if section:
                out += [f"### {section} {{ data-search-exclude }}", ""]
            items = [_index_item(r, place.links_from) for r in group]
            out += [macro(TEMPLATE, "list_open"), *items, macro(TEMPLATE, "list_close"), ""]
        out += [macro(TEMPLATE, "chapter_close"), ""]
    return out + [macro(TEMPLATE, "index_close"), ""]


def _tracker(code: Shortcode, page: Page, place: Place, sources: Sources) -> list[str]:
    """An empty container the page script fills (docs/assets/<tracker>.js, loaded by page-start.js). It
    carries the tracker's vocabulary (`Tracker.vocabulary`: kinds, keywords, divisions, points... as
    JSON in `data-vocabulary`, read with JSON.parse, never as HTML) and its limits (`data-limits`),
    so the script declares none of them; the rules logic is all in Python, through the worker. `data-qr` names
    the QR code library the finishing step copies into the site (site/qr_library.py), for the codes players'
    phones join a fight with (docs/assets/encounter-phones.js)."""
    tracker = all_trackers()[code.argument or ""]
    words = json.dumps(tracker.vocabulary() if tracker.vocabulary else {}, ensure_ascii=False, separators=(",", ":"))
    limits = json.dumps({"state": tracker.max_state_chars, "link": tracker.max_link_chars}, separators=(",", ":"))
    runtime = relative_url(sources.runtime, place.url)
    qr = relative_url(qr_library.module(), place.url)
    return [macro(TEMPLATE, "tracker", tracker.name, runtime, words, limits, tracker.title, qr)]


def _table_settings(code: Shortcode, page: Page, place: Place, sources: Sources) -> list[str]:
    """A game's house rulings as a form (terms.py links no term inside a form)."""
    return [forms.render_settings(forms.PREFIXES[code.argument or ""], sources.book.rules, place.links_from)]


def _calculator_index(code: Shortcode, page: Page, place: Place, sources: Sources) -> list[str]:
    return [forms.calculator_index(sources.homes, page.src)]


def _calculator_links(code: Shortcode, page: Page, place: Place, sources: Sources) -> list[str]:
    return [forms.calculator_links(sources.homes, page.src)]


def _gm_screen(code: Shortcode, page: Page, place: Place, sources: Sources) -> list[str]:
    return gm_screen.screen(code.argument or "", sources.book, place.links_from, place.url, page.src, code.line,
                            site_url=sources.site_url, docs=sources.docs)


def _rules_coverage(code: Shortcode, page: Page, place: Place, sources: Sources) -> list[str]:
    return coverage.page(sources.book, sources.homes, sources.trackers, page.src, place.links_from)


@dataclass(frozen=True)
class Argument:
    """What a shortcode's argument is: its description, and the values it may take (checked as the page is read)."""

    what: str
    known: Callable[[], Collection[str]]
    refusal: str  # the sentence for any other value: {name}, {argument} and {known} filled in


@dataclass(frozen=True)
class ShortcodeKind:
    """A shortcode: its argument (None: it takes none) and the Markdown lines it becomes."""

    argument: Argument | None
    render: Callable[[Shortcode, Page, Place, Sources], list[str]]


GAME = Argument("a game's ID prefix", lambda: GAMES, "{name} needs one of {known}, got {argument}")
TRACKER = Argument("a tracker's name", lambda: all_trackers(), "unknown tracker {argument!r}; known: {known}")

# Every shortcode, `{{ name }}` or `{{ name argument }}` on a line of its own outside code: the one table.
# rulebook/pages.py checks each one it reads against it; `markdown` above renders each with its function.
SHORTCODES: dict[str, ShortcodeKind] = {
    "rule-index": ShortcodeKind(GAME, _rule_index),  # every rule of a game, by chapter
    "tracker": ShortcodeKind(TRACKER, _tracker),  # a tracker's page
    "table-settings": ShortcodeKind(GAME, _table_settings),  # a game's house rulings
    "calculator-index": ShortcodeKind(None, _calculator_index),  # every calculator, where it is, what it takes
    "calculator-links": ShortcodeKind(None, _calculator_links),  # one line per game, each calculator a link
    "gm-screen": ShortcodeKind(GAME, _gm_screen),  # a game's GM screen
    "rules-coverage": ShortcodeKind(None, _rules_coverage),  # which rules the site works out, states, rules on
}


def check_shortcode(code: Shortcode, src: str) -> None:
    """A MarkupError unless `code` is a shortcode of SHORTCODES with the argument it takes."""
    name, argument = code.name, code.argument
    if name not in SHORTCODES:
        raise MarkupError(src, code.line, f"unknown shortcode {{{{ {name} }}}}; known: {', '.join(SHORTCODES)}")
    wanted = SHORTCODES[name].argument
    if (wanted is None) != (argument is None):
        what = wanted.what if wanted else "no argument"
        raise MarkupError(src, code.line, f"{{{{ {name} }}}} takes {what}" + (f", got {argument}" if argument else ""))
    if wanted is not None and argument not in (known := wanted.known()):
        said = wanted.refusal.format(name=name, argument=argument, known=", ".join(known) or "none")
        raise MarkupError(src, code.line, said)


# ---------------------------------------------------------------- the HTML


def html(content: str, page: Page, place: Place, sources: Sources) -> str:
    """The rendered page with its terms linked. The toc extension runs the postprocessors over each heading's words
    too (a page of 30 rules: 60 more calls); text without a rule's heading has no term to link and is read not at
    all."""
    if not any(f'id="{rule.id}"' in content for rule in page.rules):
        return content
    book = sources.book
    terms = book.terms(page.src.split("/")[0])
    content, _ = link_terms(content, book.rules, terms,
                            lambda rule: relative_url(rule.url, place.links_from) + "#" + rule.id)
    return content


def calculator_form(name: str, url: str, sources: Sources) -> str:
    """A calculator fence's form, on the page at `url` (its links are data the page script reads: from the address)."""
    calc = all_calculators()[name]
    rules = sources.book.rules
    links = {r: relative_url(rules[r].url, url) + "#" + r for r in calc.rules}
    settings = relative_url(forms.SETTINGS_PAGES[name.split(".")[0]], url)
    return forms.render_form(calc, links, relative_url(sources.runtime, url), settings) + calc_print.odds_on_paper(name)


# ---------------------------------------------------------------- helpers


def _with_links(page: Page, book: Book) -> str:
    """The page's text with each `[[ID]]` a Markdown link (as many lines)."""
    text = page.text
    for link in reversed(page.links):
        text = text[:link.start] + _md_link(book.resolve(link.id), link.text, page.src) + text[link.end:]
    return text


def _md_link(rule: Rule, text: str | None, src: str) -> str:
    rel = posixpath.relpath(rule.src, posixpath.dirname(src) or ".")
    label = _md_text(rule.title) if text is None else text.replace("[", r"\[").replace("]", r"\]")
    # data-rule: print.css prints the ID beside the link
    return f'[{label}]({rel}#{rule.id}){{: data-rule="{rule.id}" }}'


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
