"""The RPGDL season tracker in Chromium (docs/rpgdl/season-tracker.md, docs/assets/season.js).

A five-week season played through the page: players with Nom Pools and
Season Decks, every Weekend typed row by row (a roll-off typed, two rolled
by the page), a reload mid-way, an undo, export and import, a link. After
every step the season the page keeps is compared with the one the Python
package makes from the same actions and seeds (calculators.runner.track),
and every number in the standings with Python's.
"""

from __future__ import annotations

import base64
import json
import re
import zlib
from pathlib import Path

import pytest
from playwright.sync_api import expect
from support import storage
from support.helpers import BOOT, PHONE, poll, set_fields
from support.season import DECK, SLOTS, WEEKS, Mirror, mid_season, pool, r
from support.server import BLANK

from calculators.rpgdl.league import VERSION

pytestmark = pytest.mark.browser

PAGE = "rpgdl/season-tracker/"
STORE = storage.SEASON
# Where a Weekend's answer shows: the week just entered under its own heading ("Week 1: the result"), a refusal
# under the form's ("Week 1: the Weekend").
WEEK_ANSWERS = ".season-section:is([data-section=result], [data-section=week]) .season-answer"



def open_tracker(page, base_url, url=None):
    if page.url.split("#")[0] == (url or base_url + PAGE).split("#")[0]:
        page.goto("about:blank")  # a new load, not a hash change (that path has a test of its own)
    page.goto(url or base_url + PAGE)
    page.locator(".season[data-loaded]").wait_for(timeout=BOOT)
    return page.locator(".season")


def stored(page):
    return json.loads(page.evaluate(f"localStorage.getItem({STORE!r})"))


def wait_answer(area, before: str = ""):
    """The answer area's new words (its headline or its error)."""
    area.locator(".calc-headline, .calc-error").first.wait_for(timeout=BOOT)
    return area.inner_text()


def act(page, area_selector, click):
    area = page.locator(area_selector)
    page.evaluate(f"document.querySelectorAll({area_selector!r}).forEach((a) => a.replaceChildren())")
    click()
    area.locator(".calc-headline, .calc-error").first.wait_for(timeout=BOOT)
    return area


def save_player(page, who, name, nom_pool, deck):
    form = page.locator(f'form.season-player[data-player="{who}"]')
    form.locator("[name=name]").fill(name)
    form.locator("[name=nom_pool]").fill(nom_pool)
    form.locator("[name=season_deck]").fill(deck)
    return act(page, f'form.season-player[data-player="{who}"] .season-answer', lambda: form.get_by_role("button", name="Save").click())


def enter_week(page, week, typed=False):
    """Enter the week's line-ups and press Enter. `typed`: field by field
    through Playwright, as a player types; else every field is set in one
    call, each with its input event (helpers.set_fields: 49 fills are 49
    round trips, seconds a week on a loaded machine)."""
    first, second, rolls = WEEKS[week]
    form = page.locator("form.season-form")
    values = {f"{slot}_{who}_{key}": value
              for who, line in (("first", first), ("second", second)) for slot, row in zip(SLOTS, line) for key, value in row.items()}
    if typed:
        for name, value in values.items():
            control = form.locator(f'[name="{name}"]')
            if name.endswith("_division"):
                control.select_option(value)
            else:
                control.fill(value)
        form.locator("[name=rolls]").fill(rolls or "")
    else:
        set_fields(form, {**values, "rolls": rolls or ""})
    area = act(page, WEEK_ANSWERS, lambda: form.locator("[data-action=weekend]").click())
    text = " ".join(area.all_inner_texts())
    seed = re.search(r"\(seed (\d+)\)", text)
    action = {"do": "weekend", "week": week, "first": first, "second": second}
    if rolls:
        action["rolls"] = rolls
    return action, (int(seed.group(1)) if seed else None), text


def check_numbers(page, state):
    """Every number of the standings and divisions tables is Python's."""
    rows = page.locator(".season-standings tbody tr")
    expect(rows).to_have_count(len(state["standings"]))
    for i, s in enumerate(state["standings"]):
        for key in ("first_successes", "second_successes", "first_trainwrecks", "second_trainwrecks"):
            expect(rows.nth(i).locator(f'[data-key="{key}"]'), (i, key)).to_have_text(str(s[key]), use_inner_text=True)
    for who in ("first", "second"):
        for d in SLOTS:
            cell = page.locator(f'.season-divisions [data-key="{who}_{d}"]').inner_text()
            left = sum(1 for e in state["players"][who]["nom_pool"] if e["division"] == d and e["discarded"] is None)
            out = state["run_out"][who].get(d)
            assert cell == (f"{left} left" if out is None else f"run out (week {out})" if out else "none in the Nom Pool")
    expect(page.locator(".season-headline")).to_have_text(re.compile(re.escape(state["result"]["headline"]) + "$"), use_inner_text=True)


