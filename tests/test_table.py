"""The GM's table: house rulings chosen once, and the roll log,
in a real Chromium against the built site."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from urllib.parse import quote, urlencode

import pytest
from markdown_it import MarkdownIt
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect
from support import storage
from support.helpers import BOOT, PHONE, address, calculator_pages, follow, share_url
from support.trackers import FILL
from support.server import BLANK

from calculators import games
from calculators.registry import all_calculators
from calculators.runner import run

pytestmark = pytest.mark.browser
ATTACK = "tell_tale.resolve_attack"
# Advantage twice (the situation and Haste) against one disadvantage (poison):
# under the site's ruling they cancel to one d20, so "4 17" is refused;
# counted, advantage wins and 17 is kept.
CONTESTED = {"power": "5", "mode": "advantage", "haste": "yes", "poisoned": "yes", "d20": "4 17"}


@pytest.fixture(scope="module")
def pages_of(site):
    return calculator_pages(site)


@pytest.fixture
def table(browser):
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    yield page
    context.close()


def choose(page, base_url, game_folder, setting, value):
    page.goto(f"{base_url}{game_folder}/table-settings/")
    # The form listens once house-rules.js has the settings' spec (a fetch after the
    # page loads): a choice made before that is drawn over from storage.
    page.locator("form.table-settings[data-ready]").wait_for()
    field = page.locator(f'.ts-setting[data-setting="{setting}"] [name]')
    if field.evaluate("e => e.tagName") == "SELECT":
        field.select_option(value)
    else:
        field.fill(value)
    page.locator(".ts-status", has_text="house ruling").wait_for()


def fill(form, params):
    for name, value in params.items():
        field = form.locator(f'[name="{name}"]')
        kind = field.evaluate("e => e.type")
        if kind == "select-one":
            field.select_option(value)
        elif kind == "checkbox":  # a yes/no switch: a tap turns it on or off
            field.set_checked(value == "yes")
        else:
            field.fill(value)


def test_a_house_ruling_changes_every_affected_form_and_survives_a_reload(table, base_url, pages_of, site):
    assert not run(ATTACK, CONTESTED)["ok"]  # the site's ruling: one d20
    expected = run(ATTACK, {**CONTESTED, "both": "count"})
    assert expected["ok"] and expected["outcome"] == "full"
    choose(table, base_url, "tell-tale", "tell_tale.both", "count")
    users = [n for n, c in all_calculators().items() if any(p.name == "both" for p in c.params)]
    assert len(users) >= 3
    for name in users:
        table.goto(base_url + pages_of[name])
        form = table.locator(f'form[data-calculator="{name}"]')
        expect(form.locator("[name=both]"), name).to_have_value("count")
        expect(form.locator(".calc-table-line"), name).to_contain_text("1 house ruling", use_inner_text=True)
    table.reload()
    table.goto(base_url + pages_of[ATTACK])
    form = table.locator(f'form[data-calculator="{ATTACK}"]')
    fill(form, {k: v for k, v in CONTESTED.items() if k != "d20"})
    form.locator("[name=d20]").fill(CONTESTED["d20"])
    form.locator('[data-outcome="full"]').wait_for(timeout=BOOT)
    expect(form.locator(".calc-headline")).to_have_text(expected["headline"])
    address(table, has=["both=count"])  # the share link carries the ruling it used
    # Shown in the ruling box, wherever the ruling is.
    table.goto(base_url + "tell-tale/advantage/")
    note = table.locator(".admonition.ruling .ts-yours")
    note.wait_for()
    expect(note).to_contain_text("More sources wins", use_inner_text=True)
    assert not table.errors


def test_a_share_link_reproduces_its_rulings_on_a_device_without_them(browser, table, base_url, pages_of):
    choose(table, base_url, "tell-tale", "tell_tale.both", "count")
    table.goto(share_url(base_url, pages_of, ATTACK, {"power": "5", "d20": "12"}))
    form = table.locator(f'form[data-calculator="{ATTACK}"]')
    form.locator("[data-outcome]").wait_for(timeout=BOOT)
    fill(form, {k: v for k, v in CONTESTED.items() if k != "d20"})
    form.locator("[name=d20]").fill(CONTESTED["d20"])
    form.locator('[data-outcome="full"]').wait_for(timeout=BOOT)
    link = address(table, has=[urlencode({"d20": CONTESTED["d20"]})])
    other = browser.new_context()
    page = other.new_page()
    page.goto(link)
    form = page.locator(f'form[data-calculator="{ATTACK}"]')
    form.locator('[data-outcome="full"]').wait_for(timeout=BOOT)
    expect(form.locator("[name=both]")).to_have_value("count")
    expect(form.locator(".calc-rulings summary")).to_contain_text("changed", use_inner_text=True)
    other.close()


def test_a_join_link_applies_the_table_after_a_confirmation(browser, table, base_url, pages_of):
    choose(table, base_url, "rpgdl", "rpgdl.half_draw", "exactly")
    choose(table, base_url, "rpgdl", "rpgdl.trainwreck_limit", "4")
    table.locator("[data-action=join]").click()
    table.locator("[data-action=join]", has_text="copied").wait_for()
    link = table.evaluate("navigator.clipboard.readText()")
    assert "join=" in link
    other = browser.new_context()
    page = other.new_page()
    page.goto(link)
    box = page.locator(".ts-join")
    box.wait_for()
    expect(box).to_contain_text("changes 2 rulings", use_inner_text=True)
    assert storage.get(page, storage.SETTINGS) is None  # not before the player says so
    box.locator("button", has_text="Apply").click()
    page.locator(".ts-status", has_text="2 house rulings").wait_for()
    expect(page).not_to_have_url(re.compile("join="))
    page.goto(base_url + pages_of["rpgdl.is_trainwreck"])
    form = page.locator('form[data-calculator="rpgdl.is_trainwreck"]')
    expect(form.locator("[name=half_draw]")).to_have_value("exactly")
    page.goto(base_url + pages_of["rpgdl.season_tally"])
    expect(page.locator('form[data-calculator="rpgdl.season_tally"] [name=trainwreck_limit]')).to_have_value("4")
    other.close()


HOSTILE = [
    ("tell_tale.nope:1", "no house ruling called"),
    ("tell_tale.both:<img src=x onerror=window.__pwned=1>", "cannot be"),
    ("__proto__.polluted:1", "no house ruling called"),
    ("rpgdl.trainwreck_limit:1_000", "whole number"),
    ("rpgdl.trainwreck_limit:999", "from 1 to"),
    ("tell_tale.both.x:count", "no house ruling called"),
]


@pytest.mark.parametrize("item,words", HOSTILE, ids=[h[0][:24] for h in HOSTILE])
def test_an_unknown_or_hostile_setting_in_a_link_is_refused_in_words(page, base_url, item, words):
    page.goto(f"{base_url}tell-tale/table-settings/?join={item},tell_tale.overflow:stop")
    box = page.locator(".ts-join")
    box.wait_for()
    refused = box.locator(".calc-field-error")
    expect(refused).to_contain_text(words, use_inner_text=True)
    expect(box).to_contain_text("changes 1 ruling", use_inner_text=True)  # the good one is offered, alone
    box.locator("button", has_text="Apply").click()
    stored = json.loads(storage.get(page, storage.SETTINGS))
    assert stored == {"tell_tale.overflow": "stop"}
    assert page.evaluate("() => window.__pwned") is None
    expect(page.locator("img[src=x]")).to_have_count(0)
    assert page.evaluate("() => ({}).polluted") is None
    assert not page.errors


@pytest.fixture(scope="module")
def spec(site):
    return json.loads((site / "table-settings.json").read_text(encoding="utf-8"))


def keep_settings(page, base_url, settings):
    page.goto(base_url + BLANK)  # the site's origin, without a page of the site to load
    storage.put(page, storage.SETTINGS, json.dumps(settings))


def stored_settings(page):
    return json.loads(storage.get(page, storage.SETTINGS) or "null")


GAMES = {g.key: g.name for g in games.GAMES}  # as table-settings.json names them
MINE = {"tell_tale.both": "count", "rpgdl.trainwreck_limit": "4"}
NOTHING_TO_APPLY = [
    ("tell_tale.both:typo", "cannot be", "Nothing in this join link can be applied"),
    ("tell_tale.overflow:stop," * 100, "too long (2400 characters)", "Nothing in this join link can be applied"),
    ("tell_tale.bothh:count,rpgdl.trainwreck_limit:99", "no house ruling called", "Nothing in this join link can be applied"),
    ("rpgdl.trainwreck_limit:4,tell_tale.both:count", None, "already plays"),
]


@pytest.mark.parametrize("link,refused,said", NOTHING_TO_APPLY, ids=["typo", "too-long", "all-refused", "no-change"])
def test_a_join_link_that_would_change_nothing_offers_no_apply(page, base_url, link, refused, said):
    """A join link with nothing valid in it offers no "Apply", which would
    wipe the device's house rulings."""
    keep_settings(page, base_url, MINE)
    page.goto(f"{base_url}tell-tale/table-settings/?join={quote(link)}")
    box = page.locator(".ts-join")
    expect(box).to_be_visible()  # drawn at once, buttons and all
    expect(box.locator("button")).to_have_count(0)  # no "Apply" that could only wipe this device's rulings
    expect(box).to_contain_text(said)
    if refused:
        expect(box.locator(".calc-field-error").first).to_contain_text(refused)
    assert stored_settings(page) == MINE
    expect(page.locator(".ts-status")).to_have_text("Your table plays 1 house ruling in Tell-Tale.")
    expect(page).not_to_have_url(re.compile("join="))  # answered: a reload does not ask again
    assert not page.errors


