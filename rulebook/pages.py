"""Read one page's markup with markdown-it-py (CommonMark, tables and notes).

The parser decides what is code: a marker, a link or a rule index inside a
fenced block, an indented block or inline code is text. `[[ID]]` links are
an inline rule of the parser; their places in the page come from the block
maps, so a hook can rewrite exactly those characters.

It reads a page as Python-Markdown does where the two could differ: a note
(`!!! note`, `??? tip`: mdit-py-plugins' admonitions, as the admonition and
pymdownx.details extensions read them) holds paragraphs, not an indented
code block, so its links are read. Markup neither reads as markup, which the
reader would see as text (a marker or shortcode not on a line of its own, or
inside a note; markup in an HTML block, which Python-Markdown's md_in_html
may read and this parser never does), is refused as the page is read.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from mdit_py_plugins.admon import admon_plugin

from .markup import (CALCULATOR, LINK, MARKER, SHORTCODE, CalculatorFence, Index, Link, MarkupError, Page, Rule,
                     Shortcode, parse_marker)

FRONT_MATTER = re.compile(r"^-{3}[ \t]*\n.*?\n(?:\.{3}|-{3})[ \t]*\n", re.S)  # as MkDocs reads it
ATTR_LIST = re.compile(r"\s*\{[^}]*\}\s*$")  # `## Title { #id .class }`
CELL_OPEN = {"th_open", "td_open"}
# Markup that only shows as text where it is not read: a marker not at a line's start, a shortcode's `{{`.
STRAY = re.compile(r"(?<![\w-])(?:r|ruling)\[[^\]\n<]*\]|\{\{")
CODE_HTML = re.compile(r"<(pre|code|script|style)\b[^>]*>.*?</\1\s*>", re.S | re.I)  # an HTML block's code: text


# ---------------------------------------------------------------- the parser


def _rule_link(state: StateInline, silent: bool) -> bool:
    """`[[ID]]` and `[[ID|text]]` as inline tokens: code spans, parsed by
    the backtick rule, never reach here."""
    if not state.src.startswith("[[", state.pos):
        return False
    m = LINK.match(state.src, state.pos)
    if not m:
        return False
    if not silent:
        token = state.push("rule_link", "", 0)
        token.meta = {"start": m.start(), "end": m.end()}
    state.pos = m.end()
    return True


PARSER = MarkdownIt("commonmark").enable("table").use(admon_plugin)
PARSER.inline.ruler.before("link", "rule_link", _rule_link)


# ---------------------------------------------------------------- reading


def read_page(text: str, src: str, path: Path | None = None) -> Page:
    """The rules, links, rule indexes and calculator fences of a page.

    Raises MarkupError (file and line) for a malformed ID, a title with
    HTML, a rule without a title, or a rule index of an unknown game."""
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    tokens = PARSER.parse(_blank_front_matter(text))
    headings: list[tuple[int, int, str]] = []  # (line index, level, text)
    markers: dict[int, re.Match[str]] = {}
    fences: dict[int, str] = {}
    page = Page(src, text, _default_title(src), path=path)
    found: list[Link] = []
    cursor: dict[int, int] = {}  # table rows: where the next cell's search starts
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and token.map:
            headings.append((token.map[0], int(token.tag[1:]), ATTR_LIST.sub("", tokens[i + 1].content).strip()))
        elif token.type == "paragraph_open" and token.map:
            for n in range(*token.map):
                if m := MARKER.match(lines[n]):
                    markers[n] = m
                elif m := SHORTCODE.match(lines[n]):
                    code = _shortcode(m, src, n + 1)
                    page.shortcodes.append(code)
                    if code.name == "rule-index":
                        page.indexes.append(Index(code.argument or "", n + 1))
        elif token.type == "fence" and token.map and token.info.split()[:1] == [CALCULATOR]:
            fences[token.map[0]] = token.content.strip()
        elif token.type == "inline" and token.map and token.children:
            if tokens[i - 1].type == "admonition_title_open" and any(c.type == "rule_link" for c in token.children):
                raise MarkupError(src, token.map[0] + 1, "a note's title is plain text, where a link shows as text: "
                                                         "put the link in the note's body")
            in_cell = i > 0 and tokens[i - 1].type in CELL_OPEN
            found += _links(token, lines, starts, cursor if in_cell else None, src, text)
            _refuse_stray(token, lines, set(markers) | {code.line - 1 for code in page.shortcodes}, src)
        elif token.type == "html_block" and token.map:
            _refuse_in_html(token, lines, src)
    page.links = [link for link in found if link.line - 1 not in markers]  # a title is text
    _outline(page, lines, headings, markers, fences)
    return page


def _outline(page: Page, lines: list[str], headings: list[tuple[int, int, str]],
             markers: dict[int, re.Match[str]], fences: dict[int, str]) -> None:
    """Rules and calculators with their chapter, section, heading level and
    extent: a rule runs to the next marker, heading or calculator fence."""
    ends = sorted({n for n, _, _ in headings} | set(markers) | set(fences) | {len(lines)})
    events: list[tuple[int, int, Any]] = sorted([(n, 0, (level, heading)) for n, level, heading in headings]
                    + [(n, 1, m) for n, m in markers.items()] + [(n, 2, name) for n, name in fences.items()],
                    key=lambda e: e[0])
    chapter, section, section_level, titled = page.title, "", 1, False
    for n, kind, data in events:
        level = min(section_level + 1, 6)
        if kind == 0:  # a heading: the page's title, or a section
            section_level, heading_text = data
            if section_level == 1 and not titled:
                chapter, titled = heading_text, True
            else:
                section = heading_text
        elif kind == 1:
            rid, title, aliases = parse_marker(data, page.src, n + 1)
            end = next(e for e in ends if e > n)
            page.rules.append(Rule(rid, title, page.src, data.group(1) == "ruling", aliases, line=n + 1, end=end,
                                   body="\n".join(lines[n + 1:end]), chapter=chapter, section=section, level=level,
                                   page=page.path))
        else:
            page.calculators.append(CalculatorFence(data, page.src, n + 1, level))
    if titled:
        page.title = chapter


def _links(token: Token, lines: list[str], starts: list[int], cursor: dict[int, int] | None,
           src: str, text: str) -> list[Link]:
    """The `[[ID]]` links of one inline token, placed in the page's text."""
    links = [child for child in token.children or () if child.type == "rule_link"]
    if not links:
        return []
    content = token.content
    parts = content.split("\n")
    assert token.map is not None  # an inline token with links always has its lines
    first = token.map[0]
    bases = []  # where each line of the content starts in the page's text
    for k, part in enumerate(parts):
        line = lines[first + k]
        if cursor is None and part.strip() and line.rstrip().endswith(part.rstrip()):
            column = len(line.rstrip()) - len(part.rstrip())  # a paragraph's line ends with its content
        else:  # a heading's or a table cell's text sits inside its line
            column = max(line.find(part, cursor.get(first + k, 0) if cursor is not None else 0), 0)
        if cursor is not None:
            cursor[first + k] = column + len(part)
        bases.append(starts[first + k] + column)
    line_starts = [0]
    for part in parts:
        line_starts.append(line_starts[-1] + len(part) + 1)

    def place(offset: int) -> int:
        k = max(i for i, s in enumerate(line_starts[:-1]) if s <= offset)
        return bases[k] + offset - line_starts[k]

    out = []
    for child in links:
        start, end = place(child.meta["start"]), place(child.meta["end"] - 1) + 1
        m = LINK.fullmatch(text, start, end)
        at = text.count("\n", 0, start) + 1
        if not m:
            raise MarkupError(src, at, f"cannot place the link {content[child.meta['start']:child.meta['end']]!r} "
                                       "in its line: write it on one line")
        out.append(Link(m.group(1).strip(), m.group(2), at, start, end))
    return out


