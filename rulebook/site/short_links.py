"""Short rule links that unfurl in chat: `r/<id>/` for every rule and ruling.

Each is a tiny static page whose title, description and Open Graph / Twitter
card fields are the rule itself (its title, its game, the first sentences of
its text), with a canonical link to the rule and an immediate move to the
rule's anchor by meta refresh, so it works without script. IDs retired in
docs/rule-redirects.json get a page too, moving to the rule that replaced
them. The copy-link buttons copy these addresses (docs/assets/page-start.js) and
rules.json lists each rule's `short` address (data.py); both take
it from `short_url`, which the `rulebook` package defines.

Written by the finishing step (rulebook/site/__init__.py) from the book it
reads, each rule's text taken from the built pages; its markup is written once, in
templates/short_link.html, rendered with autoescape (rulebook/templating.py).
"""

from __future__ import annotations

import re
from pathlib import Path

from ..book import Book
from ..markup import GAME_NAMES, Rule, short_url
from ..templating import page

DESCRIPTION_MAX = 200  # characters: what chat previews show before they cut
ICON = "assets/images/icon-512.png"
TEMPLATE = "short_link.html"  # the page's markup (templates/short_link.html, autoescaped)


def write_all(site: Path, root: str, site_name: str, book: Book) -> None:
    """A page for every rule, and for every retired ID (moving to the rule that replaced it)."""
    for rule in book.rules.values():
        write_page(site, root, site_name, rule.id, rule)
    for old, new in book.redirects.items():
        write_page(site, root, site_name, old, book.rules[new])


# ---------------------------------------------------------------- helpers


def description(text: str, limit: int = DESCRIPTION_MAX) -> str:
    """The first sentences of a rule's text that fit in `limit` characters."""
    text = re.sub(r"\s+", " ", text).strip()
    if len(text) <= limit:
        return text if re.search(r"[.!?)…]$", text) or not text else text.rstrip(",;:—-") + "…"  # a table's last cell: more to read
    cut = text[: limit + 1]
    end = max(cut.rfind(". "), cut.rfind("! "), cut.rfind("? "), cut.rfind(".)"))
    if end > limit // 3:
        return cut[: end + (2 if cut[end + 1] == ")" else 1)]  # whole sentences, never one cut at ":" or ";"
    return cut[: cut.rfind(" ")].rstrip(",;:—-") + "…"


def page_html(site_name: str, root: str, shown_id: str, rule: Rule) -> str:
    target = f"../../{rule.url}#{rule.id}"
    canonical = f"{root.rstrip('/')}/{rule.url}#{rule.id}"
    game = GAME_NAMES.get(rule.game, rule.game)
    kind = "ruling" if rule.ruling else "rule"
    title = f"{rule.title} ({game} {kind} {rule.id})"
    about = description(rule.text) or f"{game} {kind} {rule.id}."
    return page(TEMPLATE, title=title, about=about, canonical=canonical, site_name=site_name, image=root.rstrip("/") + "/" + ICON,
                target=target, moved_from=shown_id if shown_id != rule.id else "", rule_id=rule.id, rule_title=rule.title,
                game=game, kind=kind)


def write_page(site: Path, root: str, site_name: str, shown_id: str, rule: Rule) -> None:
    folder = site / short_url(shown_id)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "index.html").write_text(page_html(site_name, root, shown_id, rule), encoding="utf-8")
