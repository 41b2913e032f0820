"""Players' phones joining the GM's fight with no server (docs/assets/encounter-phones.js, encounter-join.js,
phone-link.js): each phone is a browser context of its own, as a phone is a device of its own, and reaches
the GM's tracker over WebRTC on loopback through the path a phone takes: the QR code the GM's page draws,
decoded by a real decoder (zbarimg, Debian's zbar-tools), opened as an address; the phone's own QR code
decoded the same way and typed into the seat, or opened on the GM's device as its camera app would.

Each phone's view is checked against the GM's state after every step of the scripted fight (Undo and Redo
among them), and everything the phones receive is read: the players' view and nothing else, no foe's
numbers."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from playwright.sync_api import expect
from support.encounter import FIGHT
from support.encounter_page import ROLLS, one_step_at_a_time, open_page, perform, python_step, queue_seeds, stored, url, wait_for_log

pytestmark = pytest.mark.browser

# What a phone receives, kept for the test: every message of every data channel the page opens.
RECORD = """(() => {
  window.__got = [];
  const make = RTCPeerConnection.prototype.createDataChannel;
  RTCPeerConnection.prototype.createDataChannel = function (...args) {
    const channel = make.apply(this, args);
    channel.addEventListener("message", (event) => window.__got.push(event.data));
    return channel;
  };
})();"""
VIEW_KEYS = {"v", "phase", "round", "turn", "step", "headline", "timer", "rows"}
ROW_KEYS = {"name", "side", "who", "acting", "marks", "numbers", "band"}


def zbar(locator, tmp_path) -> str:
    """The text of the QR code `locator` shows, read from a screenshot by zbarimg."""
    if not shutil.which("zbarimg"):
        pytest.skip("zbarimg (Debian's zbar-tools) is needed to read the pages' QR codes")
    picture = tmp_path / "code.png"
    picture.write_bytes(locator.screenshot())
    read = subprocess.run(["zbarimg", "--raw", "-q", str(picture)], capture_output=True, text=True, timeout=60)
    assert read.returncode == 0, read.stderr
    return read.stdout.strip()


def add_seat(gm, n, tmp_path) -> str:
    """Add seat `n` on the GM's tracker; the address its QR code holds (checked against the text beside it)."""
    gm.click("[data-enc=phone-add]")
    seat = gm.locator(f"[data-seat='{n}']")
    expect(seat.locator("[data-seat-state]")).to_contain_text("Waiting for a phone", timeout=10_000)
    address = zbar(seat.locator("[data-seat-qr]"), tmp_path)
    assert address == seat.locator("[data-seat-offer]").text_content()
    assert address.startswith(url(gm.base_url) + "#join=")
    return address


def join(browser, address, tmp_path):
    """A phone opens the seat's address: the phone's page, and the address its answer's QR code holds."""
    context = browser.new_context(viewport={"width": 360, "height": 740})
    context.add_init_script(RECORD)
    phone = context.new_page()
    phone.errors = []
    phone.on("pageerror", lambda e: phone.errors.append(str(e)))
    phone.goto(address)
    qr = phone.locator("[data-phone=qr]")
    qr.wait_for(timeout=10_000)
    assert phone.evaluate("location.hash") == "#phone"  # the code is read and gone from the address
    answer = zbar(qr, tmp_path)
    assert answer == url(gm_base(address)) + "#answer=" + phone.locator("[data-phone=code]").text_content()
    return phone, answer


def gm_base(address: str) -> str:
    return address.split("tell-tale/encounter/")[0]


def gm_page(browser, base_url):
    context = browser.new_context()
    one_step_at_a_time(context)
    gm = context.new_page()
    gm.base_url = base_url
    gm.errors = []
    gm.on("pageerror", lambda e: gm.errors.append(str(e)))
    open_page(gm, base_url)
    return context, gm


def steps_of(gm):
    return {step[0]: step[1] for step in json.loads(gm.locator(".tracker[data-tracker]").get_attribute("data-vocabulary"))["steps"]}


def expected_view(state, steps):
    """What a phone shows of `state`: where the fight stands, the step, the last headline that is not the GM's
    own change, and the names in turn order (each turn holder followed by what acts in its turn)."""
    if not state:
        return {"where": "No encounter yet", "step": "", "headline": "", "names": []}
    by_id = {c["id"]: c for c in state["combatants"]}
    names = []
    for cid in state["order"]:
        names += [by_id[cid]["name"], *(c["name"] for c in state["combatants"] if c["owner"] == cid)]
    shown = next((e for e in reversed(state["log"]) if not e.get("gm")), None)
    headline = f"Last: {shown['text']}" if shown else ""
    if state["phase"] == "combat":
        holder = by_id[state["order"][state["turn"]]]["name"]
        return {"where": f"Round {state['round']} · {holder}'s turn", "step": steps[state["step"]], "headline": headline, "names": names}
    where = "The fight has not started yet" if state["phase"] == "setup" else f"The encounter is over ({state['round']} round{'' if state['round'] == 1 else 's'})"
    return {"where": where, "step": "", "headline": headline, "names": names}


