"""What the trackers keep on the device survives the evening.

The encounter and the season are a group's evening, kept in localStorage.
Each test here is a way an evening was lost without a word on main at
5264891, replayed in Chromium:

- a control used in the second after a reload, before the saved state is read;
- a calculator that cannot start (the wasm blocked);
- storage with a few KB free when a fight or a season is replaced;
- two tabs of the same tracker, each changing it;
- another tab writing a value the page cannot read;
- an import file far too big to be a tracker's state.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect
from support import storage
from support.encounter import ADD
from support.helpers import BOOT, PHONE
from support.server import BLANK
from support.trackers import FILL, paste

from calculators import runner

pytestmark = pytest.mark.browser

TRACKERS = {
    "encounter": {"page": "tell-tale/encounter/", "key": storage.ENCOUNTER, "name": "tell_tale.encounter",
                  "ready": ".tracker-status:has-text('Ready')"},
    "season": {"page": "rpgdl/season-tracker/", "key": storage.SEASON, "name": "rpgdl.season",
               "ready": ".season[data-loaded=true]"},
}
SLOTS = ("godlike", "heavy", "middle", "light")


def made(name: str, actions: list[dict]) -> str:
    """The state text the Python package makes from these actions."""
    state = ""
    for action in actions:
        answer = runner.track(name, state, json.dumps(action), 1)
        assert answer["ok"], answer
        state = json.dumps(answer["state"])
    return state


def pool(prefix: str) -> str:
    return "\n".join(f"{prefix}{d[0].upper()}{i}, {d.capitalize()}" for d in SLOTS for i in range(1, 6))


FIGHT = made("tell_tale.encounter", ADD + [{**a, "name": a["name"] + " twin"} for a in ADD[:2]])  # six combatants
OLDER_FIGHT = made("tell_tale.encounter", ADD[:2])  # the one put aside before
SMALL_FIGHT = made("tell_tale.encounter", [{"do": "add", "name": "Zed", "kind": "npc", "power": 1, "toughness": 1, "vitality": 3}])
SEASON = made("rpgdl.season", [
    {"do": "player", "player": "first", "name": "Ana", "nom_pool": pool("A")},
    {"do": "player", "player": "second", "name": "Ben", "nom_pool": pool("B")},
])
OLDER_SEASON = made("rpgdl.season", [{"do": "player", "player": "first", "name": "Cleo"}])
SMALL_SEASON = made("rpgdl.season", [{"do": "player", "player": "first", "name": "Zoe"}])
SAVED = {"encounter": (FIGHT, OLDER_FIGHT, SMALL_FIGHT), "season": (SEASON, OLDER_SEASON, SMALL_SEASON)}


@pytest.fixture
def phone(browser):
    context = browser.new_context(**PHONE, service_workers="block")  # routes must see every request
    yield context
    context.close()


def new_page(context):
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def open_with(page, base_url, tracker, saved, aside=None):
    """Open the tracker's page with `saved` (and `aside`, the copy put aside) in storage, and wait till it is read."""
    t = TRACKERS[tracker]
    page.goto(base_url + BLANK)
    storage.put(page, t["key"], saved)
    storage.put(page, t["key"] + storage.ASIDE, aside)
    page.goto(base_url + t["page"])
    page.locator(t["ready"]).wait_for(timeout=BOOT)


# ---------------------------------------------------------------- the second after a reload


