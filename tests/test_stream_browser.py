"""On the page, a tracker step sends the action and the version of the state the worker holds, not the state
(docs/assets/tracker-stream.js): the state goes whole once, when the page hands it in (read from the device at
the start), and the page's copy, saved whole after each step, is Python's state (support.encounter_page.play
compares them after every step)."""

from __future__ import annotations

import json

from support.encounter import FIGHT
from support.encounter_page import SEEDS, one_step_at_a_time, open_page, play
from support.helpers import BOOT, PHONE


# The length of each tracker step's parameters the page posts to the worker, in order.
COUNT_SENT = """(() => {
  const post = Worker.prototype.postMessage;
  window.__trackSent = [];
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message && message.type === "compute" && String(message.name).startsWith("track:")) window.__trackSent.push(JSON.stringify(message.params).length);
    return post.call(this, message, ...rest);
  };
})();"""
SMALL = 400  # characters: an action and a version; a fight's state is thousands


def test_a_step_on_the_page_sends_its_action_and_a_version_and_the_state_goes_whole_once_after_a_reload(browser, base_url):
    context = browser.new_context(**PHONE)
    context.add_init_script(SEEDS)
    context.add_init_script(COUNT_SENT)
    one_step_at_a_time(context)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_page(page, base_url)
    state = play(page, FIGHT[:24], None)
    state_chars = len(json.dumps(state, separators=(",", ":")))
    assert state_chars > 10 * SMALL
    sent = page.evaluate("window.__trackSent")
    assert len(sent) >= 24 and max(sent[4:]) < SMALL, sent  # the first steps: a new encounter, whole while small

    page.reload()
    page.locator(".tracker-status", has_text="Ready").wait_for(timeout=BOOT)
    state = play(page, FIGHT[24:30], state)
    sent = page.evaluate("window.__trackSent")
    whole = [n for n in sent if n >= SMALL]
    assert len(whole) == 1 and whole[0] >= state_chars and sent.index(whole[0]) == 0, sent  # the saved one, checked
    assert len(sent) >= 7 and not errors, errors
    context.close()
