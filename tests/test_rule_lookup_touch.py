"""Looking a rule up on a phone, in Chromium at 360x740 with touch:
the first search result for a rule's ID or a term's name is the rule itself
(a tap lands on its anchor); a tap on a rule or term link shows a preview of
the rule and a second tap follows it; previews work at a serving
address other than SITE_URL, pass axe, and never read their text as HTML.
Desktop hover previews work at any address too. Offline: test_offline.py."""

from __future__ import annotations

import http.server
import json
import random
import re

import pytest
from playwright.sync_api import expect
from support import ROOT
from support.browser import HeldPage
from support.helpers import idle_runtime
from support.server import SiteHandler, serve

from calculators.registry import all_calculators

# The search tests keep the real index (search_index); previews need none.
# Nothing here computes: calculator pages (rule pages too) keep their runtime idle.
pytestmark = [pytest.mark.browser, pytest.mark.idle_runtime]
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
TERM_KINDS = ("glossary", "keyword")
PREVIEW = ".rule-preview"


@pytest.fixture(scope="module")
def rules(site):
    return {r["id"]: r for r in json.loads((site / "rules.json").read_text(encoding="utf-8"))}


def sampled_ids(rules):
    """20 rule IDs from all three games, the issue's example among them; the same every run."""
    picked = random.Random(23).sample(sorted(rules), 19)
    return ["tt.combat.attack-table", *(i for i in picked if i != "tt.combat.attack-table")][:20]


def sampled_names(rules):
    """10 keyword names, each the title of one term only (in any game): the two the issue names first."""
    titles: dict[str, list[str]] = {}
    for r in rules.values():
        if r["id"].split(".")[1] in TERM_KINDS:
            titles.setdefault(r["title"].lower(), []).append(r["id"])
    keywords = sorted(name for name, ids in titles.items() if len(ids) == 1 and ".keyword." in ids[0])
    rest = [n for n in keywords if n not in ("deathtouch", "trample")]
    return [(name, titles[name][0]) for name in ["deathtouch", "trample", *random.Random(23).sample(rest, 8)]]


# The IDs and names are read from the built site at collection time, so each is a test of its own.
def pytest_generate_tests(metafunc):
    if "query" in metafunc.fixturenames:
        from support import SITE

        built = {r["id"]: r for r in json.loads((SITE / "rules.json").read_text(encoding="utf-8"))} if (SITE / "rules.json").exists() else {}
        cases = [(i, i) for i in sampled_ids(built)] + sampled_names(built) if built else [("tt.combat.attack-table", "tt.combat.attack-table")]
        metafunc.parametrize(("query", "rule_id"), cases, ids=[q for q, _ in cases])


@pytest.fixture(scope="module")
def held_phone(chromium):
    """One phone for the search cases: the search index loads once. Made again when it or the browser died."""

    def make():
        context = chromium.new_context(**PHONE, service_workers="block")
        context.route("**/pyodide/**", idle_runtime)  # results land on calculator pages: nothing computes
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        return page

    held = HeldPage(make)
    yield held
    held.close()


@pytest.fixture
def phone(held_phone):
    return held_phone.live()


def open_search(page):
    page.locator("label.md-header__button[for=__search]").tap()
    box = page.locator(".md-search__input")
    expect(box).to_be_focused()
    return box


# ---------------------------------------------------------------- search


def search_again(phone, base_url, query):
    """Type `query` into the search of the one home page the cases share, as
    a reader searching again does; returns the first result. The box is
    emptied and the list seen empty first, so no result of the case before
    is read (two cases may look for the same rule). A case that left the
    page elsewhere, or the search closed, is followed by a fresh load."""
    if phone.url.split("#")[0] != base_url or not phone.evaluate("() => document.getElementById('__search').checked"):
        phone.goto(base_url)
        open_search(phone)
    box = phone.locator(".md-search__input")
    box.fill("")
    box.press("End")  # Material reads the box on keyup
    results = phone.locator(".md-search-result__list > li")
    expect(results).to_have_count(0)
    box.fill(query)
    box.press("End")
    return results.first


