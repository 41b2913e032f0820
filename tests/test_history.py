"""A tracker's history: records written once, a state's text from them, and a
step whose work does not grow with the history it carries.

The work is counted, not timed: the characters a step passes through the
JSON writer and reader, at a short history and a long one, in one run.
"""

from __future__ import annotations

import copy
import json
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import load_module
from support.encounter import FIGHT

from calculators import history, runner
from calculators.checks import InputError
from calculators.history import Record, apply_patch, compact_json, reverse_patch, state_text
from calculators.web import compute

ENCOUNTER = "tell_tale.encounter"
def test_a_record_refuses_every_change_and_copies_as_itself():
    r = Record(n=1, text="Vraska attacks", details=["a", "b"])
    assert r == {"n": 1, "text": "Vraska attacks", "details": ["a", "b"]} and r.text == compact_json(dict(r))
    for change in (lambda: r.__setitem__("n", 2), lambda: r.__delitem__("n"), r.clear, lambda: r.pop("n"), r.popitem,
                   lambda: r.setdefault("x", 1), lambda: r.update(n=3), lambda: r.__ior__({"n": 4})):
        with pytest.raises(TypeError, match="never changed"):
            change()
    assert r == {"n": 1, "text": "Vraska attacks", "details": ["a", "b"]}
    assert copy.copy(r) is r and copy.deepcopy({"log": [r]})["log"][0] is r
    back = pickle.loads(pickle.dumps(r))
    assert back == r and isinstance(back, Record) and back.text == r.text
    assert history.records([r, {"n": 2}])[0] is r and isinstance(history.records([{"n": 2}])[0], Record)


def step_json(name: str, state: str, action: dict, seed: int | None = 1) -> tuple[dict, str]:
    """One step as the worker takes it (the state beside the parameters); the answer and the state's text."""
    text = compute("track:" + name, json.dumps({"action": json.dumps(action)}), seed, state)
    answer = json.loads(text)
    assert answer["ok"], (action, answer["error"])
    return answer, runner._answered[name]


def long_fight(n: int):
    """An encounter played to about n actions with undo now and then (the benchmark's fight): each state and its
    text as the worker wrote it."""
    for state, _ in load_module("benchmarks/tracker_steps.py").play(n, undo=True):
        yield state, runner._answered[ENCOUNTER]


def test_the_state_text_is_the_states_compact_json_and_no_record_changes_over_a_long_fight():
    """Past the log's 150 entries and the 30 undo records, with undos among the steps: every state the worker
    answers is written as compact_json writes it, and each record's text is still its contents' (none was changed
    after it was made)."""
    seen = 0
    for state, text in long_fight(400):
        assert text == compact_json(state)
        seen += 1
    kept = runner._answered_state[ENCOUNTER][1]
    assert len(kept["log"]) == 150 and len(kept["undo"]) >= 29 and seen >= 390  # full, less an undo at the end
    for r in kept["log"] + kept["undo"]:
        assert isinstance(r, Record) and r.text == compact_json(dict(r))
    assert runner._answered[ENCOUNTER] == state_text(kept)


def weekend(first_worths):
    def line(prefix, worths):
        return [{"name": f"{prefix}{i}", "division": d, "worth": w, "draw": 1, "votes": 0, "bonus": 0}
                for i, (d, w) in enumerate(zip(("godlike", "heavy", "middle", "light"), worths))]
    return {"do": "weekend", "first": line("A", first_worths), "second": line("B", (5, 5, 5, 5))}