def change_line(spec, key, before, after, back=False):
    game, name = key.split(".")
    setting = spec["settings"][game][name]
    shown = (lambda v: "“" + dict(setting["choices"])[v] + "”") if setting["kind"] == "choice" else str
    what = f"{GAMES[game]}, {setting['label']}"
    return f"{what} goes back to the site's ruling: from {shown(before)} to {shown(after)}." if back else f"{what}: from {shown(before)} to {shown(after)}."


def test_a_join_link_lists_each_change_before_it_is_applied(page, base_url, spec):
    """The prompt says every ruling that would change, from what to what in
    the settings form's words; a join link carries a whole table, so a ruling
    it does not name goes back to the site's, and it says so. A ruling it
    names with a value this site refuses stays as the device has it."""
    keep_settings(page, base_url, {"tell_tale.both": "count", "tell_tale.overflow": "stop", "tell_tale.rounding": "up", "rpgdl.half_draw": "exactly"})
    link = "rpgdl.half_draw:exactly,rpgdl.trainwreck_limit:4,tell_tale.overflow:carry,tell_tale.rounding:sideways"
    page.goto(f"{base_url}rpgdl/table-settings/?join={quote(link)}")
    box = page.locator(".ts-join")
    expect(box.locator(".ts-join-title")).to_have_text("This join link changes 3 rulings on this device:")
    expect(box.locator("li")).to_have_text([
        change_line(spec, "tell_tale.both", "count", "cancel", back=True),
        change_line(spec, "tell_tale.overflow", "stop", "carry"),
        change_line(spec, "rpgdl.trainwreck_limit", "3", "4"),
    ])
    expect(box).to_contain_text("goes back to the site's ruling", use_inner_text=True)
    expect(box.locator(".calc-field-error")).to_have_text([
        "Round the half cannot be “sideways”: it was not applied (the choices are Down (ruling); Up)."])
    assert stored_settings(page)["tell_tale.both"] == "count"  # nothing yet
    box.locator("button", has_text="Apply").click()
    expect(box).to_have_text("Applied: this device now plays 3 house rulings.")
    assert stored_settings(page) == {"rpgdl.half_draw": "exactly", "rpgdl.trainwreck_limit": "4", "tell_tale.rounding": "up"}
    expect(page.locator(".ts-status")).to_have_text("Your table plays 2 house rulings in RPGDL TCG.")
    assert not page.errors


