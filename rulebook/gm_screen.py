"""A game's GM screen, `{{ gm-screen <prefix> }}`: its panels (calculators/<game>/gm_panels.py) as HTML.

Every line carries its rule's ID as a link to the rule, then the rule's
title and an empty element for its words, which the finishing step fills in
from the built pages (rulebook/site/gm_screens.py: the preview's short form,
a ruling's **Ruling:** paragraph, or the whole text), so that what the screen
says is what the rule page, its preview and its unfurl say. A ruling is
marked as the site's house ruling; one a table may choose differently
names the site's choice and the others (calculators.house_rules). Its line also
holds an element with the ruling's ID beside a `.admonition.ruling` box:
the page script that marks a ruling box with the table's own choice on the
rule pages (docs/assets/house-rules.js, markRulingBoxes) marks it here as well,
so a device that chose another ruling sees its own choice on the screen.

A table that depends on house rulings (calculators.gm_panels.Follows) is drawn with the
site's rulings, and each of its cells that another choice changes carries
the settings it follows (`data-gm-follow`, "<game>.<param>" as the page
stores them) and its words for every value of those settings
(`data-gm-values`, a JSON object keyed by the values joined with spaces):
the page script shows the table's own (docs/assets/house-rules.js, followRulings),
choosing among words Python wrote, so the page computes nothing.

The footer says the screen's address on the deployed site, the date of
the rules (the last commit to the game's pages, else their newest file) and
draws a QR code of the address (from segno's modules, as
docs/assets/print-address.js draws one), when the site's address is a full
one; a page printed from another address says and draws its own instead,
with the QR library of rulebook/site/qr_library.py. Nothing from a title is
inserted unescaped; the whole screen is kept out of the search index (the
rules themselves are in it). No MkDocs in here.
"""

from __future__ import annotations

import importlib
import itertools
import json
import re
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import segno

from calculators import games
from calculators.games import BY_PREFIX
from calculators.gm_panels import Follows, Line, Panel, Table, Terms
from calculators.registry import Param
from calculators.house_rules import table_settings

from .book import Book, rules_date
from .markup import GAMES, MarkupError, Rule, address, relative_url
from .site import qr_library
from .site.gm_screens import FORMS
from .templating import Markup, macro

# Each game's ID prefix -> its panels, made when asked: the game package's gm_panels.panels.
SCREENS: dict[str, Callable[[], tuple[Panel, ...]]] = {
    g.prefix: importlib.import_module(f"calculators.{g.key}.gm_panels").panels for g in games.GAMES}

RULING_MARK = "House ruling"
TEMPLATE = "gm_screen.html"  # the screen's markup (templates/gm_screen.html, autoescaped)
PANELS = "(calculators/<game>/gm_panels.py)"  # where a mistake in a screen's panels is
# The most choices one table is drawn for, all its settings' together (the Vote Pool's: 11 x 20); each cell keeps
# only the values it changes with.
MOST_VALUES = 400
QR_BORDER = 2  # modules of white around a QR code (print-address.js draws its own with as many)


def screen(prefix: str, book: Book, links_from: str, url: str, src: str, line: int, *, site_url: str,
           docs: Path) -> list[str]:
    """The GM screen of the game with ID prefix `prefix`, as one raw HTML block (no blank line in it); `site_url`,
    the address the site is deployed to, and `docs`, the folder of the pages, for its footer."""
    if prefix not in SCREENS:
        raise MarkupError(src, line, f"gm-screen needs one of {', '.join(SCREENS)}, got {prefix}")
    settings = {p.ruling: p for found in table_settings().values() for p in found.values() if p.ruling}
    folder = GAMES[prefix]
    drawn = _Drawn(book, folder, links_from, settings, src, line)
    drawn.game = BY_PREFIX[prefix].key
    # each part kept out of search (Material compares skipped tags by name)
    out = [macro(TEMPLATE, "screen_open", folder)]
    for panel in SCREENS[prefix]():
        out += drawn.panel(panel)
    where = address(site_url, url)
    out.append(macro(TEMPLATE, "footer", where, rules_date(docs, folder), qr_code(where, qr_library.module())))
    out.append(macro(TEMPLATE, "screen_close"))
    return out