@pytest.fixture
def phone(browser):
    """A phone, no service worker: its copy of the whole site and the runtime
    only takes time here (the offline test has its own context)."""
    context = browser.new_context(**PHONE)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and page.errors.append(m.text))
    yield page
    context.close()


def test_a_five_week_season_matches_the_python_package(phone, base_url, browser, tmp_path):
    page = phone
    open_tracker(page, base_url)
    mirror = Mirror()
    assert stored(page) == mirror.state  # a new season, the site's rulings (no table settings on this device)

    for who, name, prefix in (("first", "Ana", "A"), ("second", "Ben", "B")):
        area = save_player(page, who, name, pool(prefix), DECK)
        mirror.step({"do": "player", "player": who, "name": name, "nom_pool": pool(prefix), "season_deck": DECK})
        assert stored(page) == mirror.state
        expect(area).to_contain_text("Nom Pool: 20 duelists (5 Godlike, 5 Heavy, 5 Middle, 5 Light), legal.", use_inner_text=True)

    for week in (1, 2, 3):
        action, seed, text = enter_week(page, week, typed=week == 1)  # one week typed field by field
        answer = mirror.step(action, seed)
        assert stored(page) == mirror.state, week
        assert answer["headline"] in text
        check_numbers(page, mirror.state)
    assert mirror.state["weeks"][1]["duels"][0]["roll"] == [2, 5]
    assert [d["roll"] is not None for d in mirror.state["weeks"][2]["duels"]] == [True, True, False, False]

    # Reload mid-way: the season is still there, drawn the same.
    page.reload()
    page.locator(".season[data-loaded]").wait_for(timeout=BOOT)
    assert stored(page) == mirror.state
    check_numbers(page, mirror.state)
    expect(page.locator("form.season-form [data-action=weekend]")).to_have_text("Enter week 4", use_inner_text=True)

    # Week 4, then undo: exactly the season after week 3 again.
    after_three = json.loads(json.dumps(mirror.state))
    action, seed, _ = enter_week(page, 4)
    mirror.step(action, seed)
    assert stored(page) == mirror.state
    act(page, ".season-log .season-answer, .season-section[data-section=log] .season-answer",
        lambda: page.locator(".season-section[data-section=log] [data-action=undo]").click())
    mirror.step({"do": "undo"})
    assert stored(page) == mirror.state and {**mirror.state, "redo": []} == after_three  # and week 4 kept for Redo
    check_numbers(page, mirror.state)
    WEEKS[4][0][0]["worth"] = "5"  # typed again with the Godlike Worth corrected
    try:
        for week in (4, 5):
            action, seed, _ = enter_week(page, week)
            mirror.step(action, seed)
            assert stored(page) == mirror.state
            check_numbers(page, mirror.state)
    finally:
        WEEKS[4][0][0]["worth"] = "7"
    assert mirror.state["result"]["over"]
    expect(page.locator("form.season-form")).to_be_hidden()
    expect(page.locator(".season")).to_have_attribute("data-outcome", mirror.state["result"]["outcome"])
    # The log cites its rules as links.
    expect(page.locator('.season-log a[href*="rpgdl.weekend.order"]')).to_have_count(5)

    # Export: the file is the season.
    with page.expect_download() as download:
        page.get_by_role("button", name="Export as a file").click()
    exported = json.loads(download.value.path().read_text())
    assert exported == mirror.state

    # Import on another device (a fresh context): the same season.
    other = browser.new_context(**PHONE)
    try:
        second = other.new_page()
        open_tracker(second, base_url)
        second.locator("[data-keep=paste]").fill(json.dumps(exported))
        second.get_by_role("button", name="Open the pasted season").click()
        expect(second.locator(".tracker-notice")).to_contain_text("Opened:", timeout=BOOT)
        assert stored(second) == mirror.state
        check_numbers(second, mirror.state)
    finally:
        other.close()

    # Share by link: opened on an empty device, the season is there at once.
    page.get_by_role("button", name="Share as a link").click()
    expect(page.locator("[data-keep=keep-status]")).to_contain_text("The link is copied", timeout=BOOT)
    link = page.evaluate("navigator.clipboard.readText()")
    assert "#season=" in link and len(link) < 8000
    code = link.split("#season=", 1)[1]
    carried = json.loads(zlib.decompress(base64.urlsafe_b64decode(code + "=" * (-len(code) % 4)), -15))
    assert carried == {"tracker": "rpgdl.season", "version": VERSION, "log": [{"action": e["action"]} for e in mirror.state["log"]]}
    other = browser.new_context(**PHONE)
    try:
        third = other.new_page()
        open_tracker(third, base_url, link)
        assert stored(third) == mirror.state
        check_numbers(third, mirror.state)
        assert "#season=" not in third.url
    finally:
        other.close()
    assert page.errors == []


