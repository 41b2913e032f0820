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
import os
import shutil
import signal
import subprocess
from pathlib import Path

import pytest
from playwright.sync_api import expect
from support.encounter import FIGHT
from support.server import BLANK
from support.encounter_page import ROLLS, SEEDS, STORE, one_step_at_a_time, open_page, perform, python_step, queue_seeds, stored, url, wait_for_log

pytestmark = pytest.mark.browser

# What a phone receives, kept for the test: every message of every data channel the page opens.
RECORD = """(() => {
  window.__got = [];
  const make = RTCPeerConnection.prototype.createDataChannel;
  RTCPeerConnection.prototype.createDataChannel = function (...args) {
    const channel = make.apply(this, args);
    channel.addEventListener("message", (event) => window.__got.push(event.data));
    (window.__channels ??= []).push(channel);
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
    locator.evaluate("(code) => code.scrollIntoView({ block: 'center' })")  # clear of the tracker's sticky bar
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
    expect(seat.locator("[data-seat-offer]")).to_have_text(address)
    assert address.startswith(url(gm.base_url) + "#join=")
    return address


def join(browser, address, tmp_path, **options):
    """A phone opens the seat's address: the phone's page, and the address its answer's QR code holds."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, **options)
    context.add_init_script(RECORD)
    phone = context.new_page()
    phone.errors = []
    phone.on("pageerror", lambda e: phone.errors.append(str(e)))
    phone.goto(address)
    qr = phone.locator("[data-phone=qr]")
    qr.wait_for(timeout=10_000)
    assert phone.evaluate("location.hash") == "#phone"  # the code is read and gone from the address
    answer = zbar(qr, tmp_path)
    assert answer.startswith(url(gm_base(address)) + "#answer=")
    expect(phone.locator("[data-phone=code]")).to_have_text(answer.split("#answer=", 1)[1])
    return phone, answer


def gm_base(address: str) -> str:
    return address.split("tell-tale/encounter/")[0]


def gm_page(browser, base_url, actions=(), **options):
    """The GM's tracker, with the fight Python makes of `actions` saved on the device (seed 1 for each)."""
    context = browser.new_context(**options)
    one_step_at_a_time(context)
    context.add_init_script(SEEDS)
    context.add_init_script(RECORD)
    gm = context.new_page()
    gm.base_url = base_url
    gm.errors = []
    gm.on("pageerror", lambda e: gm.errors.append(str(e)))
    state = None
    for action in actions:
        state = python_step(state, action, 1)["state"]
    if state:
        gm.goto(base_url + BLANK)
        gm.evaluate("([key, value]) => localStorage.setItem(key, value)", [STORE, json.dumps(state)])
    open_page(gm, base_url)
    return context, gm


def connect(gm, n, answer):
    """The GM types seat `n`'s answer; the phone is then followed."""
    gm.fill(f"[data-seat='{n}'] [data-seat-answer]", answer.split("#answer=")[1])
    gm.click(f"[data-seat='{n}'] [data-seat-connect]")
    expect(gm.locator(f"[data-seat='{n}'] [data-seat-state]")).to_have_text("Connected: this phone follows the fight.", timeout=20_000)
    expect(gm.locator(f"[data-seat='{n}'] [data-seat-answer]")).to_be_hidden()  # joining's code and field fold away


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


SHOWN = """() => {
  const at = (what) => document.querySelector(`[data-players=${what}]`);
  return at('where') && {  // null until the page has drawn its view
    where: at('where').textContent, step: at('step').textContent, headline: at('headline').hidden ? '' : at('headline').textContent,
    names: [...document.querySelectorAll('.enc-p-row .enc-name')].map((n) => n.textContent),
  };
}"""


def follows(phone, want):
    """Wait until the phone shows `want`."""
    phone.wait_for_function(f"(want) => JSON.stringify(({SHOWN})()) === JSON.stringify(want)", arg=want, timeout=10_000, polling=100)


