"""A campaign evening on a phone: one fight played and ended, the next encounter with the same party
(Vitality carried, Toughness full, tt.ruling.next-encounter), the party kept on the device and levelled up
(tt.levels.level-up), reloads that lose nothing; and hostile party files and links that change nothing kept."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect
from support import storage
from support.campaign import HOSTILE as PARTY_HOSTILE
from support.encounter import ADD
from support.encounter_page import STORE, check_cards, link_for, one_step_at_a_time, open_page, play, python_step, stored, wait_for_log
from support.helpers import BOOT, PHONE
from support.server import BLANK
from support.trackers import FILL, paste

pytestmark = pytest.mark.browser
PARTY = "tell_tale.party"
PARTY_STORE = storage.PARTY
READY = f"[data-tracker='{PARTY}'][data-loaded=true]"

# One short fight: the Ogre's blow takes Vraska's Toughness 3 and 2 Vitality (15 to 13).
FIGHT = [*((a, None) for a in ADD[:3]), ({**ADD[3], "initiative": 12}, None), ({"do": "start"}, None),
         ({"do": "next"}, None), ({"do": "next"}, None), ({"do": "next"}, None),
         ({"do": "damage", "source": "c4", "target": "c1", "amount": 5}, None)]


def party_stored(page):
    text = page.evaluate(f"localStorage.getItem({json.dumps(PARTY_STORE)})")
    return json.loads(text) if text else None


def wait_for_party_log(page, n):
    page.wait_for_function("([key, n]) => (JSON.parse(localStorage.getItem(key) || 'null')?.log?.length ?? 0) === n",
                           arg=[PARTY_STORE, n], timeout=BOOT, polling=100)


def _phone(browser):
    """A phone whose tracker steps run one at a time, and the page's uncaught errors."""
    context = browser.new_context(**PHONE)
    one_step_at_a_time(context)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return context, page, errors


def test_a_campaign_evening_on_a_phone(browser, base_url):
    context, page, errors = _phone(browser)
    open_page(page, base_url)
    state = play(page, FIGHT, None)
    assert {c["name"]: (c["toughness_now"], c["vitality"]) for c in state["combatants"]}["Vraska"] == (0, 13)

    # End it (two taps), then the next encounter with this party, where the end's result shows.
    page.click("[data-enc=end]")
    page.click("[data-enc=end]")
    wait_for_log(page, len(state["log"]) + 1)
    state = stored(page)
    page.click("[data-enc=next-encounter]")
    wait_for_log(page, len(state["log"]) + 1)
    expected = python_step(state, {"do": "next_encounter"}, None)
    state = stored(page)
    assert state == expected["state"]
    vraska = next(c for c in state["combatants"] if c["name"] == "Vraska")
    assert state["phase"] == "setup" and [c["name"] for c in state["combatants"]] == ["Vraska", "Mira", "Imp"]
    assert (vraska["vitality"], vraska["toughness_now"]) == (13, 3)  # Vitality carried, Toughness full
    expect(page.locator(".enc-banner .enc-turn")).to_have_text("Setting up the fight")
    check_cards(page, state)
    newest = page.locator(".enc-log .enc-entry").first
    expect(newest).to_contain_text("tt.ruling.next-encounter")
    expect(newest).to_contain_text("tt.stats.toughness-regeneration")

    # The party page: keep the fight's party, the browser asked to keep the storage, then a level-up.
    page.goto(base_url + "tell-tale/party/")
    page.locator(READY).wait_for(timeout=BOOT)
    assert party_stored(page) is None
    page.click("[data-party=keep]")
    wait_for_party_log(page, 1)
    expect(page.locator("[data-party=storage]")).not_to_be_empty()  # what the browser answered to persist()
    expect(page.locator("[data-party=backup]")).to_contain_text("Not backed up as a file yet.")
    page.click("[data-form=level_up] summary")
    page.select_option("[data-party=stat-0]", "vitality")
    page.fill("[data-party=land-0]", "Swamp")
    page.select_option("[data-party=stat-1]", "companion_speed")
    page.click("[data-party=level-up]")
    wait_for_party_log(page, 2)
    party = party_stored(page)
    v, m = party["members"]
    assert (v["name"], v["level"], v["lands"], v["max_vitality"], v["vitality"]) == ("Vraska", 4, ["Swamp"], 16, 16)  # regenerated
    assert (m["level"], m["companion"]["speed"]) == (4, 15)
    expect(page.locator("[data-member=Vraska]")).to_contain_text("level 4")

    # Reload both pages: nothing lost.
    page.reload()
    page.locator(READY).wait_for(timeout=BOOT)
    assert party_stored(page) == party
    expect(page.locator("[data-member=Vraska]")).to_contain_text("Lands: Swamp.")
    open_page(page, base_url)
    assert stored(page) == state
    check_cards(page, state)

    # The kept party into a set-up: everyone is here already, said beside the button; a new encounter takes them all.
    page.click("[data-enc=add-party]")
    expect(page.locator("[data-enc=party-error]")).to_have_text("Everyone in the party is in this encounter already.")
    page.click("[data-keep=new]")
    page.click("[data-keep=new]")
    page.locator("[data-keep=bring-back]").wait_for()
    page.click("[data-enc=add-party]")
    page.wait_for_function("key => JSON.parse(localStorage.getItem(key) || 'null')?.combatants?.length === 3", arg=STORE, timeout=BOOT)
    fresh = stored(page)
    assert {c["name"]: c["vitality"] for c in fresh["combatants"]} == {"Vraska": 16, "Mira": 12, "Imp": 5}
    assert not errors, errors
    context.close()