def test_the_scripted_fight_and_a_season_keep_records_whose_text_is_their_contents():
    state = ""
    for action, seed in FIGHT:
        _, state = step_json(ENCOUNTER, state, action, seed)
    kept = runner._answered_state[ENCOUNTER][1]
    assert kept["log"] and all(isinstance(r, Record) and r.text == compact_json(dict(r)) for r in kept["log"] + kept["undo"])
    assert state == compact_json(kept)
    state = ""
    for action in ({"do": "player", "player": "first", "name": "Ann"}, weekend((9, 7, 5, 3)), weekend((1, 9, 9, 9)),
                   {"do": "undo"}, weekend((6, 6, 6, 6)), weekend((5, 5, 5, 5))):
        _, state = step_json("rpgdl.season", state, action, 3)
        kept = runner._answered_state["rpgdl.season"][1]
        assert state == compact_json(kept) and all(isinstance(r, Record) and r.text == compact_json(dict(r)) for r in kept["log"])
    assert len(kept["log"]) == 4 and kept["result"]["weeks_played"] == 3


def test_the_worker_may_send_the_state_beside_the_parameters_or_inside_them():
    state = ""
    for action, seed in FIGHT[:8]:
        inside = compute("track:" + ENCOUNTER, json.dumps({"state": state, "action": json.dumps(action)}), seed)
        beside = compute("track:" + ENCOUNTER, json.dumps({"action": json.dumps(action)}), seed, state)
        inside_answer, beside_answer = json.loads(inside), json.loads(beside)
        assert inside_answer.pop("version") != beside_answer.pop("version")  # each answer is a new session's state
        assert inside_answer == beside_answer and inside_answer["ok"]
        state = runner._answered[ENCOUNTER]
    refused = json.loads(compute("track:" + ENCOUNTER, json.dumps({"action": '{"do": "show"}'}), None, "{" * 100))
    assert not refused["ok"] and "nested too deep" in refused["error"]


class Counted:
    """The characters the JSON writer writes and the reader reads while it is on."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.chars = 0
        dumps, loads = json.dumps, json.loads

        def counted_dumps(*a, **k):
            out = dumps(*a, **k)
            self.chars += len(out)
            return out

        def counted_loads(text, *a, **k):
            self.chars += len(text)
            return loads(text, *a, **k)

        monkeypatch.setattr(json, "dumps", counted_dumps)
        monkeypatch.setattr(json, "loads", counted_loads)


def test_a_steps_json_work_does_not_grow_with_the_history(monkeypatch):
    """A step sent as the worker sends it (the state it answered last, beside the parameters) reads
    and writes about as much JSON once the log is full (about 220 actions in: a full log and undo history, over 5
    times the state's length) as after 12. Before, it read and wrote the whole state three times a step."""
    work = {}
    for state, text in long_fight(400):
        if len(state["log"]) in (12, 150) and len(state["log"]) not in work:
            live = next(c["id"] for c in state["combatants"] if c["vitality"] > 2)
            params = json.dumps({"action": json.dumps({"do": "life", "target": live, "amount": -1})})
            with monkeypatch.context() as m:
                counted = Counted(m)
                answer_text = compute("track:" + ENCOUNTER, params, 5, text)
                chars = counted.chars
            assert json.loads(answer_text)["ok"]
            work[len(state["log"])] = (chars, len(text))  # the fight goes on from `text`, read and checked again
            if len(work) == 2:
                break  # both measured: the log first full (about 220 actions in)
    (short, short_len), (long, long_len) = work[12], work[150]
    assert long_len > 5 * short_len, work
    assert long < 1.5 * short, work


# ---------------------------------------------------------------- one undo design: the reverse patch

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text("ab", max_size=2),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text("abc", max_size=2), inner, max_size=4),
    max_leaves=25,
)


@given(json_values, json_values)
def test_the_reverse_patch_of_any_two_values_turns_the_second_back_into_the_first(before, after):
    patch = reverse_patch(before, after)
    assert patch is not None or before == after
    back = after if patch is None else apply_patch(after, patch)
    # exactly: == takes False for 0, and an undo that gave back false for 0 would change a saved state
    assert json.dumps(back, sort_keys=True) == json.dumps(before, sort_keys=True)
    assert json.loads(json.dumps(patch)) == patch  # JSON-ready: it is saved with the state