def test_a_stored_setting_the_form_does_not_allow_is_ignored(page, base_url, pages_of):
    page.goto(base_url + BLANK)
    storage.put(page, storage.SETTINGS, json.dumps({"tell_tale.both": "<b>x</b>", "tell_tale.overflow": 7}))
    page.goto(base_url + pages_of[ATTACK])
    form = page.locator(f'form[data-calculator="{ATTACK}"]')
    expect(form.locator("[name=both]")).to_have_value("cancel")
    expect(form.locator(".calc-table-line")).to_contain_text("the site's rulings", use_inner_text=True)


# ---------------------------------------------------------------- the roll log


def roll(page, form, power):
    form.locator("[name=power]").fill(str(power))
    form.locator("[data-action=roll]").click()
    form.locator("[data-outcome]").wait_for(timeout=BOOT)
    return form.locator(".calc-headline").text_content()


def test_the_log_keeps_results_across_reloads_and_its_links_reproduce_them(table, base_url, pages_of):
    table.goto(base_url + pages_of[ATTACK])
    form = table.locator(f'form[data-calculator="{ATTACK}"]')
    first = roll(table, form, 3)
    form.locator("[name=d20]").fill("17")
    form.locator("[name=d20]").press("Enter")  # typed: logged once the player is done with it (table-log.js's FormLog)
    form.locator('[data-outcome="full"]').wait_for()
    table.wait_for_function("(key) => (JSON.parse(localStorage.getItem(key) || '[]')).length === 2", arg=storage.LOG, timeout=BOOT, polling=100)
    table.goto(base_url + "table-log/")
    table.reload()
    entries = table.locator(".log-entry")
    entries.first.wait_for()
    expect(entries).to_have_count(2)
    expect(entries.nth(0).locator(".log-headline")).to_have_text(run(ATTACK, {"power": "3", "d20": "17"})["headline"])
    expect(entries.nth(1).locator(".log-headline")).to_have_text(first)
    expect(entries.nth(1).locator(".log-inputs")).to_contain_text("seed")
    # Each entry's link shows the same result again.
    entries.nth(1).locator("a").click()
    form = table.locator(f'form[data-calculator="{ATTACK}"]')
    form.locator("[data-outcome]").wait_for(timeout=BOOT)
    expect(form.locator(".calc-headline")).to_have_text(first)
    assert not table.errors