HOSTILE_HERE = ("not JSON", "too long", "huge vitality", "more lands than the level", "script in a land", "undo record hostile")


def test_a_hostile_party_file_or_link_changes_nothing_kept(page, base_url, tmp_path):
    """Over one party kept on the device, each hostile party in turn, as a file and in a link: refused in its words,
    the party kept the same after each."""
    party = python_step_party()
    page.goto(base_url + BLANK)
    page.evaluate(f"localStorage.setItem({json.dumps(PARTY_STORE)}, {json.dumps(json.dumps(party))})")
    page.goto(base_url + "tell-tale/party/")
    page.locator(READY).wait_for(timeout=BOOT)
    cases = [h for h in PARTY_HOSTILE if h[0] in HOSTILE_HERE]
    assert len(cases) == len(HOSTILE_HERE)
    page.click(".party-keep summary")
    for label, text, words in cases:
        path = tmp_path / f"{label.replace(' ', '-')}.json"
        path.write_text(text)
        page.set_input_files("[data-keep=file]", str(path))
        line = page.locator("[data-keep=keep-status]")
        expect(line).to_contain_text(words if label != "too long" else "too big to be a party", timeout=BOOT)
        assert party_stored(page) == party, label
        # in a link (#party=…), as a hash change of the page already open
        page.goto(base_url + "tell-tale/party/" + link_for(text).replace("#encounter=", "#party="))
        notice = page.locator(".tracker-notice")
        expect(notice).to_contain_text("was not opened" if label != "too long" else "cannot be opened", timeout=BOOT)
        assert party_stored(page) == party, label
        page.click("[data-keep=dismiss]")
        expect(notice).to_be_hidden()
    expect(page.locator("[data-member=Vraska]")).to_be_visible()
    expect(page.locator("[data-party=members] img, [data-party=members] script")).to_have_count(0)


def python_step_party():
    from support.campaign import fought

    from calculators.runner import track

    answer = track(PARTY, "", json.dumps({"do": "keep", "combatants": fought()["combatants"]}))
    assert answer["ok"], answer
    return answer["state"]


# ---------------------------------------------------------------- kept like the trackers' states (tests/test_saved_state.py)


def _party(members):
    """A party the Python package checks, of these members (each a copy of one kept from the fight, renamed)."""
    from calculators.tell_tale.party import check_party

    base = python_step_party()
    one = base["members"][0]
    party = {**base, "members": [{**one, "name": name, "level": 10, "lands": [f"{name}'s land number {i}" for i in range(10)]}
                                 for name in members], "log": [], "undo": []}
    return json.dumps(check_party(party), separators=(",", ":"), ensure_ascii=False)


BIG = _party([f"Hero {i}" for i in range(8)])
OLDER = _party(["Cleo"])
SMALL = _party(["Zoe"])