@pytest.mark.parametrize("tracker", TRACKERS)
def test_no_control_acts_on_the_saved_state_before_it_is_read(phone, base_url, tracker):
    """Held at the worker's start, the page shows that it is loading and no control changes storage."""
    t = TRACKERS[tracker]
    saved = SAVED[tracker][0]
    page = new_page(phone)
    open_with(page, base_url, tracker, saved)
    held = []
    phone.route("**/calc-worker.mjs", lambda route: held.append(route))
    page.reload(wait_until="domcontentloaded")
    page.wait_for_function("() => document.querySelector('[data-tracker]')?.children.length > 0", timeout=BOOT)
    expect(page.locator(".tracker-status")).to_contain_text("Loading your", timeout=BOOT)
    # A player's taps in that second: every button of the tracker, pressed the way a finger would (even hidden ones).
    if tracker == "encounter":
        page.evaluate("""() => {
          const name = document.querySelector('#enc-add-name'); if (name) name.value = 'Newcomer';
          for (const b of document.querySelectorAll('.encounter button')) b.click(); }""")
        expect(page.locator("#enc-add-name")).to_be_hidden()
    else:
        page.evaluate("""() => {
          const f = document.querySelector('form.season-form');
          if (f) { f.elements['godlike_first_name'].value = 'AG1'; f.elements['godlike_first_worth'].value = '9'; f.elements['godlike_first_draw'].value = '3'; }
          for (const b of document.querySelectorAll('.season button')) b.click(); }""")
        expect(page.locator("form.season-form")).to_be_hidden()
    assert held, "the worker was not held"
    for route in held:
        route.continue_()
    phone.unroute("**/calc-worker.mjs")
    page.locator(t["ready"]).wait_for(timeout=BOOT)
    assert storage.get(page, t["key"]) == saved
    assert not page.errors


# ---------------------------------------------------------------- a calculator that cannot start


@pytest.mark.parametrize("tracker", TRACKERS)
def test_a_failed_start_changes_nothing_in_storage(phone, base_url, tracker):
    t = TRACKERS[tracker]
    saved, older, _ = SAVED[tracker]
    page = new_page(phone)
    open_with(page, base_url, tracker, saved, older)
    phone.route("**/pyodide.asm.wasm*", lambda route: route.abort())  # the file and its .zst
    page.reload()
    expect(page.locator("[data-tracker]")).to_contain_text("could not start", timeout=BOOT)
    # (on 5264891 the copy put aside was overwritten in the same task that said so)
    assert storage.get(page, t["key"]) == saved
    assert storage.get(page, t["key"] + storage.ASIDE) == older
    text = page.locator(".tracker-status.calc-failed").text_content()
    assert "still saved on this device, unchanged" in text, text
    expect(page.locator("[data-tracker]")).not_to_contain_text("cannot be read", use_inner_text=True)  # the saved state is not blamed
    # What is saved can still be taken away, as it is.
    with page.expect_download() as download:
        page.get_by_role("button", name="Download what is saved", exact=False).click()
    assert Path(download.value.path()).read_text(encoding="utf-8") == saved


# ---------------------------------------------------------------- storage nearly full

@pytest.mark.parametrize("tracker", TRACKERS)
def test_with_storage_nearly_full_nothing_is_replaced_and_the_page_says_so(phone, base_url, tracker):
    """2,000 characters free: putting the saved state aside in place of the older copy takes more, so the
    smaller state offered (which alone would fit in place of the saved one) is refused in words."""
    t = TRACKERS[tracker]
    saved, older, small = SAVED[tracker]
    assert len(saved) - len(older) > 2000 + 500 and len(small) < len(saved), "the test's states must straddle the free room"
    page = new_page(phone)
    open_with(page, base_url, tracker, saved, older)
    page.evaluate(FILL, 2000)
    answer = paste(page, small)
    expect(answer).to_contain_text("no room on this device", timeout=BOOT)
    expect(answer).to_contain_text("nothing", timeout=BOOT)
    assert storage.get(page, t["key"]) == saved
    assert storage.get(page, t["key"] + storage.ASIDE) == older
    # The page says how much is kept, and that the storage nears what a browser keeps.
    size_line = page.locator("[data-keep=stored-size]")
    expect(size_line).to_contain_text("nearly full")
    page.evaluate("() => Object.keys(localStorage).filter((k) => k.startsWith('junk-')).forEach((k) => localStorage.removeItem(k))")
    # With room again the same paste is opened, and what was saved is put aside (never claimed when not written).
    answer = paste(page, small)
    expect(answer).to_contain_text("Opened", timeout=BOOT)
    assert storage.get(page, t["key"] + storage.ASIDE) == saved
    assert json.loads(storage.get(page, t["key"])) == json.loads(small)
    assert not page.errors


