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

from calculators.registry import Param
from calculators.table import table_settings

from .book import Book
from .gm_panels import SCREENS, Line, Panel, Table, Terms
from .markup import GAMES, MarkupError, Rule, relative_url
from .templating import Markup, macro

FORMS = ("short", "whole", "ruling")  # what a line's placeholder asks the finishing step for
RULING_MARK = "House ruling"
TEMPLATE = "gm_screen.html"  # the screen's markup (templates/gm_screen.html, autoescaped)


def screen(prefix: str, book: Book, links_from: str, url: str, src: str, line: int) -> list[str]:
    """The GM screen of the game with ID prefix `prefix`, as one raw HTML block (no blank line in it)."""
    if prefix not in SCREENS:
        raise MarkupError(src, line, f"gm-screen needs one of {', '.join(SCREENS)}, got {prefix}")
    settings = {p.ruling: p for found in table_settings().values() for p in found.values() if p.ruling}
    folder = GAMES[prefix]
    drawn = _Drawn(book, folder, links_from, settings, src, line)
    out = [macro(TEMPLATE, "screen_open", folder)]  # each part kept out of search (Material compares skipped tags by name)
    for panel in SCREENS[prefix]():
        out += drawn.panel(panel)
    out.append(macro(TEMPLATE, "footer", url, folder))
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
                out += ['<ul class="gm-lines">', *lines, "</ul>"]
                lines = []
            out += self.table(item) if isinstance(item, Table) else self.terms(item)
        if lines:
            out += ['<ul class="gm-lines">', *lines, "</ul>"]
        return out + ["</section>"]

    def line_html(self, item: Line) -> str:
        rule = self.rule(item.rule)
        form = "ruling" if rule.ruling and item.form == "short" else item.form
        if not rule.ruling:
            return macro(TEMPLATE, "line", self.link(rule.id), rule.id, rule.title, form, "", None)
        if rule.id in self.rulings:
            raise MarkupError(self.src, self.line, f"the GM screen shows the ruling {rule.id} twice (rulebook/gm_panels.py)")
        self.rulings.add(rule.id)
        setting = self.settings.get(rule.id)
        # With a setting: the element with the ruling's ID and the box after it, where markRulingBoxes puts the table's own choice.
        return macro(TEMPLATE, "line", self.link(rule.id), rule.id, rule.title, form, RULING_MARK,
                     None if setting is None else _choices(setting))

    def table(self, table: Table) -> list[str]:
        ruled = bool(table.rules)
        source = self.link(table.source) if table.source else ""
        out = [macro(TEMPLATE, "table_open", ruled), macro(TEMPLATE, "table_caption", table.caption, source),
               macro(TEMPLATE, "table_head", table.head, ruled), "<tbody>"]
        for n, row in enumerate(table.rows):
            link = self.link(table.rules[n]) if ruled and table.rules[n] else ""
            out.append(macro(TEMPLATE, "table_row", row, table.head, ruled, link))
        return out + ["</tbody>", "</table>", "</div>"]

    def terms(self, terms: Terms) -> list[str]:
        found = [r for r in self.book.rules.values() if r.game == self.folder and r.id.split(".")[1] == terms.kind]
        out = ['<ul class="gm-terms">']
        for rule in found:
            out.append(macro(TEMPLATE, "term", self.link(rule.id), rule.title, terms.mark if rule.id in terms.marked else ""))
        return out + ["</ul>"]


def _choices(setting: Param) -> str:
    """The site's choice of a setting and the others a table may make."""
    if setting.kind == "choice":
        labels = dict(setting.choices)
        others = [label for value, label in setting.choices if value != str(setting.default)]
        return f"Site: {labels[str(setting.default)]}; a table may choose: {', '.join(others)}."
    return f"Site: {setting.default}; a table may set its own ({setting.label})."
