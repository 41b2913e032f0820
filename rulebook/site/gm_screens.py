"""The GM screens' words, written in from the built site.

`{{ gm-screen <prefix> }}` (rulebook/gm_screen.py) draws each line of a GM
screen with an empty element for its rule's words, which are the words as
the rule's page shows them (what rules.json lists): known only once every
page is built, and read from the built pages in the finishing step's first
step. This is the one place that writes them; everything else on a screen,
its footer too, is written as the page renders. Each line gets:

- `short`: the rule's first whole sentences, as many as fit in a preview's
  length (short_links.DESCRIPTION_MAX), and the first however long: a
  preview may cut a sentence with "…", paper never does;
- `ruling`: the same of a ruling's **Ruling:** paragraph, what the site
  decides (a ruling's words start with the question it answers);
- `gist`: the first sentence of a term's text (a keyword's effect);
- `whole`: the rule's whole text, as rules.json gives it.

Every word goes in escaped. A line the reading found with words already, an
unknown form, or a rule the book lacks, is an error.
"""

from __future__ import annotations

import re

from ..book import Book
from ..markup import Rule
from ..templating import macro
from .built import Edit, Page
from .errors import SiteError
from .short_links import DESCRIPTION_MAX

FORMS = ("short", "whole", "ruling", "gist")  # the words a GM screen line may ask for (`words` below)
TEMPLATE = "site_fill.html"  # a line's words' markup (templates/site_fill.html, autoescaped)
LEFT = re.compile(r"data-gm-text=")  # what a line's element without its words carries
RULING = re.compile(r"\bRuling:\s*(.*?)\s*(?:\bAlternative:|$)", re.S)
# A sentence's end: its stop, any closing bracket or quote, then the text's end or a space and no small letter
# ("1.5", "-1/-1" and '"Destroy ..." effects' go on).
SENTENCE_END = re.compile(r"[.!?][)\"”’]*(?=\s+(?![a-z])|$)")


def fill(page: Page, book: Book) -> list[Edit]:
    """The words of each line of the page's GM screen, where its reading found them empty (none without one)."""
    edits = []
    for start, end, rid, form in page.gm_texts:
        if form not in FORMS:
            raise SiteError(f"{page.rel}: the GM screen asks for the {form!r} form of {rid}; known: {', '.join(FORMS)}")
        edits.append((start, end, macro(TEMPLATE, "gm_text", words(_rule(book, rid, page.rel), form))))
    return edits


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


def _rule(book: Book, rid: str, rel: str) -> Rule:
    if rid not in book.rules:
        raise SiteError(f"{rel}: the GM screen names {rid}, which no rule page holds.")
    return book.rules[rid]
