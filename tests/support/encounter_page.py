"""The encounter tracker's page as the tests drive it: open it, play actions
through its own controls (each action's fields as its declaration in
calculators/tell_tale/encounter_actions.py says the form asks for them),
and read back what it keeps and shows. tests/test_encounter_page.py plays
the scripted fight with it; the party's page tests reuse it."""

from __future__ import annotations

import base64
import json
import zlib

from playwright.sync_api import expect

from calculators import runner
from calculators.tell_tale.encounter_actions import ACTION_SPECS

from . import storage
from .helpers import BOOT

TRACKER = "tell_tale.encounter"
STORE = storage.ENCOUNTER
THROUGH = STORE + storage.THROUGH  # the device's preference: "off" stops Next at every step; absent, it passes the steps that ask nothing
# "Roll for me" draws its seed with crypto.getRandomValues(new Uint32Array(1)); these hand it the script's seeds
# in order, and keep the queue across reloads in sessionStorage.
SEEDS = """(() => {
  const real = crypto.getRandomValues.bind(crypto);
  crypto.getRandomValues = (array) => {
    const queue = JSON.parse(sessionStorage.getItem("test-seeds") || "[]");
    if (array instanceof Uint32Array && array.length === 1 && queue.length) {
      array[0] = queue.shift();
      sessionStorage.setItem("test-seeds", JSON.stringify(queue));
      return array;
    }
    return real(array);
  };
})();"""
ROLLS = {"start", "initiative"}  # page buttons that always roll (the dice they may need)


def url(base_url):
    return base_url + "tell-tale/encounter/"


def open_page(page, base_url, hash_=""):
    page.goto(url(base_url) + hash_)
    page.locator(".tracker-status", has_text="Ready").wait_for(timeout=BOOT)


def one_step_at_a_time(where):
    """Next stops at every step (by default it passes the steps that ask nothing), for a test that follows a turn
    step by step: the device's preference set to "off" before the page's scripts run, unless a test set it itself."""
    key = json.dumps(THROUGH)
    where.add_init_script(f"try {{ if (localStorage.getItem({key}) === null) localStorage.setItem({key}, 'off'); }} catch {{}}")  # a frame with no storage: nothing to set


def stored(page):
    text = page.evaluate(f"localStorage.getItem({json.dumps(STORE)})")
    return json.loads(text) if text else None


def queue_seeds(page, seeds):
    page.evaluate(f"sessionStorage.setItem('test-seeds', {json.dumps(json.dumps(seeds))})")


def wait_for_log(page, n):
    page.wait_for_function("([key, n]) => (JSON.parse(localStorage.getItem(key) || 'null')?.log?.length ?? 0) === n", arg=[STORE, n], timeout=BOOT, polling=100)  # by time, not animation frames: a window behind another may get none


def fill_dice(page, dice, prefix=""):
    for name, value in dice.items():
        page.fill(f"[data-enc='{prefix}{name}']", " ".join(map(str, value)) if isinstance(value, list) else str(value))


# The actions that are one button of the page, and whether pressing it rolls.
BUTTONS = {"next": False, "start": True, "undo": False}


def perform(page, action, seed):
    """Do `action` through the page's controls; whether it rolled (and so drew a seed)."""
    do = action["do"]
    if do == "add":
        page.fill("#enc-add-name", action["name"])
        page.select_option("#enc-add-kind", action["kind"])
        if action.get("owner"):
            page.select_option("#enc-add-owner", action["owner"])
        for key in ("power", "toughness", "vitality", "speed", "initiative"):
            page.fill(f"#enc-add-{key}", str(action.get(key, "")))
        if action.get("keywords") and page.locator("[data-enc=add-keywords]").get_attribute("open") is None:
            page.click("[data-enc=add-keywords] summary")  # folded until opened
        for keyword in action.get("keywords", []):
            page.check(f"input[name=add-keyword][value='{keyword}']")
        page.click("[data-enc=add]")
        return False
    if do in BUTTONS:  # one button, no fields
        page.click(f"[data-enc={do}]")
        return BUTTONS[do]
    if do == "initiative":
        open_editor(page, action["id"])
        page.locator(f".enc-card[data-id={action['id']}]").get_by_role("button", name="Roll Initiative").click()
        return True
    spec = ACTION_SPECS[do]
    page.select_option("[data-enc=do]", do)
    for f in spec.fields:  # each field as its declaration says the form asks for it (encounter-form.js)
        value = action.get(f.key)
        hook = "actor" if f.key == spec.actor else "target" if f.key == spec.target else f.key
        if f.kind == "line":
            for i, target in enumerate(value):
                page.select_option(f"[data-enc=line-{i}]", target)
                fill_dice(page, (action.get("dice") or [{}] * 9)[i], prefix=f"line-{i}-")
                if f.flag and target in action.get(f.flag.key, []):
                    page.check(f"[data-enc=line-{i}-{f.flag.key}]")
        elif value is None or f.dice:
            continue
        elif f.kind in ("who", "choice"):
            page.select_option(f"[data-enc={hook}]", value)
        elif f.kind == "ids":
            for cid in value:
                page.check(f"[data-enc={f.key}-{cid}]")
        else:
            page.fill(f"[data-enc={hook}]", str(value))
    if action.get("dice") and not any(f.kind == "line" for f in spec.fields):
        fill_dice(page, action["dice"])
    rolled = seed is not None
    page.click("[data-enc=roll]" if rolled else "[data-enc=resolve]")
    return rolled


