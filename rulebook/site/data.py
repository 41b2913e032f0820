"""The site's data files, for the page scripts, bots and virtual tabletops.

- `rules.json`: every rule as {id, game, title, url, short, ruling, text};
- `rule-redirects.json`: each retired ID -> the address of the rule that replaced it;
- `rule-lookup.json`: every rule ID and retired ID -> the page that holds it
  (docs/assets/rule-lookup.js reads it);
- `rule-previews.json`: each rule's title, game and first sentences (what a
  chat unfurl of its short link shows) and each term's names (title and
  aliases, lowercase) -> its IDs, for that script's link previews and its
  exact-name search hits;
- `table-settings.json`: every house ruling a table may choose, the games'
  names, their records (`records`: prefix, folder, key, name, from
  calculators/games.py) and the page of each game's settings
  (docs/assets/house-rules.js);
- the search index, where the generator wrote Material's (lunr): tuned so a
  rule ID, whole or in part, finds its rules first and every result names
  its game. A generator with a search of its own keeps it as it is.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from calculators.games import GAMES
from calculators.house_rules import settings_with_calculators

from ..book import Book
from ..markup import GAME_NAMES, short_url
from .short_links import description

LOOKUP = "rule-lookup.json"
PREVIEWS = "rule-previews.json"
SETTINGS_JSON = "table-settings.json"
SEARCH_INDEX = Path("search") / "search_index.json"
# Search fields for rule sections: the ID, boosted above titles (1000) by
# more than the 2.5 times Material gives whole pages over their sections, so
# typing an ID, whole or in part, puts its rules first; and the ID's topic
# (action in tal.action.table), so tal.action lists tal.action.* before
# tal.glossary.opposed-action: Material's search ignores word order. Each
# word of a query also matches longer words (week: weekend), so an exact ID
# can lose to a longer one; rule-lookup.js moves it to the top.
SEARCH_FIELDS = {"rule": 10_000, "topic": 10_000}


def write_rules(site: Path, book: Book) -> None:
    """rules.json, rule-redirects.json, rule-lookup.json and rule-previews.json; the search index tuned."""
    out = [
        {"id": r.id, "game": r.game, "title": r.title, "url": f"{r.url}#{r.id}", "short": short_url(r.id),
         "ruling": r.ruling, "text": r.text}
        for r in book.rules.values()
    ]
    (site / "rules.json").write_text(json.dumps(out, ensure_ascii=False, indent=1), encoding="utf-8")
    redirects = {old: f"{book.rules[new].url}#{new}" for old, new in book.redirects.items()}
    (site / "rule-redirects.json").write_text(json.dumps(redirects), encoding="utf-8")
    lookup = {r.id: r.url for r in book.rules.values()} | redirects
    (site / LOOKUP).write_text(json.dumps(lookup, separators=(",", ":")), encoding="utf-8")
    (site / PREVIEWS).write_text(json.dumps(previews(book), ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    tune_search(site / SEARCH_INDEX, book)


def write_settings(site: Path, pages: dict[str, str]) -> None:
    """table-settings.json: every house ruling by game, with its label, choices and the calculators it
    sets; each game's name by its package (tell_tale: Tell-Tale) and its whole record (calculators/games.py);
    `pages`, game package -> the page of its settings form, as the site has them."""
    data = {"games": {g.key: g.name for g in GAMES}, "records": [g.published() for g in GAMES], "pages": pages, "settings": {
        game: {name: setting_json(setting) for name, setting in found.items()}
        for game, found in settings_with_calculators().items()
    }}
    (site / SETTINGS_JSON).write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def setting_json(setting: dict[str, Any]) -> dict[str, Any]:
    p = setting["param"]
    return {"label": p.label, "ruling": p.ruling, "default": str(p.default), "kind": p.kind,
            "choices": [list(c) for c in p.choices], "min": p.minimum, "max": p.maximum,
            "calculators": setting["calculators"]}


def previews(book: Book) -> dict[str, Any]:
    """What a rule link's preview shows, and which rules a term's name names."""
    rules = {
        r.id: {"title": ("Ruling: " if r.ruling else "") + r.title, "game": GAME_NAMES.get(r.game, r.game),
               "text": description(r.text)}
        for r in book.rules.values()
    }
    names: dict[str, list[str]] = {}
    for r in book.rules.values():
        if r.is_term:
            for name in dict.fromkeys(n.lower() for n in (r.title, *r.aliases)):
                names.setdefault(name, []).append(r.id)
    return {"rules": rules, "names": names}


def tune_search(path: Path, book: Book) -> None:
    """Rule sections get their ID in boosted fields; page titles get their
    game (a search result shows its page's title above its sections)."""
    if not path.exists():  # no lunr index: the generator's own search
        return
    index = json.loads(path.read_text(encoding="utf-8"))
    index["config"]["fields"] |= {name: {"boost": boost} for name, boost in SEARCH_FIELDS.items()}
    for doc in index["docs"]:
        page, _, anchor = doc["location"].partition("#")
        game = GAME_NAMES.get(page.split("/")[0])
        if anchor in book.rules:
            doc["rule"] = anchor
            doc["topic"] = anchor.split(".")[1]
        elif not anchor and game and game.lower() not in doc["title"].lower():
            doc["title"] = f"{game} › {doc['title']}"
    path.write_text(json.dumps(index, separators=(",", ":")), encoding="utf-8")