def check_first_result(first, base_url, rule):
    link = first.locator("a.md-search-result__link").first
    expect(link).to_have_attribute("href", base_url + rule["url"], timeout=15_000)  # the anchor, no ?h=
    game = {"tell-tale": "Tell-Tale", "rpgdl": "RPGDL TCG", "talislanta": "Talislanta"}[rule["game"]]
    expect(first.locator("h1")).to_contain_text(game)
    expect(first.locator("h1")).to_contain_text(rule["title"])
    return link


def wait_for_a_settled_list(page, quiet_ms=300):
    """Wait until Material has stopped drawing the result list: the same
    first result `quiet_ms` after it was marked. Material may answer the
    box's input event and its keyup one after the other; a list drawn again
    between the touch's start and its end takes the tap's click with it (a
    loaded clean clone's run once never left the page). A reader does not
    tap within a few milliseconds of the list appearing."""
    page.wait_for_function(
        """quiet => {
          const first = document.querySelector(".md-search-result__list > li");
          if (!first) return false;
          const now = performance.now();
          if (!first.settledSince) first.settledSince = now;
          return now - first.settledSince >= quiet;
        }""", arg=quiet_ms, polling=50, timeout=15_000)


def test_the_first_search_result_is_the_rule(phone, base_url, rules, query, rule_id):
    check_first_result(search_again(phone, base_url, query), base_url, rules[rule_id])
    assert not phone.errors


@pytest.mark.search_index
@pytest.mark.parametrize(("typed", "target"), [("tt.combat.attack-table", "tt.combat.attack-table"),
                                               ("deathtouch", "tt.keyword.deathtouch"), ("tal.action.table", "tal.action.table")])
def test_a_tap_on_the_first_search_result_lands_on_the_rule(browser, base_url, rules, typed, target):
    """The tap on a first result, for an ID and a name in two games (every
    sampled case's first result is checked above): Material swaps the rule's
    page in and the rule is on screen. A phone of its own: the tap leaves."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(base_url)
    box = open_search(page)
    box.fill(typed)
    box.press("End")  # Material reads the box on keyup
    rule = rules[target]
    link = check_first_result(page.locator(".md-search-result__list > li").first, base_url, rule)
    wait_for_a_settled_list(page)
    link.tap()
    page.wait_for_url(base_url + rule["url"])
    expect(page.locator(f'[id="{target}"]')).to_be_in_viewport()
    context.close()


@pytest.mark.search_index
def test_a_keyword_name_puts_its_rule_above_the_rulings_that_say_it(page, base_url):
    """Searching "deathtouch" lists its keyword rule above the rulings and the Calculators page that say it."""
    page.goto(base_url)
    page.keyboard.press("/")
    box = page.locator(".md-search__input")
    box.fill("Deathtouch")
    box.press("End")
    links = page.locator(".md-search-result__list a.md-search-result__link")
    expect(links.first).to_have_attribute("href", re.compile(r"/tell-tale/keywords/#tt\.keyword\.deathtouch$"), timeout=15_000)
    hrefs = [a.get_attribute("href") for a in links.all()]
    assert sum(h.endswith("#tt.keyword.deathtouch") for h in hrefs) == 1, hrefs  # listed once: its page's entry gave it up
    page.keyboard.press("Enter")  # Material's Enter goes to the best result: the rule
    page.wait_for_url("**/tell-tale/keywords/#tt.keyword.deathtouch")
    assert not page.errors


# ---------------------------------------------------------------- previews on touch


def term_link(page, last=False):
    """The first (or last) term link of the page's text, scrolled to the middle of the window."""
    links = page.locator(".md-content a.term:visible")
    link = links.last if last else links.first
    link.evaluate("(a) => a.scrollIntoView({block: 'center'})")
    return link


def rule_of(link, rules):
    return rules[link.get_attribute("href").split("#")[1]]


