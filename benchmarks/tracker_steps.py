"""A tracker step's cost, and the bytes it sends, against the length of its history.

Plays the encounter through the worker's entry point (`web.compute`) to 10,
100, 300, 1,000 and 3,000 actions, then times one more step and an undo
there, as the page sends them: the version of the state the worker holds,
answered with what changed (runner.track_json, calculators/stream.py). The
figure is the fastest of many runs in CPU time (the machine is shared: the
fastest is the least disturbed), and is the worker's part, as the worker
calls it; the page's JSON.parse of the answer and its saving of the state
are not in it. The encounter keeps its last 150 log entries and 30 undo
records, so a step's cost should not grow with the history at all. Beside
it, the bytes of that step (what the page posts, and the answer) and of the
same step sent the older way, the whole state each way.

The goals (benchmarks/goals.py, rows 8): the step after 1,000 and after
3,000 actions costs at most 1.10 times the step after 10, and the bytes the
step after 1,000 sends at most 1.10 times those after 10; its answer's
bytes are reported (once the log is full, it also carries the line the log
drops, which the undo record keeps).

    .venv/bin/python -m benchmarks.tracker_steps
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

from benchmarks.fights import FOUR
from benchmarks.goals import TABLE
from calculators import runner
from calculators.runner import compact_json
from calculators.web import compute

ENCOUNTER = "tell_tale.encounter"
# The benchmark fights' four, each with Vitality enough to last 1,000 actions.
FIGHTERS = [{**add, "vitality": 60} for add in FOUR]
RUNS = 40


def send(name: str, state: str, action: dict, seed: int = 1) -> tuple[dict, str]:
    answer = json.loads(ask(name, state, action, seed))
    if not answer["ok"]:
        raise ValueError(answer["error"])
    return answer, compact_json(answer["state"])


def ask(name: str, state: str, action: dict, seed: int = 1) -> str:
    """One step as the worker asks it (runtime/calc-worker.mjs): the state's text beside the parameters."""
    return compute("track:" + name, json.dumps({"action": json.dumps(action)}), seed, state)


START = [*FIGHTERS, {"do": "start", "through": True}]


def choices(current: dict, k: int, *, undo: bool = False) -> tuple[dict, dict]:
    """The k-th action of a fight played on from `current`, as at a table: an attack, healing or a turn (and an
    undo now and then, if asked); then Next, should the first be refused."""
    actor = current["order"][current["turn"]]
    side = next(c["side"] for c in current["combatants"] if c["id"] == actor)
    foe = next(c["id"] for c in current["combatants"] if c["side"] != side)
    low = min(current["combatants"], key=lambda c: c["vitality"])
    turn = k % (4 if undo else 3)
    return ({"do": "attack", "attacker": actor, "target": foe} if turn == 1 else
            {"do": "life", "target": low["id"], "amount": 6} if turn == 2 else
            {"do": "undo"} if turn == 3 and k % 3 else {"do": "next", "through": True},
            {"do": "next", "through": True})


def play(n: int, *, undo: bool = False) -> Iterator[tuple[dict, str]]:
    """An encounter played to about n actions, each step's state and its text: four combatants, then `choices`
    (tests/test_history.py plays this)."""
    state, done, k = "", 0, 0
    for action in START:
        answer, state = send(ENCOUNTER, state, action)
        done += 1
    while done < n:
        k += 1
        for action in choices(answer["state"], k, undo=undo):
            try:
                answer, state = send(ENCOUNTER, state, action, k)
            except ValueError:
                continue
            done += 1
            yield answer["state"], state
            break


def fight(n: int) -> str:
    """An encounter's text after about n actions (play)."""
    last = ""
    for step in play(n):
        last = step[1]
    return last


def hand_in(name: str, state: str) -> str:
    """The worker made to hold `state` (a text it answered: read, not checked again), as the page's first step
    after a restart does; the session's version."""
    answer = json.loads(ask(name, state, {"do": "show"}))
    if not answer["ok"]:
        raise ValueError(answer["error"])
    return answer["version"]


def step_params(action: dict, version: str) -> str:
    """The parameters of a step the page sends from the state the worker holds (tracker-stream.js)."""
    return json.dumps({"action": json.dumps(action), "version": version})


