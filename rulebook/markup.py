"""The rule markup's vocabulary: IDs, games, the shapes of a marker, a link
and a rule index, and what a page gives (rules, links, indexes, calculator
fences). Reading a page is rulebook/pages.py; every rule of a site,
rulebook/book.py."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urljoin

from calculators import games

# ---------------------------------------------------------------- data

# The games as the markup reads them, from their records (calculators/games.py).
GAMES = {g.prefix: g.folder for g in games.GAMES}  # ID prefix -> its folder in docs/
GAME_NAMES = {g.folder: g.name for g in games.GAMES}  # folder -> the game's name
TERM_KINDS = ("glossary", "keyword")  # an ID's second part that makes its rule a term
CALCULATOR = "calculator"  # the info string of a calculator fence
SHORT_FOLDER = "r"  # short rule addresses: r/<id>/

# IDs: lowercase, dot-separated, a game's prefix first (tt.combat.attack-table).
VALID_ID = re.compile(rf"(?:{'|'.join(GAMES)})(?:\.[a-z0-9][a-z0-9-]*)+")
# A line of a paragraph that starts a rule: `r[ID] Title | alias, alias`. The
# ID and title are checked apart, so a malformed one is an error, not text.
MARKER = re.compile(r"^(r|ruling)\[([^\]\n]*)\](?:[ \t]+(.*?))?[ \t]*$")
LINK = re.compile(r"\[\[([^\]|]+?)(?:\|([^\]]+))?\]\]")  # [[ID]] or [[ID|text]]
# A shortcode, on a line of its own outside code: `{{ name }}` or `{{ name argument }}` (rulebook/render.py SHORTCODES).
SHORTCODE = re.compile(r"^\{\{\s*([a-z][a-z-]*)(?:\s+(\S+))?\s*\}\}[ \t]*$")
HTML = re.compile(r"<[A-Za-z/!?]")  # what a browser would read as a tag or a comment


class MarkupError(ValueError):
    """A mistake in a page, named by its file and line:
    `tell-tale/combat.md:42: rule ID tt.combat.x is used twice ...`."""

    def __init__(self, src: str, line: int | None, message: str):
        self.src, self.line, self.message = src, line, message
        super().__init__(f"{src}:{line}: {message}" if line else f"{src}: {message}")


@dataclass
class Rule:
    """One rule or ruling, as written in its page."""

    id: str
    title: str  # plain text
    src: str  # its page, relative to docs/: tell-tale/combat.md
    ruling: bool
    aliases: tuple[str, ...] = ()  # a term's other spellings
    line: int = 0  # the line of its marker (1-based)
    end: int = 0  # its last line: the next marker, heading or calculator fence ends it
    body: str = ""  # the Markdown after the marker, to its end
    chapter: str = ""  # the page's title (its first heading)
    section: str = ""  # the heading it sits under, if any
    level: int = 2  # its heading's level: one below its section's
    page: Path | None = None  # the page's file, when read from disk
    url: str = ""  # set by the build: its page's URL, tell-tale/combat/
    text: str = ""  # set by the build: its words as rendered, for rules.json

    @property
    def game(self) -> str:
        return GAMES[self.id.split(".")[0]]

    @property
    def is_term(self) -> bool:
        return self.id.split(".")[1] in TERM_KINDS

    @property
    def where(self) -> str:
        return f"{self.src}:{self.line}"


@dataclass(frozen=True)
class Link:
    """`[[ID]]` or `[[ID|text]]`, outside code; start and end are offsets in the page's text."""

    id: str
    text: str | None
    line: int
    start: int
    end: int


@dataclass(frozen=True)
class Index:
    """`{{ rule-index <prefix> }}` on a line of its own."""

    prefix: str
    line: int


@dataclass(frozen=True)
class Shortcode:
    """`{{ name argument }}` on a line of its own, outside code."""

    name: str
    argument: str | None
    line: int


@dataclass(frozen=True)
class CalculatorFence:
    """A ```calculator fence: the registry name in it, its page and line, and
    the level its heading takes (a calculator sits beside the rules of its section)."""

    name: str
    src: str
    line: int
    level: int


@dataclass
class Page:
    """What a page holds of the markup, in page order."""

    src: str
    text: str
    title: str
    rules: list[Rule] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    indexes: list[Index] = field(default_factory=list)
    shortcodes: list[Shortcode] = field(default_factory=list)  # rule indexes among them
    calculators: list[CalculatorFence] = field(default_factory=list)
    path: Path | None = None
    url: str = ""  # set by the build


# ---------------------------------------------------------------- helpers


def short_url(rule_id: str) -> str:
    """The short address of a rule, relative to the site root: r/<id>/."""
    return f"{SHORT_FOLDER}/{rule_id}/"


def address(site_url: str, url: str) -> str:
    """The page at `url` (relative to the site root) on the deployed site at `site_url` (a path when the site's
    address is not a full one)."""
    return urljoin(site_url if site_url.endswith("/") else site_url + "/", url)


def relative_url(url: str, other: str) -> str:
    """`url` relative to the page at `other` (both relative to the site root), as MkDocs and Zensical
    write links: `relative_url("tell-tale/keywords/", "tell-tale/combat/")` is `../keywords/`."""
    dirname, _, basename = other.rpartition("/")
    if "." in basename:
        other = dirname
    other_parts, dest_parts = _norm_parts(other), _norm_parts(url)
    common = 0
    for a, b in zip(other_parts, dest_parts):
        if a != b:
            break
        common += 1
    rel = "/".join([".."] * (len(other_parts) - common) + dest_parts[common:]) or "."
    return rel + "/" if url.endswith("/") else rel


def _norm_parts(path: str) -> list[str]:
    path = posixpath.normpath(path if path.startswith("/") else "/" + path)[1:]
    return path.split("/") if path else []


def parse_marker(match: re.Match[str], src: str, line: int) -> tuple[str, str, tuple[str, ...]]:
    """(ID, title, aliases) of a marker line, or a MarkupError saying what is wrong."""
    rid, raw = match.group(2).strip(), match.group(3) or ""
    if not VALID_ID.fullmatch(rid):
        raise MarkupError(src, line, f"malformed rule ID {rid!r}: lowercase words joined by dots, "
                                     f"starting with {', '.join(p + '.' for p in GAMES)}")
    if HTML.search(raw):
        raise MarkupError(src, line, f"the title of {rid} has HTML in it ({raw!r}): titles are plain text")
    title, _, aliases = raw.partition("|")
    if not title.strip():
        raise MarkupError(src, line, f"rule {rid} has no title: write it after the marker, r[{rid}] Title")
    return rid, title.strip(), tuple(a.strip() for a in aliases.split(",") if a.strip())