def test_a_link_asks_before_it_replaces_a_season_and_the_old_one_comes_back(phone, base_url):
    page = phone
    open_tracker(page, base_url)
    mine = Mirror()
    save_player(page, "first", "Mine", pool("A"), DECK)
    mine.step({"do": "player", "player": "first", "name": "Mine", "nom_pool": pool("A"), "season_deck": DECK})
    theirs = Mirror()
    theirs.step({"do": "player", "player": "first", "name": "Theirs"})
    raw = json.dumps({"tracker": "rpgdl.season", "version": 1, "log": [{"action": e["action"]} for e in theirs.state["log"]]})
    code = base64.urlsafe_b64encode(zlib.compress(raw.encode(), 9)[2:-4]).decode().rstrip("=")
    open_tracker(page, base_url, f"{base_url}{PAGE}#season={code}")
    ask = page.get_by_role("alertdialog")
    expect(ask).to_contain_text("Theirs against Second player", use_inner_text=True)
    assert stored(page) == mine.state  # nothing replaced before the answer
    page.get_by_role("button", name="Open the shared season").click()
    poll(page, f"() => JSON.parse(localStorage.getItem({STORE!r})).players.first.name === 'Theirs'")
    assert stored(page) == theirs.state
    page.get_by_role("button", name="Bring back the season you had before").click()
    expect(page.locator(".tracker-notice")).to_contain_text("The season you had is back", timeout=BOOT)
    assert stored(page) == mine.state
    assert page.errors == []


# Hostile seasons, each with the words that refuse it: a season whose
# figures do not match its log, another tracker's save, a name past the
# limit that is markup too, nesting far too deep, and text that is not JSON.
HOSTILE = [
    (lambda s: {**s, "standings": [{**s["standings"][0], "first_successes": 40}]}, "does not match its own log: standings/0/first_successes is 40"),
    (lambda s: {**s, "tracker": "tell_tale.encounter"}, "This is not a saved RPGDL season"),
    (lambda s: {**s, "log": [{"action": {"do": "player", "player": "first", "name": "<img src=x onerror=alert(1)>" * 3}}]}, "the limit is 40"),
    (lambda s: "[" * 50_000, "nested too deep"),
    (lambda s: "not json", "it is not JSON"),
]


def test_hostile_state_is_refused_in_words_and_nothing_saved_is_lost(phone, base_url):
    """Each hostile season in turn, pasted and (where it is JSON) by link,
    over one saved season: each is refused in its words, the saved season
    is the same after each, and no markup of it is drawn."""
    page = phone
    open_tracker(page, base_url)
    save_player(page, "first", "Keeper", pool("A"), DECK)
    mirror = Mirror()
    mirror.step({"do": "player", "player": "first", "name": "Keeper"})  # a season to spoil (no Nom Pool: slots may stay empty)
    mirror.step({"do": "weekend", "first": [r("AG1", "godlike", 9, 3), None, None, None], "second": [r("BG1", "godlike", 8, 3), None, None, None]})
    before = stored(page)
    for change, words in HOSTILE:
        bad = change(mirror.state)
        text = bad if isinstance(bad, str) else json.dumps(bad)
        page.locator("[data-keep=paste]").fill(text)
        page.get_by_role("button", name="Open the pasted season").click()
        line = page.locator("[data-keep=keep-status]")
        expect(line).to_contain_text(words, timeout=BOOT)  # this case's own words: never the case before's
        expect(line).to_contain_text("was not opened")
        assert stored(page) == before
        expect(page.locator("img").filter(has=page.locator("[onerror]"))).to_have_count(0)
        # The same by link: refused in words, the saved season untouched.
        if not isinstance(bad, str):
            code = base64.urlsafe_b64encode(zlib.compress(text.encode(), 9)[2:-4]).decode().rstrip("=")
            open_tracker(page, base_url, f"{base_url}{PAGE}#season={code}")
            expect(page.locator(".season .tracker-notice")).to_contain_text(words, use_inner_text=True)
            assert stored(page) == before
    assert page.errors == []