def open_editor(page, cid):
    """A combatant's full card, then its editor ("Change <name>"), each opened if it is not."""
    card = page.locator(f".enc-card[data-id={cid}]")
    for details in (card.locator("details.enc-row"), card.locator("details.enc-edit")):
        if not details.evaluate("(d) => d.open"):
            details.locator(":scope > summary").click()


# What every card shows, read in one call: a fight checks every card after
# every step, and a call for each number was 28 round trips a step.
CARDS_SHOWN = """() => Object.fromEntries([...document.querySelectorAll('.enc-card')].map((card) => [card.dataset.id, {
  ...Object.fromEntries(['power', 'toughness', 'vitality', 'counters', 'actions']
    .map((key) => [key, card.querySelector(`[data-stat=${key}]`)?.textContent ?? null])),
  marks: card.querySelector('[data-marks]')?.textContent ?? '',
}]))"""


def check_cards(page, state):
    """Every number on every card is the state's."""
    cards = page.locator(".enc-card")
    expect(cards).to_have_count(len(state["combatants"]))  # drawn once the saved state is read: waited for, not assumed
    shown = page.evaluate(CARDS_SHOWN)
    for c in state["combatants"]:
        card = shown[c["id"]]
        assert {key: card[key] for key in ("power", "toughness", "vitality", "counters", "actions")} == {
            "power": str(c["power"]) if c["power_now"] == c["power"] else f"{c['power_now']}/{c['power']}",
            "toughness": f"{c['toughness_now']}/{c['toughness'] + max(0, c['boost'])}",
            "vitality": f"{c['vitality']}/{c['max_vitality']}",
            "counters": str(c["counters"]),
            "actions": str(c["actions"]),
        }, c["name"]
        flags = card["marks"]
        assert ("poisoned" in flags) == c["poisoned"], c["name"]
        assert ("knocked down" in flags) == (c["status"] == "knocked-down"), c["name"]
        assert (c["health"] in flags) == (c["health"] != "conscious"), c["name"]


def python_step(state, action, seed):
    answer = runner.track(TRACKER, json.dumps(state) if state else "", json.dumps(action), seed)
    assert answer["ok"], answer
    return answer


def play(page, steps, state):
    """Play (action, seed) steps through the page; check the page against Python after each."""
    for action, seed in steps:
        rolls = action["do"] in ROLLS or seed is not None
        queue_seeds(page, [seed if seed is not None else 1] if rolls else [])
        before = len(state["log"]) if state else 0
        perform(page, action, seed)
        expected = python_step(state, action, (seed if seed is not None else 1) if rolls else None)
        wait_for_log(page, len(expected["state"]["log"]) if action["do"] != "undo" else before - 1)
        got = stored(page)
        assert got == expected["state"], action
        if action["do"] not in ("undo", "add"):
            expect(page.locator(".enc-answer .calc-headline")).to_have_text(expected["headline"])
        state = got
        check_cards(page, state)
    return state


def link_for(text):
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    code = base64.urlsafe_b64encode(packer.compress(text.encode()) + packer.flush()).decode().rstrip("=")
    return "#encounter=" + code