# ---------------------------------------------------------------- two tabs


def add_combatant(page, name):
    page.fill("#enc-add-name", name)
    for key, value in (("power", 2), ("toughness", 2), ("vitality", 8)):
        page.fill(f"#enc-add-{key}", str(value))
    page.click("[data-enc=add]")


def names(page, key):
    text = storage.get(page, key)
    return [c["name"] for c in json.loads(text)["combatants"]] if text else []


def two_tabs(context, base_url, tracker, saved):
    """Two tabs of the tracker's page, both past reading `saved`."""
    one, two = new_page(context), new_page(context)
    open_with(one, base_url, tracker, saved)
    two.goto(base_url + TRACKERS[tracker]["page"])
    two.locator(TRACKERS[tracker]["ready"]).wait_for(timeout=BOOT)
    return one, two


def test_two_tabs_each_see_the_other_and_nothing_is_written_over(phone, base_url):
    t = TRACKERS["encounter"]
    one, two = two_tabs(phone, base_url, "encounter", None)
    add_combatant(one, "Alice")
    one.wait_for_function("(key) => localStorage.getItem(key)?.includes('Alice')", arg=t["key"], timeout=BOOT)
    # The other tab shows the newer fight and says why.
    expect(two.locator(".tracker-notice")).to_contain_text("changed in another tab", timeout=BOOT)
    expect(two.locator(".enc-card", has_text="Alice")).to_have_count(1)
    add_combatant(two, "Bob")
    two.wait_for_function("(key) => localStorage.getItem(key)?.includes('Bob')", arg=t["key"], timeout=BOOT)
    assert names(two, t["key"]) == ["Alice", "Bob"]
    expect(one.locator(".enc-card", has_text="Bob")).to_have_count(1, timeout=BOOT)
    assert not one.errors and not two.errors


def test_a_change_that_meets_another_tabs_asks_which_goes_on(phone, base_url):
    """Another tab's save that this tab has not heard of yet (a write its own storage event never reports)."""
    t = TRACKERS["encounter"]
    page = new_page(phone)
    open_with(page, base_url, "encounter", SMALL_FIGHT)
    storage.put(page, t["key"], FIGHT)  # as another tab would, unseen by this one
    add_combatant(page, "Bob")
    notice = page.locator(".tracker-notice")
    expect(notice).to_contain_text("also changed in another tab", timeout=BOOT)
    assert storage.get(page, t["key"]) == FIGHT  # not written over
    page.click("[data-keep=take-theirs]")
    expect(notice).to_contain_text("Going on with the other tab's", timeout=BOOT)
    assert storage.get(page, t["key"]) == FIGHT
    assert [c["name"] for c in json.loads(storage.get(page, t["key"] + storage.ASIDE))["combatants"]] == ["Zed", "Bob"]
    expect(page.locator(".enc-card")).to_have_count(len(json.loads(FIGHT)["combatants"]))
    # And back: this tab's fight, the other put aside.
    page.click("[data-keep=bring-back]")
    expect(page.locator(".enc-card")).to_have_count(2, timeout=BOOT)
    assert names(page, t["key"]) == ["Zed", "Bob"]
    assert storage.get(page, t["key"] + storage.ASIDE) == FIGHT
    assert not page.errors


def test_a_season_another_tab_saved_is_checked_before_it_is_drawn(phone, base_url):
    t = TRACKERS["season"]
    one, two = two_tabs(phone, base_url, "season", SEASON)
    storage.put(one, t["key"], '{"tracker":"rpgdl.season"}')
    notice = two.locator(".tracker-notice")
    expect(notice).to_contain_text("cannot read", timeout=BOOT)
    expect(two.locator(".season-headline")).to_contain_text("Ana against Ben")
    # Saving here now asks instead of writing over the other tab's value, and throws nothing.
    form = two.locator('form.season-player[data-player="first"]')
    form.locator("[name=name]").fill("Anabel")
    form.get_by_role("button", name="Save").click()
    expect(two.get_by_role("alertdialog")).to_contain_text("also changed in another tab", timeout=BOOT)
    assert storage.get(two, t["key"]) == '{"tracker":"rpgdl.season"}'
    two.click("[data-keep=keep-this]")
    expect(notice).to_contain_text("Going on with this tab's", timeout=BOOT)
    assert json.loads(storage.get(two, t["key"]))["players"]["first"]["name"] == "Anabel"
    assert storage.get(two, t["key"] + storage.ASIDE) == '{"tracker":"rpgdl.season"}'
    # A valid season from the other tab is drawn.
    storage.put(one, t["key"], SMALL_SEASON)
    expect(two.locator(".season-headline")).to_contain_text("Zoe against", timeout=BOOT)
    expect(notice).to_contain_text("changed in another tab")
    assert not one.errors and not two.errors