def test_every_typed_attack_reaches_the_log_each_its_own_entry_even_when_the_page_is_left_at_once(browser, base_url, pages_of):
    """A typed result was logged only after standing 1.5 s, and a later result, or leaving the page, in that
    time dropped it; the same result twice was kept once (a GM lost 4 attacks of 25). Each result the player
    commits to (Enter here) is logged, the same miss twice is two entries, and what is still on its way or
    held when the page is left goes in as well: by Material's instant navigation and by a real unload."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(base_url + pages_of[ATTACK])
    form = page.locator(f'form[data-calculator="{ATTACK}"]')
    form.locator(".calc-status", has_text="Ready").wait_for(timeout=BOOT)
    form.locator("[name=power]").fill("5")
    d20 = form.locator("[name=d20]")
    for roll in ("17", "3", "3", "11"):  # one after another, no wait for an answer
        d20.fill(roll)
        d20.press("Enter")
    d20.fill("12")  # shown, not committed to: the page is left at once
    follow(page, base_url + "table-log/")
    headlines = [run(ATTACK, {"power": "5", "d20": d20})["headline"] for d20 in ("12", "11", "3", "3", "17")]
    expect(page.locator(".log-headline")).to_have_text(headlines, timeout=BOOT)
    # A real unload: the result shown is logged as the page goes.
    page.goto(base_url + pages_of[ATTACK])
    form.locator(".calc-status", has_text="Ready").wait_for(timeout=BOOT)
    form.locator("[name=power]").fill("5")
    d20.fill("19")
    last = run(ATTACK, {"power": "5", "d20": "19"})["headline"]
    expect(form.locator(".calc-headline")).to_have_text(last, timeout=BOOT)
    page.goto(base_url + "table-log/")
    expect(page.locator(".log-headline")).to_have_text([last, *headlines], timeout=BOOT)
    context.close()


def test_a_result_the_full_storage_cannot_keep_is_said_in_the_form_and_on_the_log(browser, base_url, pages_of):
    """With the storage full a result went nowhere and the log went on saying "3 results"."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(base_url + pages_of[ATTACK])
    form = page.locator(f'form[data-calculator="{ATTACK}"]')
    form.locator(".calc-status", has_text="Ready").wait_for(timeout=BOOT)
    page.evaluate(FILL, 0)
    form.locator("[name=power]").fill("5")
    form.locator("[name=d20]").fill("17")
    form.locator("[name=d20]").press("Enter")
    note = form.locator(".calc-log-note")
    expect(note).to_have_text("This result is not in the Table log: this device's storage is full."
                              " Clearing the Table log, or saved fights and seasons you no longer need, makes room.", timeout=BOOT)
    expect(note).to_be_in_viewport()  # in the answer bar, where the result is read
    follow(page, base_url + "table-log/")
    headline = run(ATTACK, {"power": "5", "d20": "17"})["headline"]
    expect(page.locator(".log-count")).to_contain_text("1 result, newest first. 1 result of this visit is shown but not kept: this device's storage is full.")
    expect(page.locator(".log-entry .log-headline")).to_have_text([headline])
    expect(page.locator(".log-entry .log-unkept")).to_have_text("Not kept on this device: its storage is full.")
    # Room made: the next result keeps the one before as well.
    page.evaluate("() => Object.keys(localStorage).filter((k) => k.startsWith('junk-')).forEach((k) => localStorage.removeItem(k))")
    page.go_back()
    form.locator("[name=d20]").wait_for()
    form.locator("[data-action=roll]").click()
    page.wait_for_function("(key) => (JSON.parse(localStorage.getItem(key) || '[]')).length === 2", arg=storage.LOG, timeout=BOOT, polling=100)
    expect(form.locator(".calc-log-note")).to_be_hidden()
    context.close()


