"""Finding a rule by its ID, in Chromium against the built site: Material's
search puts a typed rule ID first and names each result's game; an address
with #<rule-id> (or an old ID) reaches the page that holds the rule; the rule
index pages are grouped by chapter, filter as you type, and fit a phone.

Every rule ID is searched with Material's own search worker under Node
(fast: no browser); the IDs that its index alone does not put first, which
rule-lookup.js must move up, are then typed into the page. Tests that use a
page are marked browser by tests/conftest.py."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect
from support import ROOT, made_once
from support.browser import HeldPage
from support.helpers import idle_runtime, material_search, shown_links
from support.server import BLANK

from calculators.games import GAMES as RECORDS
from rulebook import Book, Rule
from rulebook.site import built, data, search_later

# Nothing here computes: calculator pages (where rule IDs lead) keep their runtime idle.
pytestmark = pytest.mark.idle_runtime
SEARCH = pytest.mark.search_index  # a test with a page of its own that types into Material's search keeps the real index
GAMES = {g.folder: g.name for g in RECORDS}
PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


@pytest.fixture(scope="module")
def rules(site):
    return json.loads((site / "rules.json").read_text(encoding="utf-8"))


# Counts what the page asks Material's search worker and what it answers,
# and when rule-lookup.json, once asked for, has been read and used.
WATCH = """(() => {
  if (globalThis.__search) return;
  const state = globalThis.__search = { asked: 0, answered: 0, lookups: 0, lookupsRead: 0 };
  const Base = globalThis.Worker;
  globalThis.Worker = class extends Base {
    constructor(url, options) {
      super(url, options);
      if (!/[/]workers[/]search[.-]/.test(String(url))) return; // Material's, or the late one that starts it
      this.addEventListener("message", (event) => { if (event.data && event.data.type === 3) state.answered += 1; });
      const post = this.postMessage.bind(this);
      this.postMessage = (message, ...rest) => { if (message && message.type === 2) state.asked += 1; return post(message, ...rest); };
    }
  };
  const fetchBase = globalThis.fetch;
  globalThis.fetch = (...args) => {
    const lookup = String(args[0] instanceof Request ? args[0].url : args[0]).endsWith("/rule-lookup.json");
    if (lookup) state.lookups += 1;
    return fetchBase(...args).then((response) => {
      // rule-lookup.js's own then() and catch() callbacks run before these timers fire.
      const read = () => setTimeout(() => { state.lookupsRead += 1; });
      if (lookup && !response.ok) read();  // refused: rule-lookup.js reads nothing
      if (lookup && response.ok) {
        const json = response.json.bind(response);
        response.json = () => json().finally(read);
      }
      return response;
    });
  };
})()"""
SETTLED = """() => { const s = globalThis.__search;
  return s.asked > 0 && s.answered === s.asked && s.lookupsRead === s.lookups; }"""


def search(page, base_url, query):
    """Type `query` into Material's search box as a reader would; return the
    results as [{page, title, links: [href, ...]}], best first, once the
    worker has answered every keystroke of this query and rule-lookup.js has
    had its say. On the home page already searched (the `searcher`), the
    query replaces the last one, as a reader searching again types."""
    if page.url.split("#")[0] != base_url or not page.evaluate("() => !!globalThis.__search"):
        page.add_init_script(WATCH)
        page.goto(base_url)
    asked = page.evaluate("() => globalThis.__search.asked")
    box = page.locator(".md-search__input")
    if page.evaluate("() => document.getElementById('__search').checked"):
        box.fill("")
    else:
        page.keyboard.press("/")  # Material's shortcut to the search box
    expect(box).to_be_focused()
    box.press_sequentially(query, delay=20)
    meta = page.locator(".md-search-result__meta")
    expect(meta).to_have_text(re.compile(r"\d+ matching documents?"), timeout=15_000)
    page.wait_for_function(f"() => globalThis.__search.asked > {asked} && ({SETTLED})()", timeout=15_000)
    return page.evaluate(RESULTS)


@pytest.fixture(scope="module")
def held_searcher(chromium):
    """One home page, with the site's real index (a context of its own, so
    no empty index is served), for the tests that only search: each query replaces the last (search), so Material's worker
    builds the index once, not at each test (about a second of CPU a load). Made again when it or the browser died."""

    def make():
        context = chromium.new_context(service_workers="block")
        context.route("**/pyodide/**", idle_runtime)  # results lead to calculator pages: nothing computes
        page = context.new_page()
        page.errors = []
        page.on("console", lambda m: m.type == "error" and page.errors.append(m.text))
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        return page

    held = HeldPage(make)
    yield held
    held.close()


@pytest.fixture
def searcher(held_searcher):
    return held_searcher.live()


RESULTS = """() => [...document.querySelectorAll('.md-search-result__item')].map((item) => ({
  page: new URL(item.querySelector('a').href).pathname,
  title: item.querySelector('h1').textContent,
  links: [...item.querySelectorAll('a.md-search-result__link')].map((a) => new URL(a.href).pathname + new URL(a.href).hash),
}))"""


def rule_links(results):
    return [link.split("#", 1)[1] for item in results for link in item["links"] if "#" in link]


def assert_every_result_names_its_game(results):
    for item in results:
        folder = item["page"].strip("/").split("/")[0]
        if folder in GAMES:
            assert GAMES[folder] in item["title"], f"{item['page']}: result title {item['title']!r} does not name its game"


# ---------------------------------------------------------------- search


def test_an_exact_rule_id_is_the_first_result(searcher, base_url):
    page = searcher
    results = search(page, base_url, "tt.combat.attack-table")
    assert results[0]["page"].endswith("/tell-tale/combat/"), [r["page"] for r in results[:3]]
    assert rule_links(results)[0] == "tt.combat.attack-table", rule_links(results)[:5]
    assert results[0]["title"] == "Tell-Tale › Attack table"  # the rule's own result, its game named
    assert_every_result_names_its_game(results)
    assert not page.errors


# Material's search matches each word as the start of a word, so these IDs
# lose to longer ones in the index alone (deck: gm-decks, duelist:
# duelist-example, week: weekend); rule-lookup.js moves them up.
@pytest.mark.parametrize("query", ["tt.glossary.deck", "rpgdl.cards.duelist", "rpgdl.glossary.week", "tt.stats.power"])
def test_an_exact_id_that_also_starts_longer_ids_is_first(searcher, base_url, query):
    page = searcher
    results = search(page, base_url, query)
    assert rule_links(results)[0] == query, rule_links(results)[:5]
    first = page.locator(".md-search-result__item").first
    expect(first.locator("a.md-search-result__link").first).to_have_attribute("href", re.compile(re.escape("#" + query) + "$"))  # a result of its own
    for item in page.locator(".md-search-result__item").all():
        more = item.locator("details.md-search-result__more summary")
        if more.count():  # its page's count of other sections is still right
            n = int(re.search(r"\d+", more.inner_text()).group())
            expect(item.locator("details a.md-search-result__link")).to_have_count(n)
    assert not page.errors


# Rule IDs typed into the search box of one page, each replacing the last.
EVERY_ID = """async (ids) => {
  const input = document.querySelector('.md-search__input');
  const list = document.querySelector('.md-search-result__list');
  const changed = () => new Promise((done) => {
    const watch = new MutationObserver(() => { watch.disconnect(); setTimeout(done, 0); });
    watch.observe(list, { childList: true });
  });
  const first = {};
  for (const id of ids) {
    const shown = changed();
    input.value = id;
    input.dispatchEvent(new KeyboardEvent('keyup'));  // what Material listens to
    await shown;
    first[id] = [...list.querySelectorAll('a.md-search-result__link')].map((a) => new URL(a.href).hash.slice(1)).filter(Boolean).slice(0, 3);
  }
  return first;
}"""


@pytest.fixture(scope="module")
def searched(site, rules, tmp_path_factory):
    """Every rule ID through Material's search worker under Node: {id: result groups} (made once for all
    pytest processes: support.made_once)."""
    return made_once(tmp_path_factory, "searched", lambda: material_search(site, [r["id"] for r in rules]))


def index_first(searched, rid):
    return [link.split("#", 1)[1] for link in shown_links(searched[rid]) if "#" in link][:1] == [rid]


@pytest.mark.node
def test_every_rule_id_is_shown_at_the_address_the_lookup_gives(site, rules, searched):
    """Each ID's rule is among the results the page draws at once, at the
    address rule-lookup.json gives it: first already, or where rule-lookup.js
    finds it to move it up."""
    lookup = json.loads((site / "rule-lookup.json").read_text(encoding="utf-8"))
    missing = {}
    for rule in rules:
        rid = rule["id"]
        target = lookup[rid] if "#" in lookup[rid] else f"{lookup[rid]}#{rid}"
        links = shown_links(searched[rid])
        if target not in links:
            missing[rid] = [link for link in links if "#" in link][:3]
    assert missing == {}
    assert sum(index_first(searched, r["id"]) for r in rules) > len(rules) / 2  # the index does most of the work


@SEARCH
@pytest.mark.node
def test_every_rule_id_finds_its_rule_first(browser, page, base_url, rules, searched):
    """In the page, every ID that the index alone does not put first (the
    worker under Node says which) is moved first by rule-lookup.js, and a
    sample of those it does put first stay first. Without rule-lookup.json
    the page lists what the worker under Node gave: the two agree."""
    moved = [r["id"] for r in rules if not index_first(searched, r["id"])]
    kept = [r["id"] for r in rules if index_first(searched, r["id"])][::25]
    assert moved and kept
    ctx = browser.new_context(service_workers="block")  # no cached copy of the lookup either
    ctx.route("**/rule-lookup.json", lambda route: route.fulfill(status=404, body="Not found"))
    without = ctx.new_page()
    search(without, base_url, "tt.combat.attack-table")  # the index is loaded
    by_index = without.evaluate(EVERY_ID, moved + kept)
    ctx.close()
    assert by_index == {rid: [link.split("#", 1)[1] for link in shown_links(searched[rid]) if "#" in link][:3] for rid in moved + kept}
    search(page, base_url, "tt.combat.attack-table")  # the index and the lookup are loaded
    first = page.evaluate(EVERY_ID, moved + kept)
    assert {rid: links for rid, links in first.items() if links[:1] != [rid]} == {}
    assert not page.errors


@pytest.mark.parametrize("query", ["tal.action", "rpgdl.glossary.worth", "tal.glossary"])
def test_other_games_ids_come_first_too(searcher, base_url, rules, query):
    page = searcher
    results = search(page, base_url, query)
    assert rule_links(results)[0].startswith(query), rule_links(results)[:5]
    assert_every_result_names_its_game(results)


def test_a_partial_id_lists_its_rules(searcher, base_url, rules):
    page = searcher
    results = search(page, base_url, "tt.combat")
    wanted = {r["id"] for r in rules if r["id"].startswith("tt.combat.")}
    found = rule_links(results)
    assert wanted <= set(found), wanted - set(found)
    assert found[0] in wanted  # and first
    assert_every_result_names_its_game(results)


def test_the_end_of_an_id_finds_the_rule(searcher, base_url):
    page = searcher
    results = search(page, base_url, "attack-table")
    assert rule_links(results)[0] == "tt.combat.attack-table", rule_links(results)[:5]
    assert_every_result_names_its_game(results)


def test_pages_with_the_same_title_say_which_game(searcher, base_url):
    page = searcher
    results = search(page, base_url, "glossary")
    titles = [r["title"] for r in results if r["page"].endswith("/glossary/")]
    assert sorted(titles) == sorted(f"{name} › Glossary" for name in GAMES.values()), titles


# ---------------------------------------------------------------- rule IDs in the address


def test_a_rule_id_on_the_home_page_goes_to_its_rule(page, base_url):
    # Came from a page of the site's origin (the blank one): Back goes there.
    # (Back to a new tab's first, empty entry instead twice left Chromium
    # unable to close the context, in two of some ten full runs.)
    page.goto(base_url + BLANK)
    page.goto(base_url + "#tt.combat.attack-table")
    page.wait_for_url("**/tell-tale/combat/#tt.combat.attack-table")
    expect(page.locator('[id="tt.combat.attack-table"]')).to_be_in_viewport()
    page.go_back()  # the address that sent us on was replaced: Back does not bounce
    page.wait_for_url(base_url + BLANK)
    assert not page.errors


def test_a_rule_id_typed_into_the_hash_goes_there_without_a_reload(page, base_url):
    page.goto(base_url + "tell-tale/")
    page.locator(".md-content").wait_for()
    page.evaluate("() => { window.__stillHere = true; }")
    page.evaluate("() => { location.hash = '#tal.glossary.action-table'; }")
    page.wait_for_url("**/talislanta/glossary/#tal.glossary.action-table")
    expect(page.locator('[id="tal.glossary.action-table"]')).to_be_in_viewport()
    assert page.evaluate("() => window.__stillHere === true")  # Material's instant navigation, no reload
    assert not page.errors


def test_an_instant_page_switch_to_a_rule_id_elsewhere(page, base_url):
    page.goto(base_url)
    page.locator(".md-content").wait_for()
    page.evaluate("() => { window.__stillHere = true; }")
    # A link from the home page to the Tell-Tale page with a rule of the combat page.
    page.evaluate("""() => {
        const a = Object.assign(document.createElement('a'), { href: 'tell-tale/#tt.combat.rounding', textContent: 'go' });
        document.querySelector('.md-content').prepend(a);
        a.click();
    }""")
    page.wait_for_url("**/tell-tale/combat/#tt.combat.rounding")
    expect(page.locator('[id="tt.combat.rounding"]')).to_be_in_viewport()
    assert page.evaluate("() => window.__stillHere === true")
    assert not page.errors


def test_an_old_id_goes_to_the_rule_that_replaced_it(page, base_url, site):
    """docs/rule-redirects.json is empty today: serve a lookup with one old ID
    added, in the form the hook writes (tested below)."""
    lookup = json.loads((site / "rule-lookup.json").read_text())
    lookup["tt.combat.old-attack-table"] = "tell-tale/combat/#tt.combat.attack-table"
    page.route("**/rule-lookup.json", lambda route: route.fulfill(json=lookup))
    page.goto(base_url + "tell-tale/stats/#tt.combat.old-attack-table")
    page.wait_for_url("**/tell-tale/combat/#tt.combat.attack-table")
    expect(page.locator('[id="tt.combat.attack-table"]')).to_be_in_viewport()
    assert not page.errors


def test_an_id_in_capitals_or_escaped_still_finds_its_rule(page, base_url):
    page.goto(base_url + "#TT%2Ecombat%2EAttack-Table")
    page.wait_for_url("**/tell-tale/combat/#tt.combat.attack-table")
    assert not page.errors


@pytest.mark.parametrize("hash_", ["#%E0%A4%A", "#%", "#tt.combat.%E0%A4%A", "#<img src=x onerror=alert(1)>", "#tt.no.such-rule", "#javascript:alert(1)"])
def test_a_bad_hash_is_ignored_quietly(page, base_url, hash_):
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(base_url + "tell-tale/combat/" + hash_)
    page.locator(".md-content").wait_for()
    page.wait_for_load_state("networkidle")
    page.evaluate("() => new Promise((done) => setTimeout(done, 200))")
    assert page.url.startswith(base_url + "tell-tale/combat/")
    assert not page.errors and not dialogs
    expect(page.locator(".md-content img[src=x]")).to_have_count(0)


# ---------------------------------------------------------------- the lookup file


def test_the_lookup_holds_every_rule_and_is_small_and_offline(site, rules):
    lookup = json.loads((site / "rule-lookup.json").read_text())
    assert {r["id"]: r["url"].split("#")[0] for r in rules}.items() <= lookup.items()
    assert (site / "rule-lookup.json").stat().st_size < (site / "rules.json").stat().st_size / 4
    assert '"rule-lookup.json"' in (site / "sw.js").read_text()  # precached by the service worker


def test_the_lookup_sends_old_ids_to_the_new_rule(tmp_path):
    book = Book(redirects={"tt.old.one": "tt.mini.one"})
    book.rules["tt.mini.one"] = Rule("tt.mini.one", "One", "tell-tale/a.md", False, url="tell-tale/a/")
    data.write_rules(tmp_path, book)
    lookup = json.loads((tmp_path / "rule-lookup.json").read_text())
    assert lookup == {"tt.mini.one": "tell-tale/a/", "tt.old.one": "tell-tale/a/#tt.mini.one"}


# ---------------------------------------------------------------- rule index pages


def index_url(base_url, folder):
    return f"{base_url}{folder}/rule-index/"


def test_the_index_is_grouped_by_chapter_in_reading_order(page, base_url, rules):
    page.goto(index_url(base_url, "tell-tale"))
    chapters = page.locator(".rule-index-chapter h2 > a:first-child").all_inner_texts()
    assert chapters[:3] == ["Tell-Tale", "Character creation", "Stats"], chapters
    combat = page.locator(".rule-index-chapter", has=page.locator("h2", has_text="Combat"))
    expect(combat.locator("h3")).to_have_text([re.compile(f"^{h}¶?$") for h in ("Starting a fight", "The combat turn", "Attacks")], use_inner_text=True)
    ids = page.locator(".rule-index-id").all_text_contents()
    assert sorted(ids) == sorted(r["id"] for r in rules if r["game"] == "tell-tale")


def test_the_filter_narrows_the_rows_and_says_how_many(page, base_url, rules):
    page.goto(index_url(base_url, "tell-tale"))
    total = sum(r["game"] == "tell-tale" for r in rules)
    box = page.get_by_label("Find a rule by ID or title")
    expect(box).to_be_visible()
    status = page.locator(".rule-index-count")
    expect(status).to_have_attribute("role", "status")  # announced: an aria-live region
    expect(status).to_have_text(f"{total} rules")
    box.fill("tt.combat")
    combat = sum(r["id"].startswith("tt.combat.") for r in rules)
    expect(page.locator(".rule-index-list > li:visible")).to_have_count(combat)
    expect(status).to_have_text(f"{combat} of {total} rules match.")
    expect(page.locator(".rule-index-chapter:visible h2 > a:first-child")).to_have_text(["Combat"])
    box.fill("attack table")  # words of a title, in any order
    expect(page.locator(".rule-index-list > li:visible .rule-index-id")).to_contain_text(["tt.combat.attack-table"])
    box.fill("zzz-no-such-rule")
    expect(page.locator(".rule-index-list > li:visible")).to_have_count(0)
    expect(status).to_contain_text("No rule matches")
    box.fill("")
    expect(page.locator(".rule-index-list > li:visible")).to_have_count(total)
    assert not page.errors


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_on_an_index_page_filtered_or_not(browser, base_url, scheme):
    context = browser.new_context(**PHONE, color_scheme=scheme, bypass_csp=True)  # axe is injected inline
    page = context.new_page()
    page.goto(index_url(base_url, "talislanta"))
    page.add_script_tag(path=str(ROOT / "node_modules" / "axe-core" / "axe.min.js"))
    run = """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
               .map((v) => `${v.id} (${v.nodes.length}): ${v.nodes[0].target.join(' ')}`)"""
    assert page.evaluate(run) == []
    page.get_by_label("Find a rule by ID or title").fill("tal.action")
    expect(page.locator(".rule-index-count")).to_contain_text("rules match")
    assert page.evaluate(run) == []
    context.close()


def test_without_script_the_whole_index_shows(browser, base_url, rules):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(index_url(base_url, "rpgdl"))
    expect(page.locator(".rule-index-filter")).to_be_hidden()
    expect(page.locator(".rule-index-list > li:visible")).to_have_count(sum(r["game"] == "rpgdl" for r in rules))
    context.close()


# Each ID's text, character by character: where a line starts, the character
# before it must be a dot.
BREAKS = """() => [...document.querySelectorAll('.rule-index-id')].flatMap((code) => {
  const text = code.textContent, range = document.createRange(), tops = [];
  let i = 0;
  const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
  for (let node; (node = walker.nextNode());) {
    for (let j = 0; j < node.length; j++, i++) {
      range.setStart(node, j); range.setEnd(node, j + 1);
      tops.push(range.getBoundingClientRect().top);
    }
  }
  const bad = [];
  for (let k = 1; k < tops.length; k++) {
    if (tops[k] > tops[k - 1] + 2 && text[k - 1] !== '.') bad.push(text.slice(0, k) + ' | ' + text.slice(k));
  }
  return bad;
})"""


@pytest.mark.parametrize("folder", GAMES)
def test_on_a_phone_ids_break_only_after_a_dot_and_nothing_scrolls_sideways(browser, base_url, folder):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(index_url(base_url, folder))
    page.locator(".rule-index-filter:not([hidden])").wait_for()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    wide = page.evaluate("""() => [...document.querySelectorAll('.md-content *')]
        .filter((e) => e.getBoundingClientRect().right > 360 || e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible')
        .slice(0, 3).map((e) => e.tagName.toLowerCase() + '.' + e.className)""")
    assert not wide, wide
    assert page.evaluate(BREAKS) == []
    # Narrower still: the IDs must wrap, and only after dots.
    page.set_viewport_size({"width": 250, "height": 740})
    assert page.evaluate(BREAKS) == []
    assert page.evaluate("() => [...document.querySelectorAll('.rule-index-id')].some((c) => c.getClientRects().length > 1 || c.offsetHeight > 30)")
    context.close()


# ---------------------------------------------------------------- the index waits for the calculator

MATERIAL_WORKER = re.compile(r"/workers/search\.[0-9a-f]{8}\.min\.js$")


@SEARCH
def test_the_search_index_waits_for_the_calculator_and_is_built_at_once_when_asked(browser, base_url):
    """On a calculator page the search index is neither downloaded (its 70 kB
    held by the head's script, overrides/main.html) nor built by Material's
    search worker (rulebook/site/search-later.js) until the calculator is
    done with the line and the cores: here the calculator never starts (the
    idle stand-in), so the index waits until the reader opens the search;
    then it is fetched once and the search answers."""
    ctx = browser.new_context(service_workers="block")
    ctx.route("**/pyodide/**", idle_runtime)
    started, index, late = [], [], []
    ctx.on("request", lambda r: MATERIAL_WORKER.search(r.url.split("?")[0]) and started.append(r.url))
    ctx.on("request", lambda r: r.url.split("?")[0].endswith("/search/search_index.json") and index.append(r.url))
    ctx.on("request", lambda r: "/workers/search-later." in r.url and late.append(r.url))
    page = ctx.new_page()
    page.goto(base_url + "tell-tale/combat/", wait_until="load")
    page.wait_for_function("() => document.querySelector('.rule-id button')")  # the page's own scripts have run
    assert late, "Material did not start its (late) search worker"
    page.wait_for_timeout(500)  # time for a request Material would have made at once
    assert not index, "the search index was downloaded while the calculator was still starting"
    assert not started, "Material's search worker started while the calculator was still starting"
    page.keyboard.press("/")
    page.locator(".md-search__input").press_sequentially("trample", delay=20)
    expect(page.locator(".md-search-result__meta")).to_have_text(re.compile(r"\d+ matching documents?"), timeout=15_000)
    assert len(started) == 1, started
    assert len(index) == 1, index
    ctx.close()


def test_every_page_names_the_late_search_worker_and_the_page_script_speaks_on_its_channel(site):
    late = sorted((site / search_later.WORKERS).glob("search-later.*.min.js"))
    assert len(late) == 1, late
    text = late[0].read_text(encoding="utf-8")
    material = search_later.MATERIAL.match(late[0].name.replace("search-later.", "search."))
    assert material and json.dumps(material.group(0)) in text and json.dumps(search_later.CHANNEL) in text
    assert "MATERIAL-SEARCH-WORKER" not in text and "SEARCH-START-CHANNEL" not in text
    page_script = (ROOT / "docs" / "assets" / "search-start.js").read_text(encoding="utf-8")
    assert f"const CHANNEL = {json.dumps(search_later.CHANNEL)};" in page_script
    assert "document.dispatchEvent(new Event(CHANNEL));" in page_script  # the word the head's hold of the index listens for
    for html in sorted(site.rglob("index.html")):
        text = html.read_text(encoding="utf-8")
        found = built.page_of(text).config
        if found:  # a page of Material's (not a short link)
            assert json.loads(text[slice(*found)])["search"].endswith("/" + late[0].name), html
        if 'name="calculator-runtime"' in text:  # a calculator page holds the index's download until that word
            assert f"document.addEventListener({json.dumps(search_later.CHANNEL)}," in text, html


def test_pointing_a_page_at_the_late_worker_keeps_its_config_and_escapes_it():
    config = {"base": "..", "search": "../assets/javascripts/workers/search.0123abcd.min.js", "note": "</script><b>"}
    escaped = json.dumps(config).replace("<", "\\u003c")  # as Jinja's tojson writes it into a page
    html = f'<head><script id="__config" type="application/json">{escaped}</script></head>'
    out = built.apply(html, search_later.point(built.page_of(html), "search-later.0123abcd.min.js"))
    found = built.page_of(out).config
    assert found and json.loads(out[slice(*found)]) == {
        **config, "search": "../assets/javascripts/workers/search-later.0123abcd.min.js"}
    assert "</script><b>" not in out
    assert search_later.point(built.page_of(html), None) == []
    assert search_later.point(built.page_of("<p>no config</p>"), "search-later.0123abcd.min.js") == []