def test_two_saves_in_another_tab_in_a_row_show_the_last_and_a_save_here_then_asks(phone, base_url):
    """The other tab writes twice before this tab has read the first: the second storage event comes while this
    tab's Python is still checking the first. Dropped, the tab showed the first season, while it counted the second as
    seen, so its next save would have written over it unasked."""
    t = TRACKERS["season"]
    one, two = two_tabs(phone, base_url, "season", SEASON)
    one.evaluate("([key, a, b]) => { localStorage.setItem(key, a); localStorage.setItem(key, b); }", [t["key"], SMALL_SEASON, OLDER_SEASON])
    expect(two.locator(".season-headline")).to_contain_text("Cleo against", timeout=BOOT)  # the last one written
    expect(two.locator(".tracker-notice")).to_contain_text("changed in another tab")
    assert storage.get(two, t["key"]) == OLDER_SEASON and not one.errors and not two.errors


# ---------------------------------------------------------------- an import far too big


@pytest.mark.parametrize("tracker", TRACKERS)
def test_an_import_far_too_big_is_refused_at_once_in_the_same_words(phone, base_url, tracker):
    t = TRACKERS[tracker]
    page = new_page(phone)
    open_with(page, base_url, tracker, SAVED[tracker][0])
    big = {"name": "huge.json", "mimeType": "application/json", "buffer": b"[" + b"0," * 1_000_000 + b"0]"}
    what = "an encounter" if tracker == "encounter" else "a season"
    page.set_input_files("[data-keep=file]", big)
    line = page.locator("[data-keep=keep-status]")
    expect(line).to_contain_text(f"The file huge.json is 2,000,003 bytes long: too big to be {what} (at most 200,000 characters). "
                                 "Nothing you had has changed.", timeout=10_000)
    assert storage.get(page, t["key"]) == SAVED[tracker][0]


# ---------------------------------------------------------------- one shell, the same words


@pytest.mark.parametrize("tracker", TRACKERS)
def test_the_copy_put_aside_comes_back_after_a_reload_in_the_same_words(phone, base_url, tracker):
    """Both trackers are one shell (tracker-shell.js): the copy put aside can be brought back from the keep panel
    at any time, not only from the sentence that put it aside (the encounter offered it only there, so a reload
    lost the way back), and both say the same; once back, the two swap again."""
    t = TRACKERS[tracker]
    saved, older, _ = SAVED[tracker]
    noun = "encounter" if tracker == "encounter" else "season"
    page = new_page(phone)
    open_with(page, base_url, tracker, saved, older)
    page.get_by_role("button", name=f"Bring back the {noun} you had before").click()
    notice = page.locator(".tracker-notice")
    expect(notice).to_contain_text(f"The {noun} you had is back; the other one is put aside.", timeout=BOOT)
    assert json.loads(storage.get(page, t["key"])) == json.loads(older)
    assert storage.get(page, t["key"] + storage.ASIDE) == saved
    notice.get_by_role("button", name="Swap them again").click()
    page.wait_for_function("([key, text]) => localStorage.getItem(key) !== text", arg=[t["key"] + storage.ASIDE, saved], timeout=BOOT)
    assert json.loads(storage.get(page, t["key"])) == json.loads(saved)
    assert json.loads(storage.get(page, t["key"] + storage.ASIDE)) == json.loads(older)
    assert not page.errors
