"""The GM screens' words, address, date and QR code, filled in from the built site.

`{{ gm-screen <prefix> }}` (rulebook/gm_screen.py) draws each line of a GM
screen with a placeholder for its rule's words, since a rule's words are
known only once its page is built. Here, with the book's texts read from the
built pages (the finishing step's first step), each placeholder gets:

- `short`: the rule's first whole sentences, as many as fit in a preview's
  length (short_links.DESCRIPTION_MAX), and the first however long: a
  preview may cut a sentence with "…", paper never does;
- `ruling`: the same of a ruling's **Ruling:** paragraph, what the site
  decides (a ruling's words start with the question it answers);
- `gist`: the first sentence of a term's text (a keyword's effect);
- `whole`: the rule's whole text, as rules.json gives it.

The footer gets the screen's address on the deployed site, the date of the
rules (the last commit to the game's pages, else their newest file) and a
QR code of the address (segno), when the site's address is a full one; a
page printed from another address says and draws its own instead
(docs/assets/print-address.js, with the QR library of qr_library.py).
Every word goes in escaped; the QR code is segno's SVG, made from the
address. A placeholder left over, or a rule the book lacks, is an error.
"""

from __future__ import annotations

import datetime
import functools
import html
import re
import subprocess
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import segno

from ..book import Book
from ..markup import Rule
from . import qr_library
from .errors import SiteError
from .short_links import DESCRIPTION_MAX

from ..templating import Markup, macro

TEMPLATE = "site_fill.html"  # the filled placeholders' markup (templates/site_fill.html, autoescaped)
TEXT = re.compile(r'<span class="gm-text" data-gm-text="([^"]+)" data-gm-form="(short|whole|ruling|gist)"></span>')
SITE = re.compile(r'<span class="gm-site" data-gm-site="([^"]*)"></span>')
DATE = re.compile(r'<span class="gm-date" data-gm-date="([^"]+)"></span>')
QR = re.compile(r'<span class="gm-qr" data-gm-qr="([^"]*)"></span>')
LEFT = re.compile(r"data-gm-(?:text|site|date|qr)=")
RULING = re.compile(r"\bRuling:\s*(.*?)\s*(?:\bAlternative:|$)", re.S)
# A sentence's end: its stop, any closing bracket or quote, then the text's end or a space and no small letter
# ("1.5", "-1/-1" and '"Destroy ..." effects' go on).
SENTENCE_END = re.compile(r"[.!?][)\"”’]*(?=\s+(?![a-z])|$)")


def fill(page: str, book: Book, site_url: str, docs: Path, rel: str) -> str:
    """A built page with its GM screen's placeholders filled (a page without one is returned as it is)."""
    if "data-gm-" not in page:
        return page
    page = TEXT.sub(lambda m: macro(TEMPLATE, "gm_text", words(_rule(book, m.group(1), rel), m.group(2))), page)
    page = SITE.sub(lambda m: macro(TEMPLATE, "gm_site", address(site_url, html.unescape(m.group(1)))), page)
    page = DATE.sub(lambda m: macro(TEMPLATE, "gm_date", rules_date(docs, m.group(1))), page)
    page = QR.sub(lambda m: qr_code(address(site_url, html.unescape(m.group(1))), qr_library.module()), page)
    if LEFT.search(page):
        raise SiteError(f"{rel}: a GM screen placeholder was left unfilled ({LEFT.search(page).group(0)}): is it written as rulebook/gm_screen.py writes it?")  # type: ignore[union-attr]
    return page


def words(rule: Rule, form: str) -> str:
    """What a GM screen line says of a rule: its short form, its ruling's, or its whole text."""
    if form == "whole":
        return rule.text
    if form == "ruling":
        m = RULING.search(rule.text)
        return sentences(m.group(1) if m else rule.text)
    if form == "gist":
        return sentences(rule.text, 0)
    return sentences(rule.text)


def sentences(text: str, limit: int = DESCRIPTION_MAX) -> str:
    """The text's first whole sentences that fit in `limit` characters, the first however long, and a second when the
    first is a third of `limit` or less (a ruling's answer, "disadvantage.", then why): never one cut short. What
    follows the last sentence without a stop of its own (a table's cells, read as words) is left out."""
    text = re.sub(r"\s+", " ", text).strip()
    ends = [m.end() for m in SENTENCE_END.finditer(text)]
    if not ends:
        return text
    fit = [end for end in ends if end <= limit]
    if not fit or (fit[-1] <= limit // 3 and len(ends) > len(fit)):
        fit = ends[: len(fit) + 1]
    return text[: fit[-1]]


def address(site_url: str, url: str) -> str:
    """The page's address on the deployed site (a path when the site's address is not a full one)."""
    return urljoin(site_url if site_url.endswith("/") else site_url + "/", url)


def qr_code(url: str, module: str = "") -> str:
    """The QR code of a full address as inline SVG (no script, no style), or nothing for a bare path; `module`, the
    QR library a page printed from another address redraws it with (qr_library.py)."""
    if not urlsplit(url).scheme:
        return ""
    svg = segno.make(url, error="m").svg_inline(scale=2, border=2, dark="#000", light="#fff", svgclass="gm-qr-code", lineclass=None)
    return macro(TEMPLATE, "gm_qr", url, Markup(svg.replace("<svg ", '<svg aria-hidden="true" ', 1)), module)  # segno's SVG: markup already


@functools.lru_cache(maxsize=8)
def rules_date(docs: Path, folder: str) -> str:
    """The date of a game's rules: the last commit to its pages, else the newest of its files (YYYY-MM-DD)."""
    pages = docs / folder
    try:
        out = subprocess.run(["git", "log", "-1", "--format=%cs", "--", "."], cwd=pages, capture_output=True, text=True, timeout=30)
        if out.returncode == 0 and re.fullmatch(r"\d{4}-\d{2}-\d{2}", out.stdout.strip()):
            return out.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    newest = max((p.stat().st_mtime for p in pages.rglob("*.md")), default=0.0)
    return datetime.datetime.fromtimestamp(newest, datetime.UTC).date().isoformat()


def _rule(book: Book, rid: str, rel: str) -> Rule:
    if rid not in book.rules:
        raise SiteError(f"{rel}: the GM screen names {rid}, which no rule page holds.")
    return book.rules[rid]