def test_a_tap_on_a_term_link_shows_its_preview_and_stays(browser, base_url, rules):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(base_url + "tell-tale/combat/")
    link = term_link(page)
    rule = rule_of(link, rules)
    link.tap()
    box = page.locator(PREVIEW)
    expect(box).to_be_visible()
    expect(box).to_have_attribute("role", "dialog")
    expect(page.get_by_role("dialog", name=rule["title"])).to_be_visible()
    expect(box.locator(".rule-preview-meta")).to_contain_text(rule["id"])
    text = box.locator(".rule-preview-text").text_content()
    assert text and rule["text"].startswith(text.rstrip("…")), (text, rule["text"][:200])
    expect(box.get_by_role("link", name="Go to rule")).to_have_attribute("href", re.compile(re.escape(rule["url"].split("/")[-2]) + "/#" + re.escape(rule["id"]) + "$"))
    assert page.url == base_url + "tell-tale/combat/"  # no navigation
    expect(box).to_be_focused()
    in_window = box.evaluate("(b) => { const r = b.getBoundingClientRect(); return r.left >= 0 && r.right <= innerWidth && r.top >= 0 && r.bottom <= innerHeight; }")
    assert in_window

    page.keyboard.press("Escape")
    expect(box).to_be_hidden()
    expect(link).to_be_focused()  # focus back where it was

    link.tap()
    expect(box).to_be_visible()
    page.locator(".md-content h1").tap()  # a tap outside
    expect(box).to_be_hidden()

    link.tap()
    box.get_by_role("button", name="Close the preview").tap()
    expect(box).to_be_hidden()
    expect(link).to_be_focused()
    assert page.url == base_url + "tell-tale/combat/"
    context.close()


def test_a_second_tap_follows_the_link_and_back_returns_to_the_same_place(browser, base_url, rules):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(base_url + "tell-tale/combat/")
    link = term_link(page, last=True)  # far down the page
    rule = rule_of(link, rules)
    link.tap()
    expect(page.locator(PREVIEW)).to_be_visible()
    before = page.evaluate("() => scrollY")
    assert before > 0
    link.tap()
    page.wait_for_url(base_url + rule["url"])
    expect(page.locator(f'[id="{rule["id"]}"]')).to_be_in_viewport()
    expect(page.locator(PREVIEW)).to_be_hidden()
    page.go_back()
    page.wait_for_url(base_url + "tell-tale/combat/")
    page.wait_for_function("(y) => Math.abs(scrollY - y) <= 2", arg=before)
    context.close()


def test_enter_on_a_term_link_follows_it_after_a_tap(browser, base_url, rules):
    """A click made by the keyboard carries no pointer type, and the page took the last pointer's: after any tap,
    Enter on a focused term link (a phone with a keyboard, a switch) opened the touch preview instead of the rule
    (a helper found it while typing rule-lookup.js). A keyboard's click follows the link, as on a desktop."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(base_url + "tell-tale/combat/")
    page.locator(".md-content h1").tap()  # the last pointer is a touch
    link = term_link(page)
    rule = rule_of(link, rules)
    link.focus()
    page.keyboard.press("Enter")
    page.wait_for_url(base_url + rule["url"])
    expect(page.locator(PREVIEW)).to_be_hidden()
    context.close()


def test_go_to_rule_follows_a_rule_link(browser, base_url, rules):
    """A [[ID]] link (not a term) to a rule on another page."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(base_url + "tell-tale/combat/")
    link = page.locator(".md-content :not(.rule-id) > a[href*='/#tt.']:not(.term):not(.headerlink):not([href*='/tell-tale/combat/#']):visible").first
    link.evaluate("(a) => a.scrollIntoView({block: 'center'})")
    rule = rule_of(link, rules)
    link.tap()
    box = page.locator(PREVIEW)
    expect(box.locator(".rule-preview-title")).to_have_text(rule["title"] if not rule["ruling"] else "Ruling: " + rule["title"])
    box.get_by_role("link", name="Go to rule").tap()
    page.wait_for_url(base_url + rule["url"])
    expect(page.locator(f'[id="{rule["id"]}"]')).to_be_in_viewport()
    context.close()