class _Drawn:
    """The panels of one screen, drawn with links from its page; each ruling on it once (its ID is an element's)."""

    def __init__(self, book: Book, folder: str, links_from: str, settings: dict[str, Param], src: str, line: int):
        self.book, self.folder, self.links_from, self.settings = book, folder, links_from, settings
        self.src, self.line = src, line
        self.rulings: set[str] = set()
        self.game = ""  # the game's key, which leads its settings' names in storage: rpgdl.trainwreck_limit

    def rule(self, rid: str) -> Rule:
        if rid not in self.book.rules:
            raise MarkupError(self.src, self.line, f"the GM screen names the unknown rule ID {rid} {PANELS}")
        return self.book.rules[rid]

    def link(self, rid: str) -> Markup:
        """The rule's ID as a link to it: HTML already, so the macros it goes into take it whole."""
        rule = self.rule(rid)
        return Markup(macro(TEMPLATE, "link", relative_url(rule.url, self.links_from) + "#" + rid, rid))

    def panel(self, panel: Panel) -> list[str]:
        out = [macro(TEMPLATE, "panel_open", panel.key), macro(TEMPLATE, "panel_title", panel.key, panel.title)]
        lines: list[str] = []
        for item in panel.items:
            if isinstance(item, Line):
                lines.append(self.line_html(item))
                continue
            if lines:
                out += [macro(TEMPLATE, "lines_open"), *lines, macro(TEMPLATE, "lines_close")]
                lines = []
            if isinstance(item, Follows):
                out += self.follows(item)
            else:
                out += self.table(item) if isinstance(item, Table) else self.terms(item)
        if lines:
            out += [macro(TEMPLATE, "lines_open"), *lines, macro(TEMPLATE, "lines_close")]
        return out + [macro(TEMPLATE, "panel_close")]

    def line_html(self, item: Line) -> str:
        rule = self.rule(item.rule)
        if item.form not in FORMS:
            raise MarkupError(self.src, self.line, f"a GM screen line of {rule.id} asks for its {item.form!r} words; "
                                                   f"known: {', '.join(FORMS)} {PANELS}")
        form = "ruling" if rule.ruling and item.form == "short" else item.form
        if not rule.ruling:
            return macro(TEMPLATE, "line", self.link(rule.id), rule.id, rule.title, form, "", None)
        if rule.id in self.rulings:
            raise MarkupError(self.src, self.line, f"the GM screen shows the ruling {rule.id} twice {PANELS}")
        self.rulings.add(rule.id)
        setting = self.settings.get(rule.id)
        # With a setting: the element with the ruling's ID and the box after it, where markRulingBoxes puts the
        # table's own choice.
        return macro(TEMPLATE, "line", self.link(rule.id), rule.id, rule.title, form, RULING_MARK,
                     None if setting is None else _choices(setting))

    def table(self, table: Table, follows: dict[tuple[int, int], tuple[str, str]] | None = None) -> list[str]:
        """A table; `follows`, for a cell (row, column) that a house ruling changes: the settings it follows and its
        words for each value."""
        ruled = bool(table.rules)
        source = self.link(table.source) if table.source else ""
        out = [macro(TEMPLATE, "table_open", ruled), macro(TEMPLATE, "table_caption", table.caption, source),
               macro(TEMPLATE, "table_head", table.head, ruled), macro(TEMPLATE, "table_body")]
        for n, row in enumerate(table.rows):
            link = self.link(table.rules[n]) if ruled and table.rules[n] else ""
            cells = [(follows or {}).get((n, c)) for c in range(len(row))]
            out.append(macro(TEMPLATE, "table_row", row, table.head, ruled, link, cells))
        return out + [macro(TEMPLATE, "table_close")]

    def follows(self, item: Follows) -> list[str]:
        """The table drawn with the site's rulings, each cell another choice changes with its words for every choice."""
        found = table_settings().get(self.game, {})
        missing = [name for name in item.settings if name not in found]
        if missing:
            named = ", ".join(missing)
            said = f"a GM screen table follows {named}, which no setting of {self.game} is {PANELS}"
            raise MarkupError(self.src, self.line, said)
        params = [found[name] for name in item.settings]
        choices = [_values(p) for p in params]
        if len(list(itertools.product(*choices))) > MOST_VALUES:
            named = ", ".join(item.settings)
            said = f"a GM screen table follows {named}: more than {MOST_VALUES} values in all"
            raise MarkupError(self.src, self.line, said)
        made = {combo: item.make(**{p.name: p.parse(v) for p, v in zip(params, combo)})
                for combo in itertools.product(*choices)}
        site = made[tuple(str(p.default) for p in params)]
        for combo, table in made.items():
            if (table.caption, table.head, table.rules, table.source, [len(r) for r in table.rows]) != (
                    site.caption, site.head, site.rules, site.source, [len(r) for r in site.rows]):
                chosen = dict(zip(item.settings, combo))
                raise MarkupError(self.src, self.line, f"a GM screen table changes more than its cells with {chosen}")
        follows = {}
        for n, row in enumerate(site.rows):
            for c in range(len(row)):
                words = {combo: table.rows[n][c] for combo, table in made.items()}
                used = [k for k in range(len(params)) if _matters(words, k)]
                if used:
                    keys = " ".join(f"{self.game}.{params[k].name}" for k in used)
                    values = {" ".join(combo[k] for k in used): said for combo, said in words.items()}
                    follows[(n, c)] = (keys, json.dumps(values, separators=(",", ":"), sort_keys=True))
        return self.table(site, follows)

    def terms(self, terms: Terms) -> list[str]:
        found = [r for r in self.book.rules.values() if r.game == self.folder and r.id.split(".")[1] == terms.kind]
        only = re.compile(r"[^\[\]]*\(see \[\[" + re.escape(terms.together) + r"\]\]\)\.") if terms.together else None
        grouped = [r for r in found if only and only.fullmatch(r.body.strip())]
        out = [macro(TEMPLATE, "terms_open")]
        if grouped:
            names = [Markup(macro(TEMPLATE, "term_name", relative_url(r.url, self.links_from) + "#" + r.id, r.title))
                     for r in grouped]
            out.append(macro(TEMPLATE, "term_group", self.link(terms.together), self.rule(terms.together).title, names))
        for rule in found:
            if rule not in grouped:
                mark = terms.mark if rule.id in terms.marked else ""
                out.append(macro(TEMPLATE, "term", self.link(rule.id), rule.id, rule.title, mark))
        return out + [macro(TEMPLATE, "terms_close")]