def test_the_log_exports_markdown_and_json_that_parse_and_filters_by_game(table, base_url, pages_of):
    table.goto(base_url + pages_of[ATTACK])
    roll(table, table.locator(f'form[data-calculator="{ATTACK}"]'), 4)
    name = "talislanta.resolve_action"
    table.goto(base_url + pages_of[name])
    form = table.locator(f'form[data-calculator="{name}"]')
    form.locator("[name=rating]").fill("5")
    form.locator("[data-action=roll]").click()
    form.locator("[data-outcome]").wait_for(timeout=BOOT)
    table.goto(base_url + "table-log/")
    table.locator(".log-entry").first.wait_for()
    table.locator("button", has_text="Copy as JSON").click()
    table.locator("button", has_text="Copied").wait_for()
    entries = json.loads(table.evaluate("navigator.clipboard.readText()"))
    assert [e["calculator"] for e in entries] == [name, ATTACK]
    assert all(e["seed"] is not None and e["headline"] and e["url"].startswith("/") for e in entries)
    table.locator("button", has_text="Copy as Markdown").click()
    table.wait_for_function("() => navigator.clipboard.readText().then((t) => t.startsWith('- '))", polling=100)  # the JSON copied before is replaced
    lines = table.evaluate("navigator.clipboard.readText()").splitlines()
    assert len(lines) == 2 and all(re.match(r"^- .+: \[.+\]\(http.+\): \*\*.+\*\* \(.*\)", line) for line in lines), lines
    table.locator("#log-game").select_option("talislanta")
    expect(table.locator(".log-entry")).to_have_count(1)
    table.once("dialog", lambda d: d.accept())
    table.locator("button", has_text="Clear the log").click()
    table.locator(".log-count", has_text="No results yet").wait_for()


def test_the_log_is_capped(page, base_url):
    page.goto(base_url + "table-log/")
    page.locator(".log-count").wait_for()
    page.evaluate("""async () => {
        const t = await import(new URL('assets/house-rules.js', document.baseURI.replace(/table-log\\/.*$/, '')).href);
        for (let i = 0; i < t.LOG_CAP + 25; i++) t.logResult({time: new Date().toISOString(), calculator: 'tell_tale.resolve_attack', game: 'tell_tale', title: 'Attack roll', inputs: {power: String(i)}, seed: i, outcome: 'miss', headline: 'Miss ' + i, url: '/tell-tale/combat/?power=' + i});
    }""")
    page.reload()
    page.locator(".log-entry").first.wait_for()
    expect(page.locator(".log-entry")).to_have_count(200)
    expect(page.locator(".log-headline").first).to_have_text("Miss 224")