def _open(page, base_url, saved, aside=None):

    page.goto(base_url + BLANK)
    storage.put(page, PARTY_STORE, saved)
    storage.put(page, PARTY_STORE + storage.ASIDE, aside)
    page.goto(base_url + "tell-tale/party/")
    page.locator(READY).wait_for(timeout=BOOT)


def test_with_storage_nearly_full_the_party_is_not_replaced_and_the_page_says_so(page, base_url):

    assert len(BIG) - len(OLDER) > 2500 and len(SMALL) < len(BIG)
    _open(page, base_url, BIG, OLDER)
    page.evaluate(FILL, 2000)
    page.click(".party-keep summary")
    answer = paste(page, SMALL)
    expect(answer).to_contain_text("no room on this device", timeout=BOOT)
    assert storage.get(page, PARTY_STORE) == BIG and storage.get(page, PARTY_STORE + storage.ASIDE) == OLDER
    page.evaluate("() => Object.keys(localStorage).filter((k) => k.startsWith('junk-')).forEach((k) => localStorage.removeItem(k))")


def test_a_party_change_that_meets_another_tabs_asks_which_goes_on(page, base_url):

    _open(page, base_url, SMALL)
    storage.put(page, PARTY_STORE, BIG)  # as another tab would, unseen by this one
    page.click("[data-form=level_up] summary")
    page.select_option("[data-party=stat-0]", "speed")
    page.click("[data-party=level-up]")
    notice = page.locator(".tracker-notice")
    expect(notice).to_contain_text("also changed in another tab", timeout=BOOT)
    assert storage.get(page, PARTY_STORE) == BIG  # not written over
    page.click("[data-keep=take-theirs]")
    expect(notice).to_contain_text("Going on with the other tab's", timeout=BOOT)
    mine = json.loads(storage.get(page, PARTY_STORE + storage.ASIDE))
    assert [(m["name"], m["level"]) for m in mine["members"]] == [("Zoe", 11)]
    expect(page.locator("[data-party=members] [data-member]")).to_have_count(8)


def test_the_party_put_aside_comes_back_after_a_reload(page, base_url):

    _open(page, base_url, SMALL, OLDER)
    page.click(".party-keep summary")
    page.get_by_role("button", name="Bring back the party you had before").click()
    expect(page.locator(".tracker-notice")).to_contain_text("The party you had is back; the other one is put aside.", timeout=BOOT)
    assert storage.get(page, PARTY_STORE) == OLDER and storage.get(page, PARTY_STORE + storage.ASIDE) == SMALL
    expect(page.locator("[data-member=Cleo]")).to_be_visible()


def test_axe_finds_nothing_on_the_party_page_with_a_party_drawn(browser, base_url):
    """The party drawn, its level-up open and a refusal said (axe on every page sees it empty: no party kept)."""
    from support.axe import AXE, axe_violations

    context = browser.new_context(**PHONE, bypass_csp=True)  # axe is injected as an inline script
    context.add_init_script(path=AXE)
    page = context.new_page()
    _open(page, base_url, SMALL, OLDER)
    page.click("[data-form=level_up] summary")
    page.click("[data-party=level-up]")  # no stat chosen: a sentence
    expect(page.locator("[data-party=answer] .calc-error")).to_have_text("Choose the stat each levelling player raises.")
    page.click(".party-keep summary")
    assert axe_violations(page) == []
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    context.close()


def test_with_no_party_kept_there_is_no_level_up_to_open(page, base_url):
    """Material styles every details as a box, whatever [hidden] says: the level-up is not drawn until a party is kept."""
    page.goto(base_url + "tell-tale/party/")
    page.locator(READY).wait_for(timeout=BOOT)
    expect(page.locator("[data-party=members]")).to_contain_text("No party is kept yet")
    expect(page.locator("[data-form=level_up]")).to_have_count(0)


# ---------------------------------------------------------------- kept in one tap from the end of the fight


def _fight_ended(page, base_url):
    """FIGHT played on the encounter page and ended (two taps): the fight as stored."""
    open_page(page, base_url)
    state = play(page, FIGHT, None)
    page.click("[data-enc=end]")
    page.click("[data-enc=end]")
    wait_for_log(page, len(state["log"]) + 1)
    expect(page.locator(".enc-banner .enc-turn")).to_have_text("The encounter is over")
    return stored(page)