def test_a_broken_link_is_refused_in_words(phone, base_url):
    open_tracker(phone, base_url, f"{base_url}{PAGE}#season=!!!not-a-season")
    expect(phone.locator(".season .tracker-notice")).to_contain_text("The shared season in this link cannot be opened: the link's season was cut short or changed", use_inner_text=True)
    open_tracker(phone, base_url, f"{base_url}{PAGE}#season=AAAA")
    expect(phone.locator(".season .tracker-notice")).to_contain_text("cannot be opened", use_inner_text=True)


def test_an_error_sits_beside_its_field(phone, base_url):
    page = phone
    open_tracker(page, base_url)
    save_player(page, "first", "Ana", pool("A"), DECK)
    first, second, _ = WEEKS[1]
    form = page.locator("form.season-form")
    set_fields(form, {f"{slot}_{who}_{key}": value
                      for who, line in (("first", [r("Zed", "godlike", 9, 3), *first[1:]]), ("second", second))
                      for slot, row in zip(SLOTS, line) for key, value in row.items()})
    act(page, ".season-section[data-section=week] .season-answer", lambda: form.locator("[data-action=weekend]").click())
    field = form.locator('[name="godlike_first_name"]')
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(page.locator(f"#{field.get_attribute('id')}-error")).to_have_text("Zed is not in Ana's Nom Pool.", use_inner_text=True)
    assert stored(page)["weeks"] == []


def test_a_new_season_takes_the_tables_rulings(browser, base_url):
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.goto(base_url + BLANK)
        storage.put(page, storage.SETTINGS, json.dumps({"rpgdl.half_draw": "exactly", "rpgdl.trainwreck_limit": "4"}))
        open_tracker(page, base_url)
        poll(page, f"() => JSON.parse(localStorage.getItem({STORE!r}) || '{{}}').log?.length === 1")
        state = stored(page)
        assert state["settings"]["half_draw"] == "exactly" and state["settings"]["trainwreck_limit"] == 4
        assert state["log"][0]["action"] == {"do": "settings", "settings": {"trainwreck_limit": 4, "half_draw": "exactly"}}
        expect(page.locator("form.season-settings [name=half_draw]")).to_have_value("exactly")
    finally:
        context.close()


def test_a_link_opened_on_the_page_itself_is_read(phone, base_url):
    """Only the hash changes when a season link is opened where the tracker already is."""
    page = phone
    open_tracker(page, base_url)
    theirs = Mirror()
    theirs.step({"do": "player", "player": "second", "name": "Linked"})
    raw = json.dumps({"tracker": "rpgdl.season", "version": 1, "log": [{"action": e["action"]} for e in theirs.state["log"]]})
    code = base64.urlsafe_b64encode(zlib.compress(raw.encode(), 9)[2:-4]).decode().rstrip("=")
    page.evaluate(f"location.hash = 'season={code}'")
    poll(page, f"() => JSON.parse(localStorage.getItem({STORE!r})).players.second.name === 'Linked'")
    assert stored(page) == theirs.state


# ---------------------------------------------------------------- on a phone: axe, touch targets, no sideways scroll

AXE = Path(__file__).resolve().parent.parent / "node_modules" / "axe-core" / "axe.min.js"