def test_a_log_page_left_by_instant_navigation_stops_listening(page, context, base_url):
    """The log page listens for another tab's rolls; each visit by instant navigation builds a new log
    and a listener, which goes with its page (else the old ones would go on drawing logs no longer shown): after another tab's roll, the window has the listeners of one visit only."""
    def storage_listeners():
        cdp = context.new_cdp_session(page)
        window = cdp.send("Runtime.evaluate", {"expression": "window"})["result"]["objectId"]
        found = cdp.send("DOMDebugger.getEventListeners", {"objectId": window})["listeners"]
        cdp.detach()
        return sum(1 for listener in found if listener["type"] == "storage")

    def another_tab_rolls(n):
        other = context.new_page()
        other.goto(base_url + BLANK)
        storage.put(other, storage.LOG, json.dumps([logged(i) for i in range(n)]))
        other.close()
        # the listeners run in the order they were added: the live one draws last
        page.locator(".log-entry").nth(n - 1).wait_for()

    page.goto(base_url + "table-log/")
    page.locator(".log-count").wait_for()
    another_tab_rolls(1)
    once = storage_listeners()
    for _ in range(3):
        follow(page, base_url + "saved-data/")
        follow(page, base_url + "table-log/")
    another_tab_rolls(2)
    assert storage_listeners() == once


def logged(i, **changes):
    entry = {"time": f"2025-03-01T20:{i:02d}:00.000Z", "calculator": ATTACK, "game": "tell_tale", "title": "Attack roll",
             "inputs": {"power": str(i), "d20": "17"}, "seed": None, "outcome": "full", "headline": f"Hit {i}",
             "url": f"/tell-tale/combat/?calc={ATTACK}&power={i}&d20=17#calc-tell-tale-resolve-attack"}
    return {**entry, **changes}


def keep_log(page, base_url, entries):
    """Open the Table log with these entries kept on the device."""
    page.goto(base_url + BLANK)
    storage.put(page, storage.LOG, json.dumps(entries))
    page.goto(base_url + "table-log/")


BAD_ENTRIES = {
    "headline-an-object": logged(7, headline={"text": "Hit 7"}),
    "headline-unprintable": logged(7, headline={"toString": 1}),
    "not-a-time": logged(7, time="at dinner"),
    "inputs-a-list": logged(7, inputs=["power", "7"]),
    "unknown-game": logged(7, game="chess"),
    "not-an-entry": "Hit 7",
    "nothing": None,
}


@pytest.mark.parametrize("bad", list(BAD_ENTRIES))
def test_one_bad_entry_in_the_log_is_skipped_and_counted_and_the_rest_drawn(page, base_url, bad):
    """One entry the page cannot read is skipped and counted, the rest of
    the log drawn, and the entry kept in storage."""
    entries = [logged(i) for i in range(21, 0, -1)]
    entries[21 - 7] = BAD_ENTRIES[bad]
    keep_log(page, base_url, entries)
    count = page.locator(".log-count")
    expect(count).to_have_text("20 results, newest first. 1 entry could not be read and is not shown.")
    expect(page.locator(".log-entry")).to_have_count(20)
    expect(page.locator(".log-headline")).to_have_text([f"Hit {i}" for i in range(21, 0, -1) if i != 7])
    # Nothing saved is lost: the bad entry stays in storage after a new result.
    page.evaluate("""async () => {
        const t = await import(new URL('assets/house-rules.js', document.baseURI.replace(/table-log\\/.*$/, '')).href);
        t.logResult({time: new Date().toISOString(), calculator: 'tell_tale.resolve_attack', game: 'tell_tale', title: 'Attack roll',
                         inputs: {power: '22'}, seed: 22, outcome: 'miss', headline: 'Miss 22', url: '/tell-tale/combat/?power=22'});
    }""")
    page.reload()
    expect(count).to_have_text("21 results, newest first. 1 entry could not be read and is not shown.")
    assert len(json.loads(storage.get(page, storage.LOG))) == 22
    assert not page.errors


class Rendered(HTMLParser):
    """The tags, link targets and text of rendered Markdown."""

    def __init__(self):
        super().__init__()
        self.tags, self.hrefs, self.text = set(), [], []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.hrefs += [value for name, value in attrs if name in ("href", "src")]

    def handle_data(self, data):
        self.text.append(data)


HOSTILE_NAME = "<img src=x onerror=window.__pwned=1> [x](javascript:alert(1)) ![i](https://evil.example/i.png) **loud** https://evil.example/ www.evil.example & a_b"