def _kept_by_python(fight, from_text=""):
    from calculators.runner import track

    combatants = [{k: v for k, v in c.items() if k != "chances"} for c in fight["combatants"]]
    answer = track(PARTY, from_text, json.dumps({"do": "keep", "combatants": combatants}))
    assert answer["ok"], answer
    return answer["state"]


def test_keep_the_party_in_one_tap_at_the_end_of_the_fight(browser, base_url):
    context, page, errors = _phone(browser)
    fight = _fight_ended(page, base_url)
    assert party_stored(page) is None
    page.click("[data-enc=keep-party]")  # the one tap
    wait_for_party_log(page, 1)
    assert party_stored(page) == _kept_by_python(fight)  # Python's keep action, stored under the party's key
    said = page.locator("[data-enc=party-kept]")
    expect(said).to_contain_text("The party is kept: Vraska, Mira.")
    expect(page.locator("[data-enc=party-storage]")).to_contain_text("This browser")  # what persist() granted
    page.click("[data-enc=party-kept] [data-enc=to-party]")
    page.locator(READY).wait_for(timeout=BOOT)
    page.reload()
    page.locator(READY).wait_for(timeout=BOOT)
    expect(page.locator("[data-member=Vraska]")).to_contain_text("Vitality 13/15")
    assert errors == []
    context.close()


def test_a_different_party_kept_is_replaced_only_when_asked_with_undo_and_never_over_another_tab(browser, base_url):
    from support.axe import AXE, axe_violations

    context = browser.new_context(**PHONE, bypass_csp=True)  # axe is injected as an inline script
    context.add_init_script(path=AXE)
    one_step_at_a_time(context)
    page = context.new_page()
    page.goto(base_url + BLANK)
    storage.put(page, PARTY_STORE, SMALL)  # Zoe's party, kept before
    fight = _fight_ended(page, base_url)
    page.click("[data-enc=keep-party]")
    said = page.locator("[data-enc=party-kept]")
    expect(said).to_contain_text("A different party is kept on this device: Zoe is in it and not in this fight.", timeout=BOOT)
    assert storage.get(page, PARTY_STORE) == SMALL  # not overwritten by the tap
    assert axe_violations(page) == [] and page.evaluate("() => document.documentElement.scrollWidth") <= 360

    storage.put(page, PARTY_STORE, OLDER)  # another tab keeps Cleo's party meanwhile
    page.click("[data-enc=party-replace]")
    expect(said).to_contain_text("The kept party was changed in another tab, so this change was not saved over it.")
    assert storage.get(page, PARTY_STORE) == OLDER

    page.click("[data-enc=keep-party]")
    expect(said).to_contain_text("Cleo is in it", timeout=BOOT)
    page.click("[data-enc=party-replace]")
    expect(said).to_contain_text("The party is kept: Vraska, Mira. The one kept before is put aside")
    assert json.loads(storage.get(page, PARTY_STORE)) == _kept_by_python(fight) and storage.get(page, PARTY_STORE + storage.ASIDE) == OLDER
    page.click("[data-enc=party-undo]")
    expect(said).to_contain_text("Undone: the party kept before is back")
    assert storage.get(page, PARTY_STORE) == OLDER and json.loads(storage.get(page, PARTY_STORE + storage.ASIDE)) == _kept_by_python(fight)

    page.click("[data-enc=keep-party]")
    expect(said).to_contain_text("Cleo is in it", timeout=BOOT)
    page.click("[data-enc=party-join]")  # or both: Python's keep into the party kept, its Undo on the party page
    expect(said).to_contain_text("The party is kept: Cleo, Vraska, Mira.")
    assert party_stored(page) == _kept_by_python(fight, OLDER)
    page.goto(base_url + "tell-tale/party/")
    page.locator(READY).wait_for(timeout=BOOT)
    expect(page.locator("[data-member]")).to_have_count(3)
    context.close()


