"""Players' phones on loopback: the sizes of the codes, their QR versions, the time from the last scan to the
first view, and the bytes a step costs on the channel.

Each run: the GM's tracker (a saved fight of four combatants at its first main step) adds a seat; a phone (a
context of its own) opens the seat's address and answers; the GM types the answer and presses Connect, and the
clock runs from that press (the last scan) to the phone's first message; then ten taps on Next, each sent to
the phone as what it changed in the players' view (players-view.js). Sizes are of the codes as the pages write
them (base32: 5 bits a character) and of the JSON messages as sent; a QR code's version is (its modules per
side - 17) / 4, read from the SVG the page drew.

    .venv/bin/python -m benchmarks.phones     (after make build)
"""

from __future__ import annotations

import json
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SITE = Path(os.environ.get("BENCH_SITE") or os.environ.get("SITE_DIR") or ROOT / "site").resolve()
sys.path.insert(0, str(ROOT / "tests"))
from support.encounter_page import STORE, python_step  # noqa: E402
from support.server import BLANK, serve  # noqa: E402

from benchmarks.fights import FOUR  # noqa: E402
from tests.support.browser import CHROMIUM_FLAGS, chromium_path  # noqa: E402

RUNS = int(os.environ.get("BENCH_RUNS", "5"))
FIGHT = [
    *FOUR,
    {"do": "start"}, {"do": "next"}, {"do": "next"}, {"do": "next"},
]
# What a phone receives and when: every message of every data channel, with Date.now() (one clock for all
# contexts of one browser on one machine).
RECORD = """(() => {
  window.__got = [];
  const make = RTCPeerConnection.prototype.createDataChannel;
  RTCPeerConnection.prototype.createDataChannel = function (...args) {
    const channel = make.apply(this, args);
    channel.addEventListener("message",
      (event) => window.__got.push([Date.now(), event.data.length, JSON.parse(event.data).type]));
    return channel;
  };
})();"""
VERSION = "(box) => (Number(box.querySelector('svg').dataset.modules) - 17) / 4"


def one_run(browser, base: str, state: dict, n: int) -> dict:
    context = browser.new_context(service_workers="block", bypass_csp=True)  # the waits below are evaluated strings
    gm = context.new_page()
    gm.goto(base + BLANK)
    gm.evaluate("([k, v]) => localStorage.setItem(k, v)", [STORE, json.dumps(state)])
    gm.goto(base + "tell-tale/encounter/")
    gm.locator(".tracker-status", has_text="Ready").wait_for(timeout=60_000)
    gm.click("[data-enc=phone-add]")
    seat = gm.locator("[data-seat='1']")
    seat.locator("[data-seat-qr]").wait_for(timeout=10_000)
    address = seat.locator("[data-seat-offer]").text_content()
    offer = address.split("#join=")[1]
    phone_context = browser.new_context(service_workers="block", bypass_csp=True)
    phone_context.add_init_script(RECORD)
    phone = phone_context.new_page()
    phone.goto(address)
    phone.locator("[data-phone=qr]").wait_for(timeout=10_000)
    answer = phone.locator("[data-phone=code]").text_content()
    out = {"offer": len(offer), "answer": len(answer), "address": len(address),
           "answer address": len(address.split("#")[0]) + 8 + len(answer),
           "offer QR": seat.locator("[data-seat-qr]").evaluate(VERSION),
           "answer QR": phone.locator("[data-phone=qr]").evaluate(VERSION)}
    gm.fill("[data-seat='1'] [data-seat-answer]", answer)
    pressed = gm.evaluate("() => { const t = Date.now(); "
                          "document.querySelector(\"[data-seat='1'] [data-seat-connect]\").click(); return t; }")
    phone.wait_for_function("window.__got.length > 0", timeout=20_000)
    out["scan to view (ms)"] = phone.evaluate("window.__got[0][0]") - pressed
    phone.wait_for_function(
        "document.querySelector('[data-players=status]').textContent === \"Following the GM's fight.\"")
    before = phone.evaluate("window.__got.length")
    logged = "(key) => JSON.parse(localStorage.getItem(key) || 'null')?.log?.length ?? 0"
    for _ in range(10):
        n = gm.evaluate(logged, STORE)
        gm.click("[data-enc=next]")
        gm.wait_for_function(f"([key, n]) => ({logged})(key) > n", arg=[STORE, n], timeout=10_000)
    phone.wait_for_function("(n) => window.__got.length >= n", arg=before + 10, timeout=10_000)
    # a step's changes, not a spare offer
    sizes = [size for _, size, kind in phone.evaluate("window.__got")[before:] if kind == "step"]
    out["bytes per step"] = statistics.median(sizes)
    phone_context.close()
    context.close()
    return out


def main() -> int:
    if not (SITE / "tell-tale" / "encounter" / "index.html").exists():
        print("Build the site first: make build", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    state = None
    for action in FIGHT:
        state = python_step(state, action, 1)["state"]
    server, base = serve(SITE)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
            runs = [one_run(browser, base, state, n) for n in range(RUNS)]
            browser.close()
    finally:
        server.shutdown()
    print(f"address: {base}tell-tale/encounter/ ({RUNS} runs; medians, and the range)")
    for key in runs[0]:
        values = [r[key] for r in runs]
        print(f"{key}: {statistics.median(values):g} ({min(values):g} to {max(values):g})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
