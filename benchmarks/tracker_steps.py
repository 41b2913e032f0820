"""A tracker step's cost against the length of its history (issue 21).

Plays each tracker through the worker's entry point (`web.compute`, as the
page does: the state sent back as text, as answered) to 10, 100, 300, 1,000
and 3,000 actions, then times one more step and an undo there. The figure is
the fastest of many runs in CPU time (the machine is shared: the fastest is
the least disturbed). The figure is the worker's part, as the worker calls
it (the state's text beside the parameters); the page's own JSON.parse and
saving of the answer are not in it. The encounter keeps its last 150 log
entries and 30 undo records; the log entries and undo records are written
as text once, when made (calculators/history.py), so a step's cost should
not grow with the history at all. The goal, a ratio in one run: the step
after 1,000 and after 3,000 actions costs at most 1.25 times the step
after 10.

    .venv/bin/python -m benchmarks.tracker_steps
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

from calculators.runner import compact_json
from calculators.web import compute

ENCOUNTER = "tell_tale.encounter"
FIGHTERS = [
    {"do": "add", "name": "Vraska", "kind": "pc", "power": 3, "toughness": 3, "vitality": 60, "speed": 10, "initiative": 14},
    {"do": "add", "name": "Goblin", "kind": "npc", "power": 1, "toughness": 1, "vitality": 60, "speed": 8, "initiative": 12},
    {"do": "add", "name": "Mira", "kind": "pc", "power": 2, "toughness": 2, "vitality": 60, "speed": 12, "initiative": 10},
    {"do": "add", "name": "Ogre", "kind": "npc", "power": 5, "toughness": 5, "vitality": 60, "speed": 8, "initiative": 9},
]
RUNS = 40


def send(name: str, state: str, action: dict, seed: int = 1) -> tuple[dict, str]:
    answer = json.loads(ask(name, state, action, seed))
    if not answer["ok"]:
        raise ValueError(answer["error"])
    return answer, compact_json(answer["state"])


def ask(name: str, state: str, action: dict, seed: int = 1) -> str:
    """One step as the worker asks it (runtime/calc-worker.mjs): the state's text beside the parameters."""
    return compute("track:" + name, json.dumps({"action": json.dumps(action)}), seed, state)


def play(n: int, *, undo: bool = False) -> Iterator[tuple[dict, str]]:
    """An encounter played to about n actions, each step's state and its text: four combatants, then attacks,
    healing and turns, as at a table (and undo now and then, if asked; tests/test_history.py plays this)."""
    state, done, k = "", 0, 0
    for action in [*FIGHTERS, {"do": "start", "through": True}]:
        answer, state = send(ENCOUNTER, state, action)
        done += 1
    while done < n:
        k += 1
        current = answer["state"]
        actor = current["order"][current["turn"]]
        side = next(c["side"] for c in current["combatants"] if c["id"] == actor)
        foe = next(c["id"] for c in current["combatants"] if c["side"] != side)
        low = min(current["combatants"], key=lambda c: c["vitality"])
        turn = k % (4 if undo else 3)
        for action in ({"do": "attack", "attacker": actor, "target": foe} if turn == 1 else
                       {"do": "life", "target": low["id"], "amount": 6} if turn == 2 else
                       {"do": "undo"} if turn == 3 and k % 3 else {"do": "next", "through": True},
                       {"do": "next", "through": True}):
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


def fastest_ms(name: str, state: str, action: dict) -> float:
    """CPU time of one step from `state`, as the page sends it (the worker answered it last), fastest of RUNS."""
    times = []
    for _ in range(RUNS):
        send(name, state, {"do": "show"})  # the worker's last answer is this state again
        start = time.process_time()
        ask(name, state, action)  # the worker's part: the page reads the answer with its own JSON.parse
        times.append(time.process_time() - start)
    return min(times) * 1000


def main() -> int:
    print("| actions so far | state (characters) | a step (ms) | undo (ms) |\n|---|---|---|---|")
    steps = {}
    for n in (10, 100, 300, 1000, 3000):
        state = fight(n)
        live = next(c["id"] for c in json.loads(state)["combatants"] if c["vitality"] > 2)
        steps[n] = fastest_ms(ENCOUNTER, state, {"do": "life", "target": live, "amount": -1})
        undo = fastest_ms(ENCOUNTER, state, {"do": "undo"})
        print(f"| {n:,} | {len(state):,} | {steps[n]:.2f} | {undo:.2f} |")
    ratio = max(steps[1000], steps[3000]) / steps[10]
    # PASS or MISS as benchmarks/__main__.py reports its rows: a miss is a figure to read, and it does not
    # stop `make bench` before the page's own steps (benchmarks.page_steps) are timed.
    print(f"\n{'PASS' if ratio <= 1.25 else 'MISS'}  encounter step after 1,000 or 3,000 actions / after 10: {ratio:.2f} "
          f"(goal <= 1.25); after 1,000 / after 300: {steps[1000] / steps[300]:.2f} (the log is capped: it stops growing)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