def test_with_storage_full_the_party_kept_from_the_fight_is_said_not_kept(browser, base_url):

    context = browser.new_context(**PHONE)
    one_step_at_a_time(context)
    page = context.new_page()
    _fight_ended(page, base_url)
    page.evaluate(FILL, 100)
    page.click("[data-enc=keep-party]")
    expect(page.locator("[data-enc=party-kept]")).to_contain_text("This device's storage is full, so the kept party was not saved", timeout=BOOT)
    expect(page.locator("[data-enc=party-file]")).to_be_visible()
    assert party_stored(page) is None
    page.evaluate("() => Object.keys(localStorage).filter((k) => k.startsWith('junk-')).forEach((k) => localStorage.removeItem(k))")
    context.close()


def test_a_level_up_between_fights_is_what_the_next_encounter_starts_from(browser, base_url):
    """End, keep, level up on the party page, back to the tracker, Next encounter: the levels come in
    (tt.ruling.next-encounter-party), and the log says whose numbers came from the party page."""
    context, page, errors = _phone(browser)
    _fight_ended(page, base_url)
    page.click("[data-enc=keep-party]")
    wait_for_party_log(page, 1)
    page.click("[data-enc=party-kept] [data-enc=to-party]")
    page.locator(READY).wait_for(timeout=BOOT)
    page.click("[data-form=level_up] summary")
    page.select_option("[data-party=stat-0]", "vitality")
    page.select_option("[data-party=stat-1]", "companion_vitality")
    page.click("[data-party=level-up]")
    wait_for_party_log(page, 2)
    open_page(page, base_url)
    state = stored(page)
    page.click("[data-enc=next-encounter]")
    wait_for_log(page, len(state["log"]) + 1)
    cs = {c["name"]: c for c in stored(page)["combatants"]}
    assert (cs["Vraska"]["vitality"], cs["Vraska"]["max_vitality"]) == (16, 16)
    assert (cs["Imp"]["vitality"], cs["Imp"]["max_vitality"]) == (cs["Imp"]["max_vitality"], party_stored(page)["members"][1]["companion"]["max_vitality"])
    expect(page.locator(".enc-log .enc-entry").first).to_contain_text("As the party page has them since this fight ended")
    assert not errors, errors
    context.close()


NOT_PERSISTENT = """(() => {
  window.__persistAsked = 0;
  StorageManager.prototype.persisted = async () => false;
  StorageManager.prototype.persist = async () => { window.__persistAsked += 1; return false; };
})()"""


def test_until_the_storage_is_kept_for_good_each_change_asks_again_and_says_what_may_happen(browser, base_url):
    """A later visit: the party kept weeks ago, the browser never agreed to keep the storage. The page says what may
    happen and when the last backup was; each change asks the browser again."""
    from support.campaign import kept

    context = browser.new_context(**PHONE)
    context.add_init_script(NOT_PERSISTENT)
    page = context.new_page()
    page.goto(base_url + BLANK)
    storage.put(page, PARTY_STORE, json.dumps(kept()[0]))
    page.goto(base_url + "tell-tale/party/")
    page.locator(READY).wait_for(timeout=BOOT)
    line = page.locator("[data-party=storage]")
    expect(line).to_contain_text("it may clear it on its own (Safari after 7 days without a visit")
    expect(line).to_contain_text("never been backed up as a file")
    assert page.evaluate("window.__persistAsked") == 0  # a visit alone asks nothing
    page.click("[data-form=level_up] summary")
    for n in (1, 2):
        page.select_option("[data-party=stat-0]", "speed")
        page.click("[data-party=level-up]")
        wait_for_party_log(page, 1 + n)
        page.wait_for_function("n => window.__persistAsked === n", arg=n, timeout=BOOT)
        expect(line).to_contain_text("did not agree to keep this site's storage for good")
        expect(line).to_contain_text("never been backed up as a file")
    context.close()


# ---------------------------------------------------------------- two tabs at the same instant