@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_mid_season_on_a_phone_is_accessible_and_fits(browser, base_url, scheme):
    context = browser.new_context(**PHONE, color_scheme=scheme, bypass_csp=True)  # axe goes in as an inline script
    try:
        page = context.new_page()
        page.goto(base_url + BLANK)
        storage.put(page, STORE, mid_season())
        open_tracker(page, base_url)
        for fold in page.locator(".season details").all():
            fold.evaluate("d => { d.open = true; }")
        # An answer and an error on show, as at the table.
        form = page.locator("form.season-form")
        form.locator('[name="godlike_first_name"]').fill("Nobody")
        act(page, ".season-section[data-section=week] .season-answer", lambda: form.locator("[data-action=weekend]").click())
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
        found = page.evaluate("""async () => {
            const r = await axe.run(document.querySelector('.season'), {resultTypes: ["violations"]});
            return r.violations.map((v) => `${v.id} (${v.nodes.length}): ${v.nodes[0].target.join(" ")}`);
        }""")
        assert found == []
        small = page.evaluate("""() => [...document.querySelectorAll('.season :is(button, input, select, textarea, summary)')]
            .filter((e) => e.offsetParent && e.type !== 'hidden')
            .map((e) => [e.name || e.textContent.trim().slice(0, 30), e.getBoundingClientRect().height])
            .filter(([, h]) => h < 44)""")
        assert small == []
        unlabelled = page.evaluate("""() => [...document.querySelectorAll('.season :is(input, select, textarea)')]
            .filter((e) => !e.labels.length && !e.getAttribute('aria-labelledby')).map((e) => e.name)""")
        assert unlabelled == []
        ids = page.evaluate("() => [...document.querySelectorAll('.season [id]')].map((e) => e.id)")
        assert len(ids) == len(set(ids)), "ids are unique"
    finally:
        context.close()


def test_the_season_works_offline_after_one_visit(browser, site, base_url):
    """A first visit to the tracker alone keeps the runtime: offline, the season reloads and a Weekend goes in."""
    from support.helpers import wait_until_offline_ready, worker_data

    context = browser.new_context(service_workers="allow", **PHONE)
    try:
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        open_tracker(page, base_url)
        save_player(page, "first", "Offline", pool("A"), DECK)
        wait_until_offline_ready(page, worker_data(site))
        context.set_offline(True)
        page.reload()
        page.locator(".season[data-loaded]").wait_for(timeout=BOOT)
        assert stored(page)["players"]["first"]["name"] == "Offline"
        action, seed, text = enter_week(page, 1)
        assert "Week 1: Offline takes the Weekend" in text
        mirror = Mirror()
        mirror.step({"do": "player", "player": "first", "name": "Offline", "nom_pool": pool("A"), "season_deck": DECK})
        mirror.step(action, seed)
        assert stored(page) == mirror.state and page.errors == []
    finally:
        context.close()


# ---------------------------------------------------------------- a Weekend at the table: taps and scrolling