def test_the_logs_markdown_copy_is_plain_text_with_links_only_to_this_site(table, base_url):
    """A name that comes in a share link is text, never HTML or a
    javascript: link. Every field is escaped; a link goes to this site or is
    left out."""
    weekend = "/rpgdl/duels/?calc=rpgdl.resolve_weekend&godlike_first_name=" + quote(HOSTILE_NAME)
    entries = [
        logged(4, title="Weekend", headline=f"{HOSTILE_NAME} wins the weekend", inputs={"godlike_first_name": HOSTILE_NAME}, url=weekend),
        logged(3, title=f"Attack {HOSTILE_NAME}", url="https://evil.example/tell-tale/combat/"),
        logged(2, url="javascript:alert(1)//"),
        logged(1, url="/tell-tale/combat/?x=)[y](javascript:alert(1))"),
    ]
    keep_log(table, base_url, entries)
    expect(table.locator(".log-entry")).to_have_count(4)
    table.locator("button", has_text="Copy as Markdown").click()
    expect(table.locator("button", has_text="Copied")).to_have_count(1)
    markdown = table.evaluate("navigator.clipboard.readText()")
    lines = markdown.splitlines()
    assert len(lines) == 4, markdown
    html = MarkdownIt("commonmark").render(markdown)  # raw HTML allowed, as in most Markdown viewers
    rendered = Rendered()
    rendered.feed(html)
    assert rendered.tags <= {"ul", "li", "a", "strong"}, html
    assert rendered.hrefs and all(h.startswith(base_url) for h in rendered.hrefs), rendered.hrefs
    assert len(rendered.hrefs) == 2  # the weekend's and the last one's; the others are not this site's
    assert html.count("<a ") == 2 and "<strong>" in html
    # No address outside a link's target either (chat apps turn those into links).
    text = re.sub(r"\]\((http[^)\s]*)\)", "]", markdown)
    assert not re.search(r"https?://|www\.|javascript:", text), text
    # And nothing is lost: the name reads as typed.
    shown = "".join(rendered.text)
    assert shown.count(HOSTILE_NAME) >= 3, shown  # the headline, the inputs, the second title
    # The same for one entry's own Copy button.
    table.locator(".log-copy").first.click()
    expect(table.locator(".log-copy", has_text="Copied")).to_have_count(1)
    assert table.evaluate("navigator.clipboard.readText()") == lines[0]
    assert table.evaluate("() => window.__pwned") is None
    assert not table.errors



def test_the_log_says_what_was_typed_in_the_forms_words_and_keeps_its_filter(table, base_url, pages_of):
    """Labels and choices, not parameter names; a filter that matches nothing says so; a reload keeps it."""
    name = "talislanta.resolve_action"
    table.goto(base_url + pages_of[name])
    form = table.locator(f'form[data-calculator="{name}"]')
    form.locator("[name=rating]").fill("7")
    form.locator("[data-action=roll]").click()
    form.locator("[data-outcome]").wait_for(timeout=BOOT)
    rating_label = table.evaluate(f"""() => document.querySelector('form[data-calculator="{name}"] [name=rating]').labels[0].textContent.trim()""")
    table.goto(base_url + "table-log/")
    inputs = table.locator(".log-entry .log-inputs").first
    inputs.wait_for()
    said = inputs.text_content()
    assert f"{rating_label}: 7" in said, said
    assert not re.search(r"\b[a-z]+_[a-z_]+\b|=", said), said  # no parameter names, no name=value
    table.locator("#log-game").select_option("rpgdl")
    expect(table.locator(".log-count")).to_have_text("No result from RPGDL TCG; 1 from other games (choose Every game to see them).")
    table.reload()
    expect(table.locator("#log-game")).to_have_value("rpgdl")
    expect(table.locator(".log-count")).to_contain_text("No result from RPGDL TCG")
    assert not table.errors


