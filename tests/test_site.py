"""The built site: strict build, navigation, rules.json, and every internal
link and anchor resolving (a crawl of the built HTML)."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlparse

import pytest
from mkdocs.config import load_config
from support.rulepages import ROOT, all_rules

from calculators.games import GAMES as RECORDS

GAMES = {g.folder for g in RECORDS}


def nav_pages(nav) -> list[str]:
    out = []
    for item in nav:
        value = next(iter(item.values())) if isinstance(item, dict) else item
        out += nav_pages(value) if isinstance(value, list) else [value]
    return out


def test_every_nav_page_exists():
    config = load_config(str(ROOT / "mkdocs.yml"))
    pages = nav_pages(config["nav"])
    assert len(pages) > 10
    for page in pages:
        assert (ROOT / "docs" / page).is_file(), page
    for game in GAMES:
        assert f"{game}/index.md" in pages


def test_the_nav_has_one_section_per_game_record():
    """Each game's pages are one nav section named as its record (calculators/games.py) names the game,
    its index first; no game's page sits elsewhere in the nav."""
    nav = load_config(str(ROOT / "mkdocs.yml"))["nav"]
    sections = {title: nav_pages(value) for item in nav if isinstance(item, dict) for title, value in item.items() if isinstance(value, list)}
    for game in RECORDS:
        assert game.name in sections, f"mkdocs.yml's nav has no section {game.name!r} for the game {game.prefix}"
        pages = sections[game.name]
        assert pages[0] == f"{game.folder}/index.md", pages[0]
        assert all(p.startswith(f"{game.folder}/") for p in pages), [p for p in pages if not p.startswith(f"{game.folder}/")]
    names = {g.folder: g.name for g in RECORDS}
    stray = [p for p in nav_pages(nav) if p.split("/")[0] in names and p not in sections[names[p.split("/")[0]]]]
    assert not stray, f"game pages outside their game's section: {stray}"


def test_three_game_sections(site):
    for game in GAMES:
        assert (site / game / "index.html").is_file()


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.links = set(), []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if "name" in a and tag == "a":
            self.ids.add(a["name"])
        for key in ("href", "src"):
            if tag in {"a", "link", "script", "img"} and a.get(key):
                self.links.append(a[key])


def parsed(path: Path) -> Links:
    parser = Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


@pytest.fixture(scope="module")
def pages(site):
    return {p: parsed(p) for p in site.rglob("*.html") if "pyodide" not in p.parts}


def target_file(site: Path, page: Path, href: str) -> tuple[Path, str] | None:
    url = urlparse(href)
    if url.scheme or url.netloc or href.startswith(("mailto:", "javascript:")):
        return None
    base = "file://" + str(page)
    if url.path.startswith("/"):  # site-absolute (the 404 page): the site is served at its root
        base = "file://" + str(site) + "/"
        url = url._replace(path=url.path.lstrip("/"))
    absolute = urlparse(urljoin(base, url.path)) if url.path else urlparse(base)
    path = Path(unquote(absolute.path))
    if path.is_dir() or str(absolute.path).endswith("/"):
        path = path / "index.html"
    return path, unquote(url.fragment)


def test_no_broken_internal_links_or_anchors(site, pages):
    broken = []
    for page, parser in pages.items():
        for href in parser.links:
            target = target_file(site, page, href)
            if target is None:
                continue
            path, fragment = target
            if not path.exists():
                broken.append(f"{page.relative_to(site)} -> {href} (no file)")
            elif fragment and path.suffix == ".html":
                ids = pages[path].ids if path in pages else parsed(path).ids
                if fragment not in ids:
                    broken.append(f"{page.relative_to(site)} -> {href} (no anchor)")
    assert not broken, "\n".join(broken[:40])


def test_rules_json_matches_the_pages(site, pages):
    data = json.loads((site / "rules.json").read_text())
    source = {r.id: r for r in all_rules()}
    assert [d["id"] for d in data] and {d["id"] for d in data} == set(source)
    for entry in data:
        assert set(entry) == {"id", "game", "title", "url", "short", "ruling", "text"}
        assert entry["short"] == f"r/{entry['id']}/" and (site / entry["short"] / "index.html").is_file()
        assert "Checked example" not in entry["text"], f"{entry['id']}: a folded example's title in its text"
        rule = source[entry["id"]]
        assert entry["game"] == {"tt": "tell-tale", "tal": "talislanta", "rpgdl": "rpgdl"}[rule.id.split(".")[0]]
        assert entry["title"] == rule.title
        assert entry["ruling"] is rule.ruling
        assert entry["text"], f"{rule.id} has no text"
        assert not re.search(r"</?[a-z][^>]*>", entry["text"]), f"{rule.id}: HTML in its text"
        assert ">>>" not in entry["text"], f"{rule.id}: an example's code in its text"
        path, fragment = target_file(site, site / "index.html", entry["url"])
        assert fragment == entry["id"] and not entry["url"].startswith("/")
        assert fragment in pages[path].ids, entry["url"]


def test_search_index_holds_rule_ids_and_words(site):
    index = json.loads((site / "search" / "search_index.json").read_text())
    docs = index["docs"]
    by_location = {d["location"]: d for d in docs}
    rule = next(r for r in all_rules() if r.id == "tt.combat.attack-table")
    entry = next(d for loc, d in by_location.items() if loc.endswith("#" + rule.id))
    assert rule.id in entry["text"]  # the visible ID is part of the rule's searchable text
    assert index["config"]["separator"] == r"[\s\-\.]+"  # so tt.combat.attack-table splits into words


def test_rule_index_pages_list_every_rule(site, pages):
    for prefix, game in {"tt": "tell-tale", "tal": "talislanta", "rpgdl": "rpgdl"}.items():
        index = site / game / "rule-index" / "index.html"
        html = index.read_text(encoding="utf-8")
        for rule in (r for r in all_rules() if r.id.startswith(prefix + ".")):
            assert f"#{rule.id}" in html, f"{rule.id} missing from {game} rule index"



def test_no_rule_marker_survives_into_a_built_page(site):
    """The rule markup is rendered by one extension; a marker it missed would reach the reader as
    text (helpers.reader_text: outside code, scripts and attributes)."""
    from support.helpers import MARKER, reader_text

    left = []
    for path in sorted(site.rglob("*.html")):
        if path.relative_to(site).as_posix().startswith("pyodide/"):
            continue
        text = reader_text(path.read_text(encoding="utf-8"))
        left += [f"{path.relative_to(site)}: {m.group(0)!r} in {text[max(0, m.start() - 30):m.end() + 30]!r}" for m in MARKER.finditer(text)]
    assert not left, "\n".join(left[:10])