def only_the_players_view(phone, foes):
    """Every message the phone received: the players' view whole (with its version), a step's changes to it
    (players-view.js), a spare offer, or nothing else; no foe's numbers in any row (a foe's row has none, only the
    band's word). The bytes of each whole view and of each step."""
    wholes, steps = [], []

    def players_rows(rows):
        for row in rows:
            assert set(row) == ROW_KEYS
            if row["name"] in foes:
                assert row["side"] == "foes" and row["numbers"] is None, row

    for text in phone.evaluate("window.__got"):
        message = json.loads(text)
        assert message["type"] in ("view", "step", "spare"), message
        if message["type"] == "spare":
            assert set(message) == {"type", "code"}
        elif message["type"] == "view":
            assert set(message) == {"type", "version", "view"} and set(message["view"]) == VIEW_KEYS
            players_rows(message["view"]["rows"])
            wholes.append(len(text.encode()))
        else:
            assert set(message) == {"type", "base", "version", "changes"}
            for change in message["changes"]:
                assert change["key"] in VIEW_KEYS - {"v"}, change
                if change["key"] == "rows":
                    players_rows([row for _at, _cut, rows in change["splice"] for row in rows] if "splice" in change else change["value"])
            steps.append(len(text.encode()))
    return wholes, steps


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
        expect(gm.locator(f"[data-seat='{n}'] [data-seat-state]")).to_have_text("Connected: this phone follows the fight.", timeout=20_000)  # the GM says so after the phone: under load, seconds later
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
    for phone in (one, two):  # a phone that asks (as one that missed a step does) is sent the whole view
        phone.evaluate("() => window.__channels.find((c) => c.readyState === 'open').send(JSON.stringify({type: 'hello'}))")
        phone.wait_for_function("() => window.__got.some((t) => t.includes('\"type\":\"view\"') && t.includes('\"side\"'))", timeout=20_000)
        wholes, steps = only_the_players_view(phone, foes)
        assert len(steps) >= 20  # one a step, or fewer when two steps come at once; the whole view when it joined and asked
        median = sorted(steps)[len(steps) // 2]
        print(f"bytes per step: {min(steps)} to {max(steps)}, median {median}; the whole view: {wholes}")
        assert median <= 0.6 * max(wholes)  # a step sends the rows it changed, not the whole view
        assert not phone.errors
    assert not gm.errors
    context.close()


PARTY_AND_FOES = [
    {"do": "add", "name": "Vraska", "kind": "pc", "power": 3, "toughness": 3, "vitality": 15, "speed": 10, "initiative": 14},
    {"do": "add", "name": "Goblin", "kind": "npc", "power": 1, "toughness": 1, "vitality": 4, "speed": 8, "initiative": 12},
    {"do": "add", "name": "Mira", "kind": "pc", "power": 2, "toughness": 2, "vitality": 12, "speed": 12, "initiative": 10},
    {"do": "add", "name": "Ogre", "kind": "npc", "power": 5, "toughness": 5, "vitality": 14, "speed": 8, "initiative": 9},
]
AT_VRASKAS_MAIN_STEP = [*PARTY_AND_FOES, {"do": "start"}, {"do": "next"}, {"do": "next"}, {"do": "next"}]


def test_a_players_roll_is_accepted_once_and_declined_once_and_a_reloaded_phone_catches_up(browser, base_url, tmp_path):
    """Vraska's player attacks the Goblin from the phone with a d20 typed: the GM accepts, and the fight is the
    one Python makes of the same attack; then a roll the phone makes, declined: nothing changes. The phone then
    reloads: it shows the fight as it last stood and a new code at once (the spare offer the GM's tracker sent),
    the GM steps on meanwhile, scans the new code, and the phone catches up."""
    context, gm = gm_page(browser, base_url, AT_VRASKAS_MAIN_STEP)
    steps = steps_of(gm)
    phone, answer = join(browser, add_seat(gm, 1, tmp_path), tmp_path)
    connect(gm, 1, answer)
    state = stored(gm)
    follows(phone, expected_view(state, steps))
    phone.select_option("[data-phone=mine]", "Vraska")
    expect(phone.locator("[data-phone=d20]")).to_be_visible()  # Vraska's turn: her attack form
    phone.select_option("[data-phone=target]", "Goblin")
    phone.fill("[data-phone=d20]", "15")
    phone.click("[data-phone=send-roll]")
    request = gm.locator("[data-seat='1'] [data-seat-roll]")
    expect(request).to_contain_text("Vraska attacks Goblin: d20 15 (typed by the player).", timeout=10_000)
    assert stored(gm) == state  # nothing changes before the GM accepts
    queue_seeds(gm, [7])  # for any die the roll does not give (a critical d4)
    request.locator("[data-seat-accept]").click()
    attack = {"do": "attack", "attacker": "c1", "target": "c2", "dice": {"d20": 15}}
    python = python_step(state, attack, 7)
    wait_for_log(gm, len(python["state"]["log"]))
    assert stored(gm) == python["state"]  # the same Python step as the GM's own attack
    expect(phone.locator("[data-phone=roll-status]")).to_have_text(f"The GM accepted your roll: {python['headline']}", timeout=10_000)
    state = stored(gm)
    follows(phone, expected_view(state, steps))

    phone.click("[data-phone=roll]")  # the phone rolls
    expect(request).to_contain_text("(rolled by the phone)", timeout=10_000)
    request.locator("[data-seat-decline]").click()
    expect(phone.locator("[data-phone=roll-status]")).to_have_text("The GM did not take your roll: the GM declined it.", timeout=10_000)
    assert stored(gm) == state

    # A reload: the last view at once, a new code from the spare offer, the GM's next step caught up.
    phone.reload()
    expect(phone.locator("[data-players=where]")).to_have_text(expected_view(state, steps)["where"])
    qr = phone.locator("[data-phone=qr]")
    qr.wait_for(timeout=10_000)
    expect(phone.locator("[data-players=status]")).to_contain_text("Reconnecting")
    again = zbar(qr, tmp_path)
    expect(gm.locator("[data-seat='1'] [data-seat-state]")).to_contain_text("The phone left", timeout=20_000)
    expect(gm.locator("[data-seat='1'] [data-seat-answer]")).to_be_visible()  # the field is back for the new code
    gm.click("[data-enc=next]")
    wait_for_log(gm, len(state["log"]) + 1)
    state = stored(gm)
    connect(gm, 1, again)
    follows(phone, expected_view(state, steps))
    expect(phone.locator("[data-players=status]")).to_have_text("Following the GM's fight.")
    assert not phone.errors and not gm.errors
    context.close()


HOSTILE = """async (channel) => {
  const sent = [];
  const put = (text) => { try { channel.send(text); sent.push(text.length); } catch (err) { sent.push(err.name); } };
  for (const m of [null, 7, "text", [], { type: 5 }, { type: "view", view: {} }, { type: "roll", as: "Vraska" },
                   { type: "roll", as: "Vraska", target: "Goblin", d20: [21], rolled: false },
                   { type: "roll", as: "Vraska", target: "Goblin", d20: [15], rolled: false, run: "alert(1)" },
                   { type: "__proto__" }, { type: "<script>window.__pwned=2</script>" }]) put(JSON.stringify(m));
  put("{not json");
  put("x".repeat(200 * 1024));  // as large as Chromium sends
  put("x".repeat(10 * 1024 * 1024));  // 10 MB: the sending browser refuses it
  for (let i = 0; i < 1000; i++) put(JSON.stringify({ type: "roll", as: "Vraska", target: "Goblin", d20: [20], rolled: false }));
  return sent;
}"""


def test_eight_phones_follow_and_a_hostile_one_changes_nothing_and_runs_nothing(browser, base_url, tmp_path):
    """Eight seats, half joined by typing, half through the GM's camera app; each follows the fight. Then one
    phone turns hostile: markup in names, wrong shapes, not JSON, 200 KB, 10 MB, 1,000 messages at once. The
    fight does not change, nothing runs, the GM's seat says so and the phone is told why; the others go on
    following; the GM drops the seat. And a hostile GM: views of the wrong shape are refused by a phone, and
    markup in a name is drawn as text."""
    context, gm = gm_page(browser, base_url, AT_VRASKAS_MAIN_STEP)
    steps = steps_of(gm)
    phones = []
    for n in range(1, 9):
        phone, answer = join(browser, add_seat(gm, n, tmp_path), tmp_path)
        if n % 2:
            connect(gm, n, answer)
        else:
            camera = context.new_page()
            camera.goto(answer)
            expect(camera.locator("[data-players=status]")).to_contain_text(f"Seat {n} is connecting.", timeout=10_000)
            camera.close()
        phones.append(phone)
    state = stored(gm)
    for phone in phones:
        expect(phone.locator("[data-players=status]")).to_have_text("Following the GM's fight.", timeout=20_000)
        follows(phone, expected_view(state, steps))
    gm.click("[data-enc=next]")
    wait_for_log(gm, len(state["log"]) + 1)
    state = stored(gm)
    for phone in phones:
        follows(phone, expected_view(state, steps))

    hostile = phones[-1]
    seat = gm.locator("[data-seat='8']")
    request = seat.locator("[data-seat-roll]")
    # A roll of the right shape waits for the GM, its name as text: the markup in it is a name, not an image.
    hostile.evaluate("""() => window.__channels[0].send(JSON.stringify(
      {type: "roll", as: "<img src=x onerror=window.__pwned=1>", target: "Goblin", d20: [20], rolled: false}))""")
    expect(request).to_contain_text("<img src=x onerror=window.__pwned=1> attacks Goblin: d20 20 (typed by the player).", timeout=10_000)
    sent = hostile.evaluate(f"({HOSTILE})(window.__channels[0])")
    assert sent[12] == 200 * 1024 and sent[13] in ("TypeError", "OperationError")  # 10 MB cannot be sent at all
    expect(seat.locator("[data-seat-state]")).to_contain_text("refused", timeout=20_000)
    expect(seat.locator("[data-seat-state]")).to_contain_text("Nothing it sent changed the fight")
    expect(hostile.locator("[data-players=status]")).to_contain_text("The GM's tracker refused a message from this phone")
    expect(request).to_contain_text("Vraska attacks Goblin: d20 20 (typed by the player).")  # the last that came in time
    assert gm.evaluate("window.__pwned") is None and hostile.evaluate("window.__pwned") is None
    expect(gm.locator(".enc-seats img, .enc-seats script")).to_have_count(0)
    request.locator("[data-seat-decline]").click()
    assert stored(gm) == state  # nothing a phone sent changed the fight
    gm.click("[data-enc=next]")
    wait_for_log(gm, len(state["log"]) + 1)
    state = stored(gm)
    for phone in phones[:-1]:
        follows(phone, expected_view(state, steps))
    seat.locator("[data-seat-drop]").click()
    expect(hostile.locator("[data-players=status]")).to_contain_text("The GM dropped this phone's seat", timeout=10_000)
    expect(gm.locator("[data-seat]")).to_have_count(7)

    # A hostile GM: the phone draws only views of the right shape, and names as text.
    target = phones[0]
    before = target.evaluate(f"({SHOWN})()")
    gm.evaluate("""() => {
      const channel = window.__channels.find((c) => c.readyState === "open");
      for (const view of [null, {}, {v: 2}, {v: 1, phase: "combat", rows: "x"}]) channel.send(JSON.stringify({type: "view", view}));
    }""")
    assert target.evaluate(f"({SHOWN})()") == before
    gm.evaluate("""() => {
      const channel = window.__channels.find((c) => c.readyState === "open");
      channel.send(JSON.stringify({type: "view", view: {v: 1, phase: "combat", round: 9, turn: "<b>x</b>", step: "", headline: "<img src=x onerror=window.__pwned=3>", timer: null,
        rows: [{name: "<img src=x onerror=window.__pwned=4>", side: "foes", who: "NPC", acting: false, marks: [], numbers: null, band: "hurt"}]}}));
    }""")
    expect(target.locator(".enc-p-row .enc-name")).to_have_text("<img src=x onerror=window.__pwned=4>", timeout=60_000)  # eight phones share the cores
    expect(target.locator(".enc-players img")).to_have_count(0)
    assert target.evaluate("window.__pwned") is None
    foes = {c["name"] for c in state["combatants"] if c["side"] == "foes"}
    for phone in phones[1:-1]:
        only_the_players_view(phone, foes)
        assert not phone.errors
    assert not gm.errors
    context.close()


class WebDriver:
    """The few W3C WebDriver calls this test needs, to WebKitWebDriver over HTTP (no Selenium)."""

    def __init__(self, port: int):
        self.port = port
        self.session = ""

    def call(self, method: str, path: str, body=None):
        import urllib.request

        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", method=method, headers={"Content-Type": "application/json"},
                                         data=json.dumps(body).encode() if body is not None else None)
        with urllib.request.urlopen(request, timeout=60) as answer:
            return json.loads(answer.read())["value"]

    def run(self, script: str):
        return self.call("POST", f"/session/{self.session}/execute/sync", {"script": script, "args": []})


MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"


def test_webkitgtk_without_webrtc_says_a_phone_cannot_join_and_what_to_do(base_url, tmp_path):
    """WebKit is the engine of every iPhone browser. Debian's WebKitGTK (2.50, driven by its WebKitWebDriver
    under Xvfb) is built without WebRTC: RTCPeerConnection is not there, even with MiniBrowser's
    --enable-webrtc. A phone page opened there from a seat's code says in words that it cannot join and what
    to do instead. A WebKit with WebRTC would join: this test then skips, saying so."""
    import socket
    import time

    if not (shutil.which("WebKitWebDriver") and shutil.which("xvfb-run") and Path(MINIBROWSER).exists()):
        pytest.skip("WebKitGTK's WebKitWebDriver (webkit2gtk-driver), MiniBrowser and xvfb-run are needed")
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    driver = subprocess.Popen(["xvfb-run", "-a", "WebKitWebDriver", f"--port={port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)
    webkit = WebDriver(port)
    try:
        for _ in range(100):
            try:
                webkit.call("GET", "/status")
                break
            except OSError:
                time.sleep(0.1)
        webkit.session = webkit.call("POST", "/session", {"capabilities": {"alwaysMatch": {"webkitgtk:browserOptions": {
            "binary": MINIBROWSER, "args": ["--automation", "--enable-webrtc=true"]}}}})["sessionId"]
        # A seat's code, as a Chromium GM page writes it (tests/test_phone_code.py reads the same offer).
        code = "CAAACAIEIFRCWOIYMFRGGZDFMZTWQ2LKNNWG23TPOBYXE43UOV3C6K5AUGRKHJFFU2T2RKNKVOWK3LVPWCY3FM5UWW3LPOFZXK53ZPN6X4ARADZ4JQPFUK2MHWPI6ERUKZ4JVPGUGE"
        webkit.call("POST", f"/session/{webkit.session}/url", {"url": url(base_url) + "#join=" + code})
        if webkit.run("return typeof RTCPeerConnection") == "function":
            pytest.skip("this WebKitGTK has WebRTC: the join between Chromium and WebKit is not written yet")
        said = ""
        for _ in range(300):
            said = webkit.run("const s = document.querySelector('[data-players=status]'); return s ? s.textContent : ''")
            if "no WebRTC" in said:
                break
            time.sleep(0.1)
        assert said == ("This browser has no WebRTC, so it cannot join the GM's fight: open the GM's code in another browser "
                        "of this phone, or follow the players' window the GM shows."), said
        assert webkit.run("return location.hash") == "#phone"  # the code read and gone from the address
    finally:
        if webkit.session:
            webkit.call("DELETE", f"/session/{webkit.session}")
        os.killpg(driver.pid, signal.SIGTERM)
        driver.wait(timeout=30)


def test_where_no_connection_can_be_made_the_players_view_is_a_link_a_phone_scans(browser, base_url, tmp_path):
    """The fallback: the GM's tracker makes the players' view now into a link with its QR code; a phone that
    opens it shows the fight as it stood, with no connection, and says so. A link that was changed is refused in
    words."""
    context, gm = gm_page(browser, base_url, AT_VRASKAS_MAIN_STEP)
    steps = steps_of(gm)
    gm.click("[data-enc=phone-view-link]")
    address = zbar(gm.locator("[data-enc=view-link-qr]"), tmp_path)
    assert "#view=" in address
    expect(gm.locator("[data-enc=view-link-address]")).to_have_text(address)
    phone_context = browser.new_context(viewport={"width": 360, "height": 740})
    phone = phone_context.new_page()
    phone.goto(address)
    follows(phone, expected_view(stored(gm), steps))
    expect(phone.locator("[data-players=status]")).to_have_text(
        "The fight as it stood when the GM made this link: to see it as it is now, scan the GM's new link.")
    phone.goto(url(base_url) + "#view=AAAA<b>x</b>")
    expect(phone.locator("[data-players=status]")).to_have_text("This link cannot be shown: the link's view was cut short or changed.")
    phone_context.close()
    context.close()


def test_axe_finds_nothing_in_a_seat_nor_on_a_waiting_phone(browser, base_url, tmp_path):
    from support.axe import axe_violations

    context, gm = gm_page(browser, base_url, AT_VRASKAS_MAIN_STEP, bypass_csp=True)  # axe-core is put in as a script
    address = add_seat(gm, 1, tmp_path)
    gm.click("[data-enc=phone-view-link]")
    gm.locator("[data-enc=view-link-qr]").wait_for(timeout=10_000)
    assert axe_violations(gm) == []
    phone, _ = join(browser, address, tmp_path, bypass_csp=True)
    assert axe_violations(phone) == []
    context.close()