def test_the_preview_shows_its_text_as_text(browser, base_url, site):
    """Nothing in rule-previews.json is read as HTML."""
    data = json.loads((site / "rule-previews.json").read_text(encoding="utf-8"))
    context = browser.new_context(**PHONE)
    page = context.new_page()
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(base_url + "tell-tale/combat/")
    link = term_link(page)
    rid = link.get_attribute("href").split("#")[1]
    evil = '<img src=x onerror="alert(1)"><b>bold</b>'
    data["rules"][rid] = {**data["rules"][rid], "title": evil, "text": evil}
    page.route("**/rule-previews.json", lambda route: route.fulfill(json=data))
    link.tap()
    box = page.locator(PREVIEW)
    expect(box.locator(".rule-preview-title")).to_have_text(evil)
    expect(box.locator(".rule-preview-text")).to_have_text(evil)
    expect(box.locator("img, b")).to_have_count(0)
    assert not dialogs
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_with_a_preview_open(browser, base_url, scheme):
    context = browser.new_context(**PHONE, color_scheme=scheme, bypass_csp=True)  # axe is injected inline
    page = context.new_page()
    page.goto(base_url + "tell-tale/combat/")
    term_link(page).tap()
    expect(page.locator(PREVIEW)).to_be_visible()
    page.add_script_tag(path=str(ROOT / "node_modules" / "axe-core" / "axe.min.js"))
    violations = page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']})).violations
        .map((v) => `${v.id} (${v.nodes.length}): ${v.nodes[0].target.join(' ')}`)""")
    assert violations == []
    context.close()


# ---------------------------------------------------------------- any address, offline


class AsBuiltHandler(SiteHandler):
    """The site exactly as built: its sitemap names SITE_URL (port 8000), not this server's random port."""

    def send_head(self):
        return http.server.SimpleHTTPRequestHandler.send_head(self)


@pytest.fixture(scope="module")
def elsewhere(site):
    server, url = serve(site, AsBuiltHandler)
    yield url
    server.shutdown()
    server.server_close()


def test_previews_work_at_an_address_other_than_site_url(browser, site, elsewhere, rules):
    assert elsewhere not in (site / "sitemap.xml").read_text()  # the sitemap names another address
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(elsewhere + "tell-tale/combat/")
    link = term_link(page)
    rule = rule_of(link, rules)
    link.tap()
    expect(page.get_by_role("dialog", name=rule["title"])).to_be_visible()
    assert page.url == elsewhere + "tell-tale/combat/"
    link.tap()
    page.wait_for_url(elsewhere + rule["url"])
    context.close()


@pytest.mark.parametrize("where", ["site_url", "elsewhere"])
def test_a_desktop_hover_shows_one_preview_at_any_address(browser, base_url, elsewhere, rules, where):
    url = base_url if where == "site_url" else elsewhere
    context = browser.new_context(**DESKTOP)
    page = context.new_page()
    page.goto(url + "tell-tale/combat/")
    link = term_link(page)
    rule = rule_of(link, rules)
    link.hover()
    expect(page.get_by_role("dialog", name=rule["title"])).to_be_visible()
    expect(page.locator(".md-tooltip2")).to_have_count(0)  # Material's own preview gives way: one, not two
    page.mouse.move(5, 400)  # away
    expect(page.locator(PREVIEW)).to_be_hidden()
    link.click()  # a mouse click goes straight to the rule
    page.wait_for_url(url + rule["url"])
    context.close()


# ---------------------------------------------------------------- links to pages


def first_paragraph(site, path: str) -> str:
    """The text of the first paragraph under the page's title (past its first headings), as built."""
    html = (site / path / "index.html").read_text(encoding="utf-8")
    body = html[html.index("<h1"):]
    paragraph = re.search(r"<p>(.*?)</p>", body, re.S)
    assert paragraph, path
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", paragraph.group(1))).strip()


