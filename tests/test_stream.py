"""A tracker step answers with what changed (calculators/stream.py): the worker keeps the state, the page keeps
a copy and applies each step's changes to it, and the copy is Python's state, step after step.

The page's own apply (docs/assets/tracker-stream.js) is checked against Python's in tests/test_stream_page.py.
"""

from __future__ import annotations

import copy
import json
import operator
import pickle

import pytest
from hypothesis import given
from support import load_module
from support.encounter import FIGHT
from support.stream import ENCOUNTER, edited, strict

from calculators import history, runner
from calculators.history import Record, compact_json, reverse_patch, state_length
from calculators.stream import apply, diff
from calculators.web import compute

@given(edited())
def test_applying_the_changes_gives_the_state_after_and_changes_neither(pair):
    before, after = pair
    before_text, after_text = strict(before), strict(after)
    changes = diff(before, after)
    json.dumps(changes)  # JSON-ready: what the worker posts
    assert strict(apply(changes, before)) == after_text
    assert strict(before) == before_text and strict(after) == after_text  # neither changed
    assert strict(apply(json.loads(json.dumps(changes)), json.loads(before_text))) == after_text  # as the page gets them


def test_no_change_is_no_changes_and_json_types_are_told_apart():
    state = {"a": [1, {"b": 2}], "rows": [{"id": "c1", "hp": 1}]}
    assert diff(state, json.loads(json.dumps(state))) == []
    for old, new in ((1, True), (1, 1.0), ([1], [True]), ({"x": 0}, {"x": False})):
        assert strict(apply(diff({"k": old}, {"k": new}), {"k": old})) == strict({"k": new})


def test_a_log_that_gains_a_line_and_loses_its_oldest_answers_only_those():
    log = [{"n": i, "text": f"line {i}"} for i in range(150)]
    changes = diff({"log": log}, {"log": [*log[1:], {"n": 150, "text": "line 150"}]})
    assert changes == [{"key": "log", "splice": [[0, 1, []], [149, 0, [{"n": 150, "text": "line 150"}]]]}]
    undone = diff({"log": [*log[1:], {"n": 150, "text": "line 150"}]}, {"log": log})  # the same step undone
    assert undone == [{"key": "log", "splice": [[0, 0, [log[0]]], [150, 1, []]]}]
    rows = [{"id": f"c{i}", "hp": 5} for i in range(4)]
    assert diff({"rows": rows}, {"rows": [*rows[:2], {"id": "c2", "hp": 4}, rows[3]]}) == [{"key": "rows", "put": [{"id": "c2", "hp": 4}]}]


# ---------------------------------------------------------------- the worker's sessions

def ask(name: str, action: dict, *, version: str | None = None, state: str | None = None, seed: int | None = 1) -> dict:
    params = {"action": json.dumps(action)} if version is None else {"action": json.dumps(action), "version": version}
    return json.loads(compute("track:" + name, json.dumps(params), seed, state))


class Page:
    """What tracker-stream.js does, in Python: a copy of the state and its version; each step sends the version
    and applies the changes, or sends the whole state once when the worker answers stale."""

    def __init__(self, name: str) -> None:
        self.name, self.state, self.version, self.resent, self.sent, self.back = name, None, None, 0, 0, 0

    def step(self, action: dict, seed: int | None = 1) -> dict:
        if self.version is not None:
            params = json.dumps({"action": json.dumps(action), "version": self.version})
            text = compute("track:" + self.name, params, seed)
            self.sent, self.back = len(params), len(text)
            answer = json.loads(text)
            if answer.get("stale"):
                self.resent += 1
                self.version = None
                return self.step(action, seed)
        else:
            state = compact_json(self.state) if self.state is not None else ""
            text = compute("track:" + self.name, json.dumps({"action": json.dumps(action)}), seed, state)
            self.sent, self.back = len(state) + len(action), len(text)
            answer = json.loads(text)
        if answer["ok"]:
            self.state = apply(answer.pop("changes"), self.state) if "changes" in answer else answer["state"]
            self.version = answer["version"]
        return answer


def held(name: str) -> str:
    return strict(runner._sessions[name][1])


def test_the_pages_copy_is_pythons_state_at_every_step_of_the_scripted_fight():
    page = Page(ENCOUNTER)
    for action, seed in FIGHT:
        answer = page.step(action, seed)
        assert answer["ok"], answer["error"]
        assert strict(page.state) == held(ENCOUNTER)
    assert page.resent == 0 and page.state["round"] >= 3
    undone = page.step({"do": "undo"})
    assert undone["ok"] and "base" in undone and strict(page.state) == held(ENCOUNTER)
    assert page.step({"do": "redo"})["ok"] and strict(page.state) == held(ENCOUNTER)


def test_a_long_fight_with_undos_sends_as_few_bytes_a_step_after_400_actions_as_after_12():
    """The page's copy stays Python's over 400 actions (a full log, full undo records, undos among the steps),
    and the bytes of a step (sent and answered) do not grow with the history, as the whole state did."""
    page = Page(ENCOUNTER)
    bench = load_module("benchmarks/tracker_steps.py")
    sizes = {}
    for action in bench.START:
        page.step(action)
    for k in range(1, 400):
        for action in bench.choices(page.state, k, undo=True):
            if page.step(action, k)["ok"]:
                break
        if k in (12, 388):
            assert strict(page.state) == held(ENCOUNTER)
            live = next(c["id"] for c in page.state["combatants"] if c["vitality"] > 2)
            page.step({"do": "life", "target": live, "amount": -1})
            sizes[k] = (page.sent, page.back, len(compact_json(page.state)))
    assert strict(page.state) == held(ENCOUNTER) and len(page.state["log"]) == 150
    (early_sent, early_back, early_state), (late_sent, late_back, late_state) = sizes.values()
    assert late_state > 5 * early_state  # the history did grow
    assert late_sent <= early_sent + 10 and late_back <= early_back * 1.25