def _values(setting: Param) -> list[str]:
    """Every value a setting may take, as the page stores it."""
    if setting.kind == "choice":
        return [value for value, _ in setting.choices]
    if setting.kind == "int" and setting.minimum is not None and setting.maximum is not None:
        return [str(n) for n in range(setting.minimum, setting.maximum + 1)]
    raise ValueError(f"the setting {setting.name} has no list of values a GM screen table could be drawn for")


def _matters(words: dict[tuple[str, ...], str], k: int) -> bool:
    """Whether the k-th setting changes the words: two choices that differ only in it say different things."""
    seen: dict[tuple[str, ...], str] = {}
    for combo, said in words.items():
        rest = combo[:k] + combo[k + 1:]
        if seen.setdefault(rest, said) != said:
            return True
    return False


def _choices(setting: Param) -> str:
    """The site's choice of a setting and the others a table may make."""
    if setting.kind == "choice":
        labels = dict(setting.choices)
        others = [label for value, label in setting.choices if value != str(setting.default)]
        return f"Site: {labels[str(setting.default)]}; a table may choose: {', '.join(others)}."
    return f"Site: {setting.default}; a table may set its own ({setting.label})."


def qr_code(url: str, module: str = "") -> Markup:
    """The QR code of a full address (error correction M) as inline SVG, one path of its dark modules (no script,
    no style), or nothing for a bare path; `module`, the QR library a page printed from another address redraws it
    with (rulebook/site/qr_library.py)."""
    if not urlsplit(url).scheme:
        return Markup("")
    code = segno.make(url, error="m")
    runs = []
    for y, row in enumerate(code.matrix):
        for dark, cells in itertools.groupby(enumerate(row), key=lambda cell: bool(cell[1])):
            if dark:
                first, *rest = cells
                n = 1 + len(rest)
                runs.append(f"M{first[0] + QR_BORDER} {y + QR_BORDER}h{n}v1h-{n}z")
    size = code.symbol_size(border=0)[0]
    return Markup(macro(TEMPLATE, "qr", url, size, size + 2 * QR_BORDER, "".join(runs), module))