SHOWN = """() => ({
  where: document.querySelector('[data-players=where]').textContent,
  step: document.querySelector('[data-players=step]').textContent,
  headline: document.querySelector('[data-players=headline]').hidden ? '' : document.querySelector('[data-players=headline]').textContent,
  names: [...document.querySelectorAll('.enc-p-row .enc-name')].map((n) => n.textContent),
})"""


def follows(phone, want):
    """Wait until the phone shows `want`."""
    phone.wait_for_function(f"(want) => JSON.stringify(({SHOWN})()) === JSON.stringify(want)", arg=want, timeout=10_000, polling=100)


def only_the_players_view(phone, foes):
    """Every message the phone received: a view of the players' view's shape (no foe's numbers: a foe's row has
    none, only the band's word), a spare offer, or nothing else. How many bytes each view took."""
    sizes = []
    for text in phone.evaluate("window.__got"):
        message = json.loads(text)
        assert message["type"] in ("view", "spare"), message
        if message["type"] == "spare":
            assert set(message) == {"type", "code"}
            continue
        assert set(message) == {"type", "view"} and set(message["view"]) == VIEW_KEYS
        for row in message["view"]["rows"]:
            assert set(row) == ROW_KEYS
            if row["name"] in foes:
                assert row["side"] == "foes" and row["numbers"] is None, row
        sizes.append(len(text.encode()))
    return sizes


def test_two_phones_join_by_their_qr_codes_and_follow_a_fight_with_undo_and_redo(browser, base_url, tmp_path):
    context, gm = gm_page(browser, base_url)
    steps = steps_of(gm)
    phones = []
    for n in (1, 2):
        phone, answer = join(browser, add_seat(gm, n, tmp_path), tmp_path)
        expect(phone.locator("[data-players=status]")).to_have_text("Waiting for the GM to scan this phone's code.")
        phones.append((phone, answer))
    # Seat 1: the answer typed on the GM's page. Seat 2: the GM's camera app opens the answer's address on the
    # GM's device, and that page hands it to the tracker's tab.
    (one, answer1), (two, answer2) = phones
    gm.fill("[data-seat='1'] [data-seat-answer]", answer1.split("#answer=")[1].lower())  # typed, in either case
    gm.click("[data-seat='1'] [data-seat-connect]")
    camera = context.new_page()
    camera.goto(answer2)
    expect(camera.locator("[data-players=status]")).to_contain_text("took the answer: Seat 2 is connecting.", timeout=10_000)
    assert camera.evaluate("location.hash") == "#answer="  # read once, gone from the address
    for n, phone in ((1, one), (2, two)):
        expect(phone.locator("[data-players=status]")).to_have_text("Following the GM's fight.", timeout=20_000)
        expect(gm.locator(f"[data-seat='{n}'] [data-seat-state]")).to_have_text("Connected: this phone follows the fight.")
        follows(phone, expected_view(None, steps))

    state = None
    fight = FIGHT[:30]
    assert any(a["do"] == "undo" for a, _ in fight)
    for action, seed in fight:
        rolls = action["do"] in ROLLS or seed is not None
        queue_seeds(gm, [seed if seed is not None else 1] if rolls else [])
        before = len(state["log"]) if state else 0
        perform(gm, action, seed)
        expected = python_step(state, action, (seed if seed is not None else 1) if rolls else None)["state"]
        wait_for_log(gm, len(expected["log"]) if action["do"] != "undo" else before - 1)
        state = stored(gm)
        for phone in (one, two):
            follows(phone, expected_view(state, steps))
    undone = state
    gm.click("[data-enc=undo]")
    wait_for_log(gm, len(undone["log"]) - 1)
    for phone in (one, two):
        follows(phone, expected_view(stored(gm), steps))
    gm.click("[data-enc=redo]")
    wait_for_log(gm, len(undone["log"]))
    assert stored(gm) == undone
    for phone in (one, two):
        follows(phone, expected_view(undone, steps))

    foes = {c["name"] for c in state["combatants"] if c["side"] == "foes"}
    for phone in (one, two):
        sizes = only_the_players_view(phone, foes)
        assert len(sizes) >= 20  # one view a step, or fewer when two steps come at once
        print(f"bytes per view: {min(sizes)} to {max(sizes)}, median {sorted(sizes)[len(sizes) // 2]}")
        assert not phone.errors
    assert not gm.errors
    context.close()