EIGHT = [f"P{i}" for i in range(8)]
# Each tab taps Level up at `at` (its clock is the other's: one machine), its own member's Speed chosen before.
TAP_AT = """([at, i]) => {
  document.querySelector(`[data-party=stat-${i}]`).value = "speed";
  document.querySelector("[data-party=answer]").replaceChildren();
  setTimeout(() => document.querySelector("[data-party=level-up]").click(), Math.max(0, at - Date.now()));
}"""
# The tab has drawn the party as stored, with no step, question or storage event pending.
IN_STEP = """(key) => {
  const box = document.querySelector("[data-tracker='tell_tale.party']");
  const party = JSON.parse(localStorage.getItem(key));
  return !box.hasAttribute("aria-busy") && !box.querySelector("[role=alertdialog]")
    && party.members.every((m) => document.querySelector(`[data-member="${m.name}"]`)?.textContent.includes(` level ${m.level}:`));
}"""
# Both level-ups are kept, or one is and the other is put aside.
NOTHING_LOST = """([key, aside, total]) => {
  const levels = (text) => (text ? JSON.parse(text).members.reduce((n, m) => n + m.level, 0) : 0);
  const now = localStorage.getItem(key), put = localStorage.getItem(key + aside);
  return levels(now) === total + 2 || (levels(now) === total + 1 && levels(put) === total + 1 && put !== now);
}"""
# The tab's level-up is answered (its answer drawn), and saved or asked about.
SETTLED = """() => !document.querySelector("[data-tracker='tell_tale.party']").hasAttribute("aria-busy")
  && document.querySelector("[data-party=answer]").childElementCount > 0"""


# Tries of the two tabs' level-ups at one instant, each about 3 s of both cores. Without the save's Web Lock
# (tracker-kit.js locked) a level-up is lost within the first three tries (at the 1st when the lock came, at the
# 3rd on this site with the lock taken out of its built script). With the lock but without the IndexedDB check,
# 50 tries all kept both: more tries do not find that gap, so 10 keep a margin over the 3rd.
TRIES = 10


def _levels(text):
    return sum(m["level"] for m in json.loads(text)["members"]) if text else 0


def test_two_party_tabs_levelling_up_at_the_same_instant_lose_nothing(browser, base_url):
    """TRIES tries: two tabs of the party page each level up a different player at the same instant. Each level-up is
    kept, or the tab that could not write asks which goes on with its own put aside: never one silently written over."""
    from calculators.tell_tale.party import check_party

    one_member = python_step_party()["members"][0]
    party = {**python_step_party(), "log": [], "undo": [], "members": [{**one_member, "name": n, "level": 3, "lands": []} for n in EIGHT]}
    context = browser.new_context(**PHONE)
    one, two = context.new_page(), context.new_page()
    one.goto(base_url + BLANK)
    storage.put(one, PARTY_STORE, json.dumps(check_party(party)))
    for tab in (one, two):
        tab.goto(base_url + "tell-tale/party/")
        tab.locator(READY).wait_for(timeout=BOOT)
        tab.click("[data-form=level_up] summary")
    for n in range(TRIES):
        for tab in (one, two):
            tab.wait_for_function(IN_STEP, arg=PARTY_STORE, timeout=BOOT)
        before = storage.get(two, PARTY_STORE)
        one.wait_for_function("([key, text]) => localStorage.getItem(key) === text", arg=[PARTY_STORE, before], timeout=BOOT)
        total = _levels(before)
        at = one.evaluate("Date.now()") + 400
        one.evaluate(TAP_AT, [at, (2 * n) % 8])
        two.evaluate(TAP_AT, [at, (2 * n + 1) % 8])
        for tab in (one, two):
            tab.wait_for_function(SETTLED, timeout=BOOT)
        # Each tab's own copy of the storage catches up a moment after the other writes: waited for, in both.
        for tab in (one, two):
            try:
                tab.wait_for_function(NOTHING_LOST, arg=[PARTY_STORE, storage.ASIDE, total], timeout=10_000)
            except PlaywrightTimeout:
                now, aside = storage.get(tab, PARTY_STORE), storage.get(tab, PARTY_STORE + storage.ASIDE)
                pytest.fail(f"try {n + 1}: a level-up was lost (levels {total} before, {_levels(now)} kept, {_levels(aside)} put aside)")
        if _levels(storage.get(one, PARTY_STORE)) == total + 2:
            continue  # one tab's step began after the other's was saved and seen: both kept
        asking = [tab for tab in (one, two) if tab.locator("[role=alertdialog]").count()]
        assert len(asking) == 1, f"try {n + 1}: {len(asking)} tabs ask which goes on"
        expect(asking[0].get_by_role("alertdialog")).to_contain_text("put aside")
        asking[0].click("[data-keep=take-theirs]")  # the next try starts from the kept one; this tab's stays aside
    context.close()