def test_a_version_the_worker_does_not_hold_is_answered_stale_and_the_whole_state_sent_once_goes_on():
    page = Page(ENCOUNTER)
    for action, seed in FIGHT[:6]:
        page.step(action, seed)
    other = ask(ENCOUNTER, {"do": "show"}, state="")  # another state opened in the worker (an import, another tab)
    assert other["ok"] and other["version"] != page.version
    before = strict(page.state)
    stale = ask(ENCOUNTER, {"do": "next"}, version=page.version)
    assert not stale["ok"] and stale["stale"] and held(ENCOUNTER) == strict(other["state"])  # refused: nothing changed
    assert page.step(FIGHT[6][0], FIGHT[6][1])["ok"] and page.resent == 1
    assert strict(page.state) == held(ENCOUNTER) != before
    runner._sessions.clear()  # as a restarted worker: it holds nothing
    assert page.step({"do": "undo"})["ok"] and page.resent == 2 and strict(page.state) == held(ENCOUNTER)
    assert strict({**page.state, "redo": []}) == before  # the step undone, kept for redo
    assert ask(ENCOUNTER, {"do": "show"}, version="someone-else.1")["stale"]


def test_a_refused_step_changes_neither_the_session_nor_its_version():
    page = Page(ENCOUNTER)
    for action, seed in FIGHT[:4]:
        page.step(action, seed)
    version, state = page.version, held(ENCOUNTER)
    refused = page.step({"do": "attack", "attacker": "c1", "target": "nobody"})
    assert not refused["ok"] and not refused.get("stale")
    assert page.version == version == runner._sessions[ENCOUNTER][0] and held(ENCOUNTER) == state
    shown = ask(ENCOUNTER, {"do": "show"}, version=page.version)
    assert shown["ok"] and shown["changes"] == [] and shown["base"] == version


def test_a_season_follows_its_weeks_by_changes_too():
    page = Page("rpgdl.season")
    line = [{"name": f"A{i}", "division": d, "worth": 5, "draw": 1, "votes": 0, "bonus": 0}
            for i, d in enumerate(("godlike", "heavy", "middle", "light"))]
    for action in ({"do": "player", "player": "first", "name": "Ann"},
                   {"do": "weekend", "first": line, "second": [{**r, "name": "B" + r["name"]} for r in line]},
                   {"do": "undo"}, {"do": "redo"}):
        assert page.step(action, 3)["ok"]
        assert strict(page.state) == held("rpgdl.season")


class Touched:
    """The history items a step reads while it is on: identity checks made item by item (operator.is_, which
    stream.py and history.py map over two lists) and record texts read (history._TEXT)."""

    def __init__(self, monkeypatch) -> None:
        self.items = 0
        is_, text = operator.is_, history._TEXT

        def counted_is(a, b):
            self.items += 1
            return is_(a, b)

        def counted_text(record):
            self.items += 1
            return text(record)

        monkeypatch.setattr(operator, "is_", counted_is)
        monkeypatch.setattr(history, "_TEXT", counted_text)


def test_a_step_reads_as_few_history_items_with_a_full_log_as_with_a_short_one(monkeypatch):
    """A session's step (the worker holds the state) works out its changes, its undo record and the state's
    length from the log lines and undo records it adds and drops, not by passing over the 150 lines and 30
    records it keeps (history.Kept)."""
    page = Page(ENCOUNTER)
    bench = load_module("benchmarks/tracker_steps.py")
    for action in bench.START:
        page.step(action)
    touched = {}
    for k in range(1, 200):
        for action in bench.choices(page.state, k):
            if page.step(action, k)["ok"]:
                break
        if k in (8, 199):
            live = next(c["id"] for c in page.state["combatants"] if c["vitality"] > 2)
            with monkeypatch.context() as m:
                count = Touched(m)
                assert page.step({"do": "life", "target": live, "amount": -1})["ok"]
            touched[len(page.state["log"])] = count.items
    short, full = touched.pop(min(touched)), touched[150]
    assert strict(page.state) == held(ENCOUNTER) and page.resent == 0
    assert full <= short + 10, touched  # before: 515 items against 75


def test_a_kept_list_refuses_every_change_and_its_changes_are_those_the_general_way_finds():
    log = history.Kept(Record(n=i, text=f"line {i}") for i in range(12))
    for change in (lambda: log.append(1), lambda: log.__setitem__(0, 1), log.pop, log.clear, lambda: log.extend([1]), log.sort):
        with pytest.raises(TypeError, match="never changed"):
            change()
    assert copy.deepcopy({"log": log})["log"] is log and pickle.loads(pickle.dumps(log)) == log
    for dropped, added in ((0, 1), (1, 1), (3, 2), (2, 0), (0, 0)):
        new = history.Kept.grown(log, [Record(n=100 + i, text="new") for i in range(added)], len(log) + added - dropped)
        assert new.grown_from(log) == (dropped, added) and new.grown_from(list(log)) is None
        assert new == log[dropped:] + new[len(new) - added:]
        plain = list(new)
        assert diff({"log": log}, {"log": new}) == diff({"log": log}, {"log": plain})
        assert reverse_patch(log, new) == reverse_patch(log, plain)
        assert state_length({"log": new}) == state_length({"log": plain}) == len(compact_json({"log": new}))