@pytest.mark.parametrize("where", ["site_url", "elsewhere"])
def test_a_desktop_hover_on_a_link_to_a_page_previews_it_at_any_address(browser, base_url, elsewhere, site, where):
    """A preview of an ordinary link (the page's title and first lines) shows
    wherever the site is served, whatever port SITE_URL names (Material's own
    compare the address with the sitemap's), and only once."""
    url = base_url if where == "site_url" else elsewhere
    context = browser.new_context(**DESKTOP)
    page = context.new_page()
    page.goto(url + "tell-tale/")
    link = page.locator(".md-content a:not(.term)[href$='/tell-tale/combat/']").first
    link.hover()
    box = page.locator(PREVIEW)
    expect(page.get_by_role("dialog", name="Combat")).to_be_visible()
    expect(box.locator(".rule-preview-text")).to_contain_text(first_paragraph(site, "tell-tale/combat")[:40])
    expect(box.locator(".rule-preview-meta")).to_be_hidden()  # a page: no page to name under its title
    expect(box.get_by_role("link", name="Go to page")).to_have_attribute("href", url + "tell-tale/combat/")
    expect(page.locator(".md-tooltip2")).to_have_count(0)  # Material's own preview gives way: one, not two
    page.mouse.move(5, 400)  # away
    expect(box).to_be_hidden()
    link.click()  # a click goes straight to the page
    page.wait_for_url(url + "tell-tale/combat/")
    context.close()


def test_a_link_to_a_section_previews_its_heading_and_page(browser, elsewhere):
    context = browser.new_context(**DESKTOP)
    page = context.new_page()
    page.goto(elsewhere + "calculators/")
    link = page.locator(".md-content a:not(.term)[href$='/tell-tale/combat/#calc-tell-tale-resolve-attack']").first
    link.hover()
    box = page.locator(PREVIEW)
    expect(page.get_by_role("dialog", name="Calculator: Attack roll")).to_be_visible()
    expect(box.locator(".rule-preview-meta")).to_have_text("Combat")
    summary = all_calculators()["tell_tale.resolve_attack"].summary  # the form's own line, under its heading
    expect(box.locator(".rule-preview-text")).to_have_text(summary)
    expect(box.get_by_role("link", name="Go to section")).to_have_attribute("href", elsewhere + "tell-tale/combat/#calc-tell-tale-resolve-attack")
    context.close()


def test_a_tap_on_a_link_to_a_page_follows_it_at_once(browser, elsewhere):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(elsewhere + "tell-tale/")
    page.locator(".md-content a:not(.term)[href$='/tell-tale/combat/']").first.tap()
    page.wait_for_url(elsewhere + "tell-tale/combat/")
    expect(page.locator(PREVIEW)).to_have_count(0)
    context.close()


def test_a_page_preview_reads_the_page_as_text(browser, base_url):
    """A fetched page is parsed, never shown as HTML: markup in it shows as nothing or as text."""
    context = browser.new_context(**DESKTOP, service_workers="block")  # the route, not the worker's cache, answers
    page = context.new_page()
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    evil = ('<!doctype html><article><h1>Combat <img src=x onerror="alert(1)"><b>bold</b></h1>'
            '<p>&lt;script&gt;alert(2)&lt;/script&gt; <i>it</i><script>alert(3)</script></p></article>')
    page.route("**/tell-tale/combat/", lambda route: route.fulfill(body=evil, content_type="text/html"))
    page.goto(base_url + "tell-tale/")
    page.locator(".md-content a:not(.term)[href$='/tell-tale/combat/']").first.hover()
    box = page.locator(PREVIEW)
    expect(box.locator(".rule-preview-title")).to_have_text("Combat bold")
    expect(box.locator(".rule-preview-text")).to_have_text("<script>alert(2)</script> italert(3)")
    expect(box.locator("img, b, i, script")).to_have_count(0)
    assert not dialogs
    context.close()