def test_a_weekend_where_little_changed_takes_a_few_taps(browser, base_url):
    """The next Weekend comes filled in from the last one (every duelist still in the Roster in its slot
    with its last Worth and Draw, a lost duelist's slot with the next of its division), so a week where only the
    votes change is a few taps at 360x740; Enter stays in reach at the bottom of the screen."""
    mirror = Mirror()
    mirror.step({"do": "settings", "settings": {"sudden_death": "no-winner"}})
    for who, name, prefix in (("first", "Ana", "A"), ("second", "Ben", "B")):
        mirror.step({"do": "player", "player": who, "name": name, "nom_pool": pool(prefix)})
    # Week 1: the Godlike and Heavy duels tied (nobody wins, both return); Ana wins the Middle, Ben the Light.
    week1 = {"first": [r("AG1", "godlike", 8, 3), r("AH1", "heavy", 6, 3), r("AM1", "middle", 6, 2), r("AL1", "light", 2, 2)],
             "second": [r("BG1", "godlike", 8, 3), r("BH1", "heavy", 6, 3), r("BM1", "middle", 5, 2), r("BL1", "light", 4, 2)]}
    mirror.step({"do": "weekend", "week": 1, **week1})
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.goto(base_url + BLANK)
        storage.put(page, STORE, json.dumps(mirror.state))
        open_tracker(page, base_url)
        expect(page.locator(".season .tracker-status")).to_contain_text("1 of 5 weeks played", use_inner_text=True)
        form = page.locator("form.season-form")
        carried = {who: [{k: form.locator(f'[name="{slot}_{who}_{k}"]').input_value() for k in ("name", "division", "worth", "draw", "votes")}
                         for slot in SLOTS] for who in ("first", "second")}
        # Winners and the tied stay with their Worth and Draw; the Light and Middle losers' slots take the next of the
        # Nom Pool, whose Worth and Draw are not known yet; no votes.
        assert carried["first"] == [{"name": "AG1", "division": "godlike", "worth": "8", "draw": "3", "votes": ""},
                                    {"name": "AH1", "division": "heavy", "worth": "6", "draw": "3", "votes": ""},
                                    {"name": "AM1", "division": "middle", "worth": "6", "draw": "2", "votes": ""},
                                    {"name": "AL2", "division": "light", "worth": "", "draw": "", "votes": ""}]
        assert carried["second"][2] == {"name": "BM2", "division": "middle", "worth": "", "draw": "", "votes": ""}
        assert carried["second"][3] == {"name": "BL1", "division": "light", "worth": "4", "draw": "2", "votes": ""}
        # Enter is on screen with the form's top, before any scrolling.
        enter = form.locator("[data-action=weekend]")
        assert enter.evaluate("e => e.getBoundingClientRect().bottom <= innerHeight")

        taps = []

        def tap(locator, text=None):
            locator.tap()
            taps.append(locator)
            if text is not None:
                page.keyboard.type(text)

        # The week: the two new duelists' Worth and Draw, two votes on Ana's Godlike, then Enter.
        for name, value in (("light_first_worth", "3"), ("light_first_draw", "2"), ("middle_second_worth", "5"),
                            ("middle_second_draw", "1"), ("godlike_first_votes", "2")):
            tap(form.locator(f'[name="{name}"]'), value)
        area = page.locator(WEEK_ANSWERS)
        page.evaluate(f"document.querySelectorAll({WEEK_ANSWERS!r}).forEach((a) => a.replaceChildren())")
        tap(enter)
        area.locator(".calc-headline, .calc-error").first.wait_for(timeout=BOOT)
        assert len(taps) == 6 < 10
        week2 = {"first": [r("AG1", "godlike", 8, 3, 2), r("AH1", "heavy", 6, 3), r("AM1", "middle", 6, 2), r("AL2", "light", 3, 2)],
                 "second": [r("BG1", "godlike", 8, 3), r("BH1", "heavy", 6, 3), r("BM2", "middle", 5, 1), r("BL1", "light", 4, 2)],
                 "vote_pools": {"first": "10", "second": "10"}}
        mirror.step({"do": "weekend", "week": 2, **week2})
        assert stored(page) == mirror.state
        expect(page.locator(".season .tracker-status")).to_contain_text("2 of 5 weeks played", use_inner_text=True)
        assert page.locator(".season").evaluate("e => e.getBoundingClientRect().top + scrollY") < 500  # the tracker first
    finally:
        context.close()


# ---------------------------------------------------------------- at the table, round three


def season_after(weeks, names=("Ana", "Benedetta"), goal=None) -> Mirror:
    """A season as Python makes it: settings, the two players with Nom Pools, then `weeks` of WEEKS."""
    mirror = Mirror()
    if goal:
        mirror.step({"do": "settings", "settings": {"goal": goal}})
    for who, name, prefix in zip(("first", "second"), names, ("A", "B")):
        mirror.step({"do": "player", "player": who, "nom_pool": pool(prefix), "season_deck": DECK, **({"name": name} if name else {})})
    for week in weeks:
        first, second, rolls = WEEKS[week]
        mirror.step({"do": "weekend", "week": week, "first": first, "second": second, **({"rolls": rolls} if rolls else {})})
    return mirror


def open_saved(page, base_url, mirror):
    page.goto(base_url + BLANK)
    page.evaluate(f"s => localStorage.setItem({STORE!r}, s)", json.dumps(mirror.state))
    return open_tracker(page, base_url)


def heading_over(page, text):
    """The heading of the section of the tracker in which `text` shows."""
    return page.evaluate("""text => {
        const found = [...document.querySelectorAll('.season .season-answer')].find((a) => a.innerText.includes(text));
        return found ? found.closest('section').querySelector('h2').textContent : null;
    }""", text)


