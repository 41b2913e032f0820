"""Term links and each rule's words, read from a rendered page with html.parser.

In a rendered page a rule is its heading (`<hN class="rule" id="ID">`) and
what follows, to the next heading or the end of the element that holds the
heading (a whole built page: the end of its article, not the footer). The first use of a term (a glossary or
keyword rule's title or alias, case-sensitive, whole words) in each other
rule becomes a link; never inside links, code, headings, buttons, forms, folded
examples, or the bold labels of a ruling box (they quote the form). The
rule's words, without its heading, ID badge, box title and folded examples,
are what rules.json lists. Everything else is copied byte for byte.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from html.parser import HTMLParser

from .markup import Rule
from .templating import Markup, macro

TEMPLATE = "terms.html"  # a term link's markup (templates/terms.html, autoescaped)
HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
NO_LINKS = {"a", "code", "pre", "script", "style", "button", "kbd", "summary", "form", *HEADINGS}
NO_TEXT = {"pre", "details", "summary", *HEADINGS}  # details: a folded example, its title included
# Tags inside a line of text: their edges add no space to a rule's text.
INLINE = {"a", "abbr", "b", "cite", "code", "em", "i", "kbd", "mark", "q", "s", "small", "span", "strong", "sub", "sup",
          "u", "var"}
NOT_THE_RULE = {"rule-id", "admonition-title"}  # classes: the ID badge, the ruling box's title
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass(frozen=True)
class _Open:
    tag: str
    no_links: bool
    no_text: bool
    in_ruling: bool


Piece = tuple[int, str, str, dict[str, str | None]]


class Pieces(HTMLParser):
    """The page cut into (offset, kind, tag, attrs): kind is start, end,
    void, text (a whole run between tags, entities included) or other. The
    one reading of a page's HTML: term links, a rule's words, and what the
    finishing step reads of a built page (rulebook/site/built.py) come from it."""

    def __init__(self, content: str):
        super().__init__(convert_charrefs=False)
        self.starts = [0]
        for line in content.split("\n"):
            self.starts.append(self.starts[-1] + len(line) + 1)
        self.pieces: list[Piece] = []
        self.feed(content)
        self.close()

    def _add(self, kind: str, tag: str = "", attrs: Iterable[tuple[str, str | None]] = ()) -> None:
        line, column = self.getpos()
        offset = self.starts[line - 1] + column
        if kind == "text" and self.pieces and self.pieces[-1][1] == "text":
            return  # the same run of text
        self.pieces.append((offset, kind, tag, dict(attrs)))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._add("void" if tag in VOID else "start", tag, attrs)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._add("void", tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        self._add("end", tag)

    def handle_data(self, data: str) -> None:
        self._add("text")

    def handle_entityref(self, name: str) -> None:
        self._add("text")

    def handle_charref(self, name: str) -> None:
        self._add("text")

    def handle_comment(self, data: str) -> None:
        self._add("other")

    def handle_decl(self, decl: str) -> None:
        self._add("other")

    def handle_pi(self, data: str) -> None:
        self._add("other")

    def unknown_decl(self, data: str) -> None:
        self._add("other")


def term_pattern(terms: Iterable[Rule]) -> tuple[re.Pattern[str] | None, dict[str, Rule]]:
    """One pattern for every spelling of every term, longest first."""
    by_word: dict[str, Rule] = {}
    for rule in terms:
        for word in (rule.title, *rule.aliases):
            by_word[word] = rule
    if not by_word:
        return None, by_word
    words = sorted(by_word, key=len, reverse=True)
    return re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, words)) + r")(?![\w-])"), by_word


def link_terms(content: str, rules: Mapping[str, Rule], terms: Iterable[Rule],
               href: Callable[[Rule], str], pieces: list[Piece] | None = None) -> tuple[str, dict[str, str]]:
    """The page with its terms linked, and the text of each rule on it (`pieces`: the page's reading, if done)."""
    pattern, by_word = term_pattern(terms)
    if pieces is None:
        pieces = Pieces(content).pieces
    ends = [offset for offset, *_ in pieces[1:]] + [len(content)]
    out: list[str] = []
    texts: dict[str, list[str]] = {}
    stack: list[_Open] = []
    current: Rule | None = None
    floor = 0  # how many elements hold the current rule's heading: the rule ends with the innermost
    linked: set[str] = set()
    for (offset, kind, tag, attrs), end in zip(pieces, ends):
        raw = content[offset:end]
        if kind in ("start", "void") and tag in HEADINGS:
            rid = attrs.get("id") or ""
            is_rule = "rule" in (attrs.get("class") or "").split() and rid in rules
            current, linked = (rules[rid], set()) if is_rule else (None, linked)
            if current is not None:
                texts[rid], floor = [], len(stack)
        if current is not None and kind in ("start", "end", "void") and tag not in INLINE:
            texts[current.id].append(" ")  # a block's edge is a space; an inline tag's is none ("(see Voters)")
        if kind == "start":
            stack.append(_opened(tag, attrs, stack[-1] if stack else None))
        elif kind == "end" and any(o.tag == tag for o in stack):
            while stack.pop().tag != tag:
                pass
            if len(stack) < floor:
                current = None
        elif kind == "text" and current is not None:
            top = stack[-1] if stack else _Open("", False, False, False)
            if not top.no_text:
                texts[current.id].append(raw)
            if pattern is not None and not top.no_links:
                raw = pattern.sub(_linker(by_word, current, linked, href), raw)
        out.append(raw)
    return "".join(out), {rid: _words(parts) for rid, parts in texts.items()}


def rule_texts(page: str, rules: Mapping[str, Rule], pieces: list[Piece]) -> dict[str, str]:
    """The words of each rule on a built page (as `link_terms` gives them), from its reading."""
    return link_terms(page, rules, (), lambda rule: "", pieces)[1]


def _opened(tag: str, attrs: dict[str, str | None], parent: _Open | None) -> _Open:
    classes = set((attrs.get("class") or "").split())
    in_ruling = (parent is not None and parent.in_ruling) or (tag == "div" and "ruling" in classes)
    aside = bool(classes & NOT_THE_RULE)
    no_links = (parent is not None and parent.no_links) or tag in NO_LINKS or aside or (tag == "strong" and in_ruling)
    no_text = (parent is not None and parent.no_text) or tag in NO_TEXT or aside
    return _Open(tag, no_links, no_text, in_ruling)


def _linker(by_word: dict[str, Rule], current: Rule, linked: set[str],
            href: Callable[[Rule], str]) -> Callable[[re.Match[str]], str]:
    def link(m: re.Match[str]) -> str:
        rule = by_word[m.group(1)]
        if rule.id == current.id or rule.id in linked:
            return m.group(0)
        linked.add(rule.id)
        return macro(TEMPLATE, "term", href(rule), Markup(m.group(0)))  # the page's words: HTML already

    return link


def _words(parts: list[str]) -> str:
    text = html.unescape("".join(parts))
    return re.sub(r"\s+", " ", text).replace("¶", "").strip()
