"""The page applies a step's changes as Python does: docs/assets/tracker-stream.js's applyChanges, run by Node on
what the worker's entry point answered over whole fights, gives Python's state after every step."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from support import ROOT, load_module
from support.encounter import FIGHT
from support.stream import ENCOUNTER, edited, strict

from calculators import runner
from calculators.stream import diff
from calculators.web import compute

pytestmark = pytest.mark.node


def applied_by_page(start: dict, steps: list[list], pairs: list | None = None) -> list[dict]:
    """tests/stream_runner.mjs: `steps` applied one after another from `start`, or each of `pairs` on its own."""
    node = shutil.which("node")
    assert node, "Node.js is needed (make setup installs the npm packages)"
    given_ = {"start": start, "steps": steps} if pairs is None else {"pairs": pairs}
    run = subprocess.run([node, "tests/stream_runner.mjs"], cwd=ROOT, input=json.dumps(given_),
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout)


def played(actions) -> tuple[dict, list[list], list[str]]:
    """Each (action, seed) sent as the page sends it, from the version the worker holds: the first state, each
    step's changes, and Python's state after each (as text, keys sorted)."""
    first = json.loads(compute("track:" + ENCOUNTER, json.dumps({"action": '{"do": "show"}'}), None, ""))
    version, steps, states = first["version"], [], []
    for action, seed in actions:
        answer = json.loads(compute("track:" + ENCOUNTER, json.dumps({"action": json.dumps(action), "version": version}), seed))
        assert not answer.get("stale")
        if answer["ok"]:
            version = answer["version"]
            steps.append(answer["changes"])
            states.append(strict(runner._sessions[ENCOUNTER][1]))
    return first["state"], steps, states


def test_the_pages_copy_is_pythons_state_after_every_step_of_the_scripted_fight_undone_and_redone():
    start, steps, states = played([*FIGHT, ({"do": "undo"}, None), ({"do": "undo"}, None), ({"do": "redo"}, None)])
    assert len(steps) == len(FIGHT) + 3
    assert [strict(s) for s in applied_by_page(start, steps)] == states


def test_the_pages_copy_is_pythons_state_over_a_long_fight_with_undos():
    """Past the log's 150 entries and the 30 undo records, so the log's and undo's splices drop their oldest."""
    bench = load_module("benchmarks/tracker_steps.py")
    start = json.loads(compute("track:" + ENCOUNTER, json.dumps({"action": '{"do": "show"}'}), None, ""))
    version, state, steps, states = start["version"], start["state"], [], []
    for k, action in enumerate([*bench.START, *range(1, 260)]):
        for choice in ([action] if isinstance(action, dict) else bench.choices(runner._sessions[ENCOUNTER][1], k, undo=True)):
            answer = json.loads(compute("track:" + ENCOUNTER, json.dumps({"action": json.dumps(choice), "version": version}), k))
            if answer["ok"]:
                version = answer["version"]
                steps.append(answer["changes"])
                states.append(strict(runner._sessions[ENCOUNTER][1]))
                break
    assert len(json.loads(states[-1])["log"]) == 150 and any(len(c.get("splice", [])) == 2 for s in steps for c in s)
    assert [strict(s) for s in applied_by_page(state, steps)] == states


def as_js(value: object) -> object:
    """The value as JavaScript holds it: one kind of number, so 1.0 is 1."""
    if isinstance(value, dict):
        return {k: as_js(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_js(v) for v in value]
    return int(value) if isinstance(value, float) and value.is_integer() else value


@settings(max_examples=5, phases=[Phase.explicit, Phase.generate])  # not shrunk: each example is a Node run
@given(st.lists(edited(), min_size=40, max_size=40))
def test_the_page_applies_any_changes_as_python_does(pairs):
    """Random states and edits of them (tests/test_stream.py's): each pair applied on its own, one Node run."""
    got = applied_by_page({}, [], pairs=[[before, diff(before, after)] for before, after in pairs])
    assert [strict(s) for s in got] == [strict(as_js(after)) for _, after in pairs]