def test_a_result_link_with_its_own_rulings_says_so_beside_the_form(browser, base_url, pages_of):
    """A link that carries a ruling is not 'the site's rulings'."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(share_url(base_url, pages_of, ATTACK, {k: v for k, v in CONTESTED.items()} | {"both": "count"}))
    form = page.locator(f'form[data-calculator="{ATTACK}"]')
    form.locator("[data-outcome]").wait_for(timeout=BOOT)
    expect(form.locator(".calc-table-line")).to_have_text("This result's own rulings: 1 differs from the site's")
    form.locator("[name=both]").select_option(form.locator("[name=both]").get_attribute("data-default"))
    expect(form.locator(".calc-table-line")).to_have_text("Table settings: the site's rulings")
    context.close()


DECK = "tell_tale.check_deck"
# A 60-card Tell-Tale deck of 2,763 characters, each line tagged as the form's help asks.
LONG_DECK = "\n".join([f"1 Llanowar Wanderer of the Forest number {i} [G]" for i in range(44)]
                      + [f"1 Forest of the Valley number {i} [land G]" for i in range(16)])


def test_a_decklist_check_logs_under_1_kb_and_says_the_list_was_not_kept(page, base_url, pages_of):
    """A check of a 2,644-character list writes under 1 KB to the log, not the list three times (typed, in words,
    in its link: 8.7 KB, so 1.7 MB for 200 entries). The entry keeps the result and the list's size, first line and digest."""
    assert 2500 < len(LONG_DECK) < 3000
    page.goto(base_url + pages_of[DECK])
    form = page.locator(f'form[data-calculator="{DECK}"]')
    form.locator(".calc-status", has_text="Ready").wait_for(timeout=BOOT)
    form.locator("[name=decklist]").fill(LONG_DECK)
    headline = run(DECK, {"decklist": LONG_DECK})["headline"]
    expect(form.locator(".calc-headline")).to_have_text(headline, timeout=BOOT)
    form.locator("[name=decklist]").blur()  # the player moves on: the result is committed to the log
    page.wait_for_function("(key) => (JSON.parse(localStorage.getItem(key) || '[]')).length === 1", arg=storage.LOG, timeout=BOOT, polling=100)
    entry = json.loads(storage.get(page, storage.LOG))[0]
    assert len(json.dumps(entry, ensure_ascii=False).encode()) < 1000, entry
    assert entry["headline"] == headline
    follow(page, base_url + "table-log/")
    expect(page.locator(".log-entry .log-headline")).to_have_text([headline])
    expect(page.locator(".log-entry .log-inputs")).to_contain_text("60 lines, 2,")
    expect(page.locator(".log-entry .log-inputs")).to_contain_text('the first "1 Llanowar Wanderer of the Forest numbe…" (not kept in the log)')


# Log one result at `at` (each tab's clock is the other's: one machine), by the module the page itself uses.
LOG_AT = """async ([at, headline]) => {
    const t = await import(new URL('assets/house-rules.js', document.baseURI.replace(/table-log\\/.*$/, '')).href);
    const entry = {time: new Date(at).toISOString(), calculator: 'tell_tale.resolve_attack', game: 'tell_tale',
                   title: 'Attack roll', inputs: {}, seed: null, outcome: 'miss', headline, url: '/tell-tale/combat/'};
    setTimeout(() => t.logResult(entry), Math.max(0, at - Date.now()));
}"""
# The stored log holds every one of these headlines.
LOGGED_ALL = """([key, headlines]) => {
    const log = JSON.parse(localStorage.getItem(key) || '[]').map((e) => e.headline);
    return headlines.every((h) => log.includes(h));
}"""


def test_two_tabs_logging_at_the_same_instant_keep_both_results(browser, base_url):
    """30 tries: two tabs each log a result at the same instant. Each reads the log, adds its entry and writes it
    back, so the later write can lack the other's entry: the tab whose entry is missing puts it back."""
    context = browser.new_context(**PHONE)
    one, two = context.new_page(), context.new_page()
    for tab in (one, two):
        tab.goto(base_url + "table-log/")
        tab.locator(".log-count").wait_for()
    headlines = []
    for n in range(30):
        at = one.evaluate("Date.now()") + 300
        pair = [f"Miss {n} one", f"Miss {n} two"]
        one.evaluate(LOG_AT, [at, pair[0]])
        two.evaluate(LOG_AT, [at, pair[1]])
        headlines += pair
        for tab in (one, two):
            try:
                tab.wait_for_function(LOGGED_ALL, arg=[storage.LOG, headlines], timeout=10_000, polling=100)
            except PlaywrightTimeout:
                kept = [e["headline"] for e in json.loads(storage.get(tab, storage.LOG))]
                pytest.fail(f"try {n + 1}: lost {sorted(set(headlines) - set(kept))}")
    expect(one.locator(".log-entry")).to_have_count(60)
    context.close()