def test_each_weeks_result_shows_under_its_own_week(phone, base_url):
    """The week just entered has a heading of its own above the next week's form; a refusal, or the week undone, shows under the
    form's heading, whose week it is about."""
    page = phone
    mirror = season_after([])
    open_saved(page, base_url, mirror)
    action, seed, _text = enter_week(page, 1)
    answer = mirror.step(action, seed)
    assert stored(page) == mirror.state
    assert heading_over(page, answer["headline"]) == "Week 1: the result"
    expect(page.locator(".season-section[data-section=week] h2")).to_have_text("Week 2: the Weekend", use_inner_text=True)
    expect(page.locator(".season-section[data-section=week] .season-answer")).to_have_text("", use_inner_text=True)
    # The result comes before the next week's form, so the eye meets them in that order.
    assert page.evaluate("""() => {
        const [result, week] = ['result', 'week'].map((k) => document.querySelector(`.season-section[data-section=${k}]`));
        return result.compareDocumentPosition(week) & Node.DOCUMENT_POSITION_FOLLOWING;
    }""")

    # A refusal of week 2 is week 2's: under the form's heading; week 1's result stays under its own.
    form = page.locator("form.season-form")
    form.locator('[name="godlike_first_name"]').fill("Nobody")
    act(page, ".season-section[data-section=week] .season-answer", lambda: form.locator("[data-action=weekend]").click())
    assert heading_over(page, "Nobody") == "Week 2: the Weekend"
    assert heading_over(page, answer["headline"]) == "Week 1: the result"

    # Undo week 1: the form is week 1's again, the undo said under its heading, and week 1's result is gone.
    act(page, ".season-section[data-section=week] .season-answer", lambda: page.get_by_role("button", name="Undo week 1").click())
    expect(page.locator(".season-section[data-section=week] h2")).to_have_text("Week 1: the Weekend", use_inner_text=True)
    assert heading_over(page, "Undone: Week 1") == "Week 1: the Weekend"
    expect(page.locator(".season-section[data-section=result]")).to_be_hidden()
    assert stored(page)["weeks"] == [] and page.errors == []


@pytest.mark.parametrize("goal", ["successes", "championship"])
def test_the_standings_show_each_name_whole_on_a_phone(browser, base_url, goal):
    """At 360 px each name heads its player's columns whole (not "First p…", "Secon…"), wrapping where it must, and no heading or number of either table is cut or spills
    out of its cell, the Championship's three columns a player included."""
    names = ("Maximiliana Wolkenstein-Trostberg", None)  # the second keeps the name a season starts with
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        open_saved(page, base_url, season_after([1, 2], names=names, goal=goal))
        shown = page.evaluate("""() => [...document.querySelectorAll('.season :is(.season-standings, .season-divisions) :is(th, td)')]
            .map((c) => ({text: c.textContent, cut: c.scrollWidth > c.clientWidth || getComputedStyle(c).textOverflow === 'ellipsis',
                          name: c.classList.contains('season-name'), inside: c.getBoundingClientRect().right <= innerWidth}))""")
        assert {c["text"] for c in shown if c["name"]} == {"Maximiliana Wolkenstein-Trostberg", "Second player"}
        assert [c["text"] for c in shown if c["cut"] or not c["inside"]] == []
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        # The standings name each player once, over that player's columns; every count is Python's.
        heads = page.locator(".season-standings thead tr").first.locator("th.season-name")
        expect(heads).to_have_text(["Maximiliana Wolkenstein-Trostberg", "Second player"], use_inner_text=True)
        expect(heads.first).to_have_attribute("colspan", "3" if goal == "championship" else "2")
    finally:
        context.close()


def test_a_roll_off_left_empty_is_rolled_and_said_in_words(phone, base_url):
    """An empty roll-off field is rolled by the page, and the result says so, for
    which duel, and what came up for each player, as the season keeps it."""
    page = phone
    mirror = season_after([1, 2])
    open_saved(page, base_url, mirror)
    action, seed, _text = enter_week(page, 3)  # two tied duels, the roll-off field left empty
    mirror.step(action, seed)
    assert stored(page) == mirror.state
    godlike, heavy = (d["roll"] for d in mirror.state["weeks"][2]["duels"][:2])
    said = page.locator(".season-section[data-section=result] .season-rolled")
    expect(said).to_have_text(f"Rolled for you, as the roll-off field was empty: Godlike duel: Ana {godlike[0]}, Benedetta {godlike[1]}; "
                              f"Heavy duel: Ana {heavy[0]}, Benedetta {heavy[1]} (seed {seed}).", use_inner_text=True)
    # Typed roll-offs are the player's own: nothing is said to be rolled.
    act(page, ".season-section[data-section=week] .season-answer", lambda: page.get_by_role("button", name="Undo week 3").click())
    WEEKS[3] = (*WEEKS[3][:2], "4 6 1 3")
    try:
        enter_week(page, 3)
    finally:
        WEEKS[3] = (*WEEKS[3][:2], None)
    expect(page.locator(".season-section[data-section=result] .season-rolled")).to_have_count(0)
    assert page.errors == []