def _refuse_stray(token: Token, lines: list[str], read: set[int], src: str) -> None:
    """A MarkupError for a marker or shortcode in the words of a paragraph, heading or cell (not its code): the reader
    would see it as text. A paragraph's marker and shortcode lines (`read`) are read; inside a note they are not."""
    words = "".join(child.content for child in token.children or () if child.type == "text")
    m = STRAY.search(words)
    if m is None or token.map is None:
        return
    where = [n for n in range(*token.map) if n not in read and m.group(0) in lines[n]]
    if not where:  # the marker line itself
        return
    raise MarkupError(src, where[0] + 1, f"{m.group(0)} would show as text: a marker or a shortcode is read on a "
                                         "line of its own, outside any note, list or table")


def _refuse_in_html(token: Token, lines: list[str], src: str) -> None:
    """A MarkupError for markup inside an HTML block (its code aside), which this parser reads as HTML."""
    assert token.map is not None
    block = CODE_HTML.sub(lambda m: "\n" * m.group(0).count("\n"), token.content)
    for k, line in enumerate(block.split("\n")):
        if m := (LINK.search(line) or STRAY.search(line) or MARKER.match(line)):
            raise MarkupError(src, token.map[0] + k + 1,
                              f"{m.group(0)} is inside an HTML block, where it is not read and shows as text: "
                              "leave a blank line after the block's opening tag, or write it outside the block")


def _shortcode(m: re.Match[str], src: str, line: int) -> Shortcode:
    """A shortcode line, checked against the table of shortcodes (rulebook/render.py SHORTCODES)."""
    from .render import check_shortcode  # render.py renders from this module's readings: imported once both are

    code = Shortcode(m.group(1), m.group(2), line)
    check_shortcode(code, src)
    return code


def without_front_matter(text: str) -> str:
    """The text as a generator hands it to Markdown: without its YAML front matter."""
    m = FRONT_MATTER.match(text)
    return text[m.end():] if m else text


def _blank_front_matter(text: str) -> str:
    """The text with YAML front matter turned into as many empty lines."""
    m = FRONT_MATTER.match(text)
    return "\n" * m.group(0).count("\n") + text[m.end():] if m else text


def _default_title(src: str) -> str:
    return posixpath.splitext(posixpath.basename(src))[0].replace("-", " ").capitalize()