def fastest_ms(name: str, steps: list[tuple[str, dict]]) -> list[float]:
    """CPU time of each step (from its state, as the page sends it: the version the worker holds), the fastest of
    RUNS. The steps take turns, one run of each a round, so a change in the shared machine's load falls on all of
    them alike (timed one after the other, the first read 0.87 and 1.16 of the last in two runs of the same code).
    Each run starts from the state object the worker held, as a page's next step does. Read again from its text
    before each run instead (a reload before every step), the step after 1,000 actions cost 1.15 times the step
    after 10 on 2026-12-07, where held it cost 1.03 to 1.04: the reading of a 65 kB state, not the step, made
    the difference."""
    times: list[list[float]] = [[] for _ in steps]
    held = []
    for state, _action in steps:  # each state read once, as the page's first step after a reload sends it
        hand_in(name, state)
        held.append(runner._sessions[name])
    for _ in range(RUNS):
        for (_state, action), session, each in zip(steps, held, times, strict=True):
            runner._sessions[name] = session  # the state the worker held before the step, as between a page's steps
            params = step_params(action, session[0])
            start = time.process_time()
            # the worker's part: the page reads the answer with its own JSON.parse
            answer = compute("track:" + name, params, 1)
            each.append(time.process_time() - start)
            if not json.loads(answer)["ok"]:
                raise ValueError(json.loads(answer)["error"])
    return [min(each) * 1000 for each in times]


def step_bytes(name: str, state: str, action: dict) -> tuple[int, int, int, int]:
    """A step's bytes (UTF-8), page to worker and back: as the page sends it now (the version; the changes back)
    and as it did before (the whole state each way). The request as the page posts it: the parameters' JSON."""
    params = step_params(action, hand_in(name, state))
    now_back = compute("track:" + name, params, 1)
    whole_sent = json.dumps({"state": state, "action": json.dumps(action)})
    whole_back = compute("track:" + name, json.dumps({"action": json.dumps(action)}), 1, state)
    return tuple(len(text.encode()) for text in (params, now_back, whole_sent, whole_back))  # type: ignore[return-value]


def main() -> int:
    print("| actions so far | state (characters) | a step (ms) | undo (ms) | step sent / answered (bytes) | "
          "the whole state each way, as before (bytes) |\n|---|---|---|---|---|---|")
    lengths = (10, 100, 300, 1000, 3000)
    states = {n: fight(n) for n in lengths}
    hits = {}
    for n, state in states.items():
        live = next(c["id"] for c in json.loads(state)["combatants"] if c["vitality"] > 2)
        hits[n] = {"do": "life", "target": live, "amount": -1}
    timed = fastest_ms(ENCOUNTER, [(states[n], action) for n in lengths for action in (hits[n], {"do": "undo"})])
    steps, undos = dict(zip(lengths, timed[::2], strict=True)), dict(zip(lengths, timed[1::2], strict=True))
    sizes = {}
    for n, state in states.items():
        sent, back, whole_sent, whole_back = step_bytes(ENCOUNTER, state, hits[n])
        sizes[n] = (sent, back)
        print(f"| {n:,} | {len(state):,} | {steps[n]:.2f} | {undos[n]:.2f} | {sent:,} / {back:,} "
              f"| {whole_sent:,} / {whole_back:,} |")
    runner._sessions.clear()
    # PASS or MISS as benchmarks/__main__.py reports its rows: a miss is a figure to read, and it does not
    # stop `make bench` before the page's own steps (benchmarks.page_steps) are timed.
    print()
    print(TABLE["tracker step"].row(max(steps[1000], steps[3000]) / steps[10]))
    print(f"      after 1,000 / after 300: {steps[1000] / steps[300]:.2f} (the log is capped: it stops growing)")
    print(TABLE["tracker step bytes"].row(sizes[1000][0] / sizes[10][0]))
    print(TABLE["tracker answer bytes"].row(sizes[1000][1] / sizes[10][1]))
    print(f"      sent / answered: {sizes[10][0]:,} / {sizes[10][1]:,} bytes after 10 actions, "
          f"{sizes[1000][0]:,} / {sizes[1000][1]:,} after 1,000, {sizes[3000][0]:,} / {sizes[3000][1]:,} after 3,000")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