def test_a_reverse_patch_tells_false_from_0():
    """A list that dropped its first item and gained one: found as such when the items are false and 0
    (Python's == takes them as equal), and every value given back exactly."""
    assert reverse_patch([False, 0], [0, None]) == ["[", {"front": [False], "back": 1}]
    assert reverse_patch([True, 1.0, 1], [1, None]) == ["[", {"front": [True, 1.0], "back": 1}]
    for before, after in (([False, 0], [0, None]), ([0], [False]), ({"a": [1]}, {"a": [True]}), ([[0], 1], [[False], 1])):
        patch = reverse_patch(before, after)
        assert patch is not None
        assert json.dumps(apply_patch(after, patch)) == json.dumps(before)


@given(st.lists(json_values, max_size=12, unique_by=json.dumps), st.integers(0, 4), st.lists(json_values, max_size=3))
def test_a_log_that_drops_its_oldest_and_adds_at_its_end_keeps_only_those_in_its_patch(log, dropped, added):
    """A log that keeps its last entries (each one different, as numbered entries are): the patch holds the
    entries dropped and the count added, never the entries kept."""
    after = log[dropped:] + added
    patch = reverse_patch({"log": log}, {"log": after})
    assert (apply_patch({"log": after}, patch) if patch else {"log": after}) == {"log": log}
    if log[dropped:] and added:
        assert patch == ["{", {"log": ["[", {**({"front": log[:dropped]} if dropped else {}), "back": len(added)}]}]


@given(st.lists(json_values, max_size=12, unique_by=json.dumps), st.integers(1, 4), st.lists(json_values, max_size=3))
def test_a_log_with_entries_put_back_at_its_front_keeps_only_their_count_in_its_patch(log, put_back, added):
    """The same log the other way round (the step undone: its redo record): entries put back at the front and
    those added at the end taken off. The patch counts the entries put back and holds those taken off, never
    the entries kept."""
    before = log[put_back:] + added
    patch = reverse_patch({"log": before}, {"log": log})
    assert (apply_patch({"log": log}, patch) if patch else {"log": log}) == {"log": before}
    if log[put_back:] and added and not {json.dumps(a) for a in added} & {json.dumps(e) for e in log}:
        assert patch == ["{", {"log": ["[", {"cut": put_back, "tail": added}]}]


def test_an_undo_once_the_log_is_full_writes_a_redo_record_as_small_as_the_step():
    """Past the log's 150 entries, a step drops the oldest; its undo puts it back at the front. The redo record
    holds the step's own line and what it changed, not the whole log shifted by one."""
    *_, (_, state) = long_fight(300)
    before = json.loads(state)
    assert len(before["log"]) == 150
    hit = {"do": "life", "target": before["combatants"][0]["id"], "amount": -1}
    _, stepped = step_json(ENCOUNTER, state, hit)
    answer, undone = step_json(ENCOUNTER, stepped, {"do": "undo"})
    redo = answer["state"]["redo"][-1]
    assert json.loads(undone)["log"] == before["log"]
    assert len(compact_json(redo)) < 2 * len(compact_json(json.loads(stepped)["log"][-1])) + 300, redo
    assert redo["change"][1]["log"] == ["[", {"cut": 1, "tail": [json.loads(stepped)["log"][-1]]}]


@given(json_values, st.recursive(st.none() | st.integers() | st.text(max_size=3) | st.sampled_from(["=", "{", "[", "-"]),
                                 lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["cut", "front", "at", "tail", "back", "0", "a"]), inner, max_size=4),
                                 max_leaves=20))
def test_a_hostile_patch_is_refused_in_words_or_applied_never_an_exception(value, patch):
    try:
        apply_patch(value, patch)
    except InputError as err:
        assert str(err).startswith("An undo record is not readable")


def test_a_patch_that_nests_past_any_state_is_refused():
    patch: list = ["=", 1]
    for _ in range(40):
        patch = ["{", {"a": patch}]
    value: dict = {}
    inner = value
    for _ in range(40):
        inner["a"] = {}
        inner = inner["a"]
    with pytest.raises(InputError, match="nests too deep"):
        apply_patch(value, patch)
