"""A game's GM screen, `{{ gm-screen <prefix> }}` (issue 35): its panels (rulebook/gm_panels.py) as HTML.

Every line carries its rule's ID as a link to the rule, then the rule's
title and a placeholder for its words, which the finishing step fills in
from the built pages (rulebook/site/gm_screens.py: the preview's short form,
a ruling's **Ruling:** paragraph, or the whole text), so that what the screen
says is what the rule page, its preview and its unfurl say. A ruling is
marked as the site's house ruling; one a table may choose differently
names the site's choice and the others (calculators.table). Its line also
holds an element with the ruling's ID beside a `.admonition.ruling` box:
the page script that marks a ruling box with the table's own choice on the
rule pages (docs/assets/table.js, markRulingBoxes) marks it here as well,
so a device that chose another ruling sees its own choice on the screen.

The footer has placeholders for the site's address, the date of the rules
and a QR code of the screen's address, which the finishing step fills in
(it knows the address the site is deployed to). Nothing from a title is
inserted unescaped; the whole screen is kept out of the search index (the
rules themselves are in it). No MkDocs in here.
"""

from __future__ import annotations

import html

from calculators.registry import Param
from calculators.table import table_settings

from .book import Book
from .gm_panels import SCREENS, Line, Panel, Table, Terms
from .markup import GAMES, MarkupError, Rule, relative_url

FORMS = ("short", "whole", "ruling")  # what a line's placeholder asks the finishing step for
RULING_MARK = "House ruling"


def screen(prefix: str, book: Book, links_from: str, url: str, src: str, line: int) -> list[str]:
    """The GM screen of the game with ID prefix `prefix`, as one raw HTML block (no blank line in it)."""
    if prefix not in SCREENS:
        raise MarkupError(src, line, f"gm-screen needs one of {', '.join(SCREENS)}, got {prefix}")
    settings = {p.ruling: p for found in table_settings().values() for p in found.values() if p.ruling}
    folder = GAMES[prefix]
    drawn = _Drawn(book, folder, links_from, settings, src, line)
    out = [f'<div class="gm-screen" data-game="{folder}">']  # each part kept out of search (Material compares skipped tags by name)
    for panel in SCREENS[prefix]():
        out += drawn.panel(panel)
    out.append(
        '<footer class="gm-footer" data-search-exclude=""><p>'
        f'<span class="gm-site" data-gm-site="{_e(url)}"></span> · rules of <span class="gm-date" data-gm-date="{folder}"></span>'
        f'</p><span class="gm-qr" data-gm-qr="{_e(url)}"></span></footer>')
    out.append("</div>")
    return out


class _Drawn:
    """The panels of one screen, drawn with links from its page; each ruling on it once (its ID is an element's)."""

    def __init__(self, book: Book, folder: str, links_from: str, settings: dict[str, Param], src: str, line: int):
        self.book, self.folder, self.links_from, self.settings, self.src, self.line = book, folder, links_from, settings, src, line
        self.rulings: set[str] = set()

    def rule(self, rid: str) -> Rule:
        if rid not in self.book.rules:
            raise MarkupError(self.src, self.line, f"the GM screen names the unknown rule ID {rid} (rulebook/gm_panels.py)")
        return self.book.rules[rid]

    def link(self, rid: str) -> str:
        rule = self.rule(rid)
        href = relative_url(rule.url, self.links_from) + "#" + rid
        return f'<a class="gm-id" href="{_e(href)}">{_e(rid)}</a>'

    def panel(self, panel: Panel) -> list[str]:
        out = [f'<section class="gm-panel" id="gm-{panel.key}" aria-labelledby="gm-{panel.key}-title" data-search-exclude="">',
               f'<h2 id="gm-{panel.key}-title" data-search-exclude="">{_e(panel.title)}</h2>']
        lines: list[str] = []
        for item in panel.items:
            if isinstance(item, Line):
                lines.append(self.line_html(item))
                continue
            if lines:
                out += ['<ul class="gm-lines">', *lines, "</ul>"]
                lines = []
            out += self.table(item) if isinstance(item, Table) else self.terms(item)
        if lines:
            out += ['<ul class="gm-lines">', *lines, "</ul>"]
        return out + ["</section>"]

    def line_html(self, item: Line) -> str:
        rule = self.rule(item.rule)
        form = "ruling" if rule.ruling and item.form == "short" else item.form
        text = f'<span class="gm-text" data-gm-text="{_e(rule.id)}" data-gm-form="{form}"></span>'
        head = f'{self.link(rule.id)} <span class="gm-title">{_e(rule.title)}</span>'
        if not rule.ruling:
            return f'<li class="gm-line">{head} {text}</li>'
        if rule.id in self.rulings:
            raise MarkupError(self.src, self.line, f"the GM screen shows the ruling {rule.id} twice (rulebook/gm_panels.py)")
        self.rulings.add(rule.id)
        mark = f'<strong class="gm-mark">{RULING_MARK}</strong>'
        setting = self.settings.get(rule.id)
        if setting is None:
            return f'<li class="gm-line gm-ruling">{mark} {head} {text}</li>'
        # The element with the ruling's ID and the box after it: where markRulingBoxes puts the table's own choice.
        box = (f'<div class="admonition ruling gm-box"><p class="admonition-title">{_e(_choices(setting))}</p></div>')
        return f'<li class="gm-line gm-ruling"><span class="gm-anchor" id="{_e(rule.id)}"></span>{mark} {head} {text}{box}</li>'

    def table(self, table: Table) -> list[str]:
        ruled = bool(table.rules)
        source = f" ({self.link(table.source)})" if table.source else ""
        head = "".join(f'<th scope="col">{_e(h)}</th>' for h in table.head) + ('<th scope="col">Rule</th>' if ruled else "")
        out = ['<table class="gm-table">', f"<caption>{_e(table.caption)}{source}</caption>", f"<thead><tr>{head}</tr></thead>", "<tbody>"]
        for n, row in enumerate(table.rows):
            cells = f'<th scope="row">{_e(row[0])}</th>' + "".join(f"<td>{_e(c)}</td>" for c in row[1:])
            if ruled:
                cells += f"<td>{self.link(table.rules[n]) if table.rules[n] else ''}</td>"
            out.append(f"<tr>{cells}</tr>")
        return out + ["</tbody>", "</table>"]

    def terms(self, terms: Terms) -> list[str]:
        found = [r for r in self.book.rules.values() if r.game == self.folder and r.id.split(".")[1] == terms.kind]
        out = ['<ul class="gm-terms">']
        for rule in found:
            mark = f' <span class="gm-tracked">{_e(terms.mark)}</span>' if rule.id in terms.marked else ""
            out.append(f'<li>{self.link(rule.id)} <span class="gm-title">{_e(rule.title)}</span>{mark}</li>')
        return out + ["</ul>"]


def _choices(setting: Param) -> str:
    """The site's choice of a setting and the others a table may make."""
    if setting.kind == "choice":
        labels = dict(setting.choices)
        others = [label for value, label in setting.choices if value != str(setting.default)]
        return f"Site: {labels[str(setting.default)]}; a table may choose: {', '.join(others)}."
    return f"Site: {setting.default}; a table may set its own ({setting.label})."


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)
