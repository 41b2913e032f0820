"""Short rule links that unfurl in chat: `r/<id>/` for every
published rule ID, read as a chat app reads it (the built HTML's title,
description and Open Graph fields) and followed as a browser does, with and
without script."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest
from support.rulepages import DOCS, all_rules

from calculators.games import GAMES as RECORDS

RULES = {r.id: r for r in all_rules()}
ONE_PER_GAME = ["tt.combat.attack-table", "tal.action.table", "rpgdl.ruling.half-draw"]
GAMES = {g.prefix: g.name for g in RECORDS}


class Head(HTMLParser):
    """The <title>, the <meta> and <link> fields of a page."""

    def __init__(self):
        super().__init__()
        self.meta: dict[str, str] = {}
        self.links: dict[str, str] = {}
        self.title = ""
        self._in_title = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "meta":
            key = a.get("property") or a.get("name") or a.get("http-equiv")
            if key:
                self.meta[key.lower()] = a.get("content", "")
        elif tag == "link" and a.get("rel"):
            self.links[a["rel"]] = a.get("href", "")
        self._in_title = tag == "title"

    def handle_endtag(self, tag):
        self._in_title = False if tag == "title" else self._in_title

    def handle_data(self, data):
        if self._in_title:
            self.title += data


def head_of(path: Path) -> Head:
    head = Head()
    head.feed(path.read_text(encoding="utf-8"))
    return head


def published_ids() -> list[str]:
    text = (DOCS / "rule-ids.txt").read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


def test_every_published_id_has_a_short_page(site):
    redirects = json.loads((DOCS / "rule-redirects.json").read_text()) if (DOCS / "rule-redirects.json").exists() else {}
    missing = [rid for rid in [*published_ids(), *redirects] if not (site / "r" / rid / "index.html").exists()]
    assert not missing, f"no r/<id>/ page for {missing[:5]}"


@pytest.mark.parametrize("rule_id", ONE_PER_GAME)
def test_a_short_page_unfurls_as_the_rule(site, rule_id):
    rule = RULES[rule_id]
    head = head_of(site / "r" / rule_id / "index.html")
    game = GAMES[rule_id.split(".")[0]]
    assert rule.title in head.title and game in head.title and rule_id in head.title
    assert head.meta["og:title"] == head.title == head.meta["twitter:title"]
    text = head.meta["description"]
    assert 20 <= len(text) <= 201 and text == head.meta["og:description"] == head.meta["twitter:description"]
    built = json.loads((site / "rules.json").read_text(encoding="utf-8"))
    body = next(r["text"] for r in built if r["id"] == rule_id)
    assert body.startswith(text.removesuffix("…")), (text, body[:300])  # the first sentences of the rule itself
    page_url = rule.page.relative_to(DOCS).with_suffix("").as_posix() + "/"
    assert head.links["canonical"].endswith(f"/{page_url}#{rule_id}")
    assert head.meta["og:url"] == head.links["canonical"]
    assert head.meta["og:image"].endswith(".png")
    delay, target = head.meta["refresh"].split(";", 1)
    assert delay.strip() == "0" and target.strip() == f"url=../../{page_url}#{rule_id}"
    assert f'id="{rule_id}"' in (site / page_url / "index.html").read_text(encoding="utf-8")


def test_hostile_text_stays_text(site):
    for rule_id in ONE_PER_GAME:
        html = (site / "r" / rule_id / "index.html").read_text(encoding="utf-8")
        assert "<script" not in html


@pytest.mark.browser
@pytest.mark.parametrize("script", [True, False], ids=["script", "no-script"])
def test_a_short_link_lands_on_the_rule(browser, base_url, script):
    context = browser.new_context(java_script_enabled=script, viewport={"width": 360, "height": 740})
    page = context.new_page()
    for rule_id in ONE_PER_GAME:
        page.goto(f"{base_url}r/{rule_id}/")
        page.wait_for_url(f"**#{rule_id}")
        heading = page.locator(f'[id="{rule_id}"]')
        heading.wait_for()
        page.wait_for_function("id => { const r = document.getElementById(id).getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }", arg=rule_id)
    context.close()


@pytest.mark.browser
def test_the_copy_button_copies_the_short_link(browser, base_url):
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(base_url + "tell-tale/combat/")
    button = page.locator('[id="tt.combat.attack-table"] ~ .rule-id button').first
    button.click()
    button.filter(has_text="copied").wait_for()
    assert page.evaluate("navigator.clipboard.readText()") == f"{base_url}r/tt.combat.attack-table/"
    context.close()


@pytest.mark.browser
def test_the_copied_short_link_is_right_after_instant_navigation(browser, base_url):
    """Material keeps the first page's config across instant page switches:
    the site's root must not be read from it relative to the page shown."""
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(base_url)
    page.evaluate("url => { window.__sameDocument = true; const a = document.createElement('a'); a.href = url; document.querySelector('.md-content').append(a); a.click(); }",
                  base_url + "tell-tale/combat/")
    page.wait_for_url("**/tell-tale/combat/")
    button = page.locator('[id="tt.combat.attack-table"] ~ .rule-id button').first
    button.wait_for()
    assert page.evaluate("() => window.__sameDocument") is True  # swapped in place, not reloaded
    button.click()
    button.filter(has_text="copied").wait_for()
    assert page.evaluate("navigator.clipboard.readText()") == f"{base_url}r/tt.combat.attack-table/"
    context.close()
