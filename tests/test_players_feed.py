"""The players' view follows the GM's tracker by changes (docs/assets/players-view.js): whole once, then each step
as what changed, to the players' window and to each player's phone. Node runs the GM's feed and a follower
(tests/players_feed_runner.mjs) over a fight's views: the follower holds each view the GM sent, a step sends only
the rows it changed, and a follower that missed a step, or was sent changes that make no view, draws nothing wrong
and asks for the whole view once."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from support import ROOT

pytestmark = pytest.mark.node

NAMES = ["Vraska", "Goblin", "Mira", "Ogre", "Kara", "Wolf"]


def row(name: str, k: int, acting: bool) -> dict:
    party = NAMES.index(name) % 2 == 0
    return {"name": name, "side": "party" if party else "foes", "who": "Player character" if party else "Creature",
            "acting": acting, "marks": ["poisoned"] if k % 7 == 0 else [],
            "numbers": [["Power", "3"], ["Tough.", f"{3 - k % 3}/3"], ["Vitality", f"{60 - k}/60"], ["−1/−1", "0"]] if party else None,
            "band": None if party else ("bloodied" if k > 20 else "unhurt")}


def fight(steps: int) -> list[dict]:
    """The players' views of a fight of six, one a step: each step one combatant is hurt and the turn moves on."""
    views, hurt = [], dict.fromkeys(NAMES, 0)
    for k in range(steps):
        hurt[NAMES[k % 6]] += 1
        actor = NAMES[(k + 1) % 6]
        views.append({"v": 1, "phase": "combat", "round": 1 + k // 6, "turn": actor, "step": "Attack",
                      "headline": f"Step {k}: {NAMES[k % 6]} is hurt.", "timer": None,
                      "rows": [row(n, hurt[n], n == actor) for n in NAMES]})
    return views


def followed(views: list[dict], drop: tuple[int, ...] = (), forged: dict[int, object] | None = None) -> list[dict]:
    node = shutil.which("node")
    assert node, "Node.js is needed (make setup installs the npm packages)"
    run = subprocess.run([node, "tests/players_feed_runner.mjs"], cwd=ROOT, capture_output=True, text=True, timeout=120,
                         input=json.dumps({"views": views, "drop": list(drop), "forged": forged or {}}))
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout)


def test_a_follower_holds_each_view_the_gm_sent_and_a_step_sends_only_what_changed():
    views = fight(60)
    out = followed(views)
    assert [o["held"] for o in out] == views and not any(o["asked"] for o in out)
    assert out[0]["sent"] == out[0]["whole"]  # the first message is the whole view
    steps = [o["sent"] for o in out[1:]]
    assert max(steps) <= out[-1]["whole"] / 2, (steps, out[-1]["whole"])  # two rows of six, the turn, the headline
    assert max(steps[-10:]) <= max(steps[:10]) + 20  # flat in the length of the fight


def test_a_follower_that_missed_a_step_draws_nothing_from_the_next_and_asks_once_for_the_whole_view():
    views = fight(20)
    out = followed(views, drop=(8,))
    assert out[8]["drawn"] is None and out[8]["held"] == views[7] and not out[8]["asked"]  # lost: it knows nothing yet
    assert out[9]["drawn"] is None and out[9]["asked"]  # a step from a view it does not hold: not applied
    assert [o["held"] for o in out[9:]] == views[9:] and sum(o["asked"] for o in out) == 1


@pytest.mark.parametrize("forged", [
    {"type": "step", "base": "test.5", "version": "test.6", "changes": [{"key": "rows", "splice": [[0, 1, [{"name": "x" * 500}]]]}]},
    {"type": "step", "base": "test.5", "version": "test.6", "changes": [{"key": "rows", "splice": [[0, 99999, []]]}]},
    {"type": "step", "base": "test.5", "version": "test.6", "changes": [{"key": "__proto__", "value": {"rows": 1}}]},
    {"type": "step", "base": "test.5", "version": "test.6", "changes": [{"key": "v", "value": 2}]},
    {"type": "step", "base": "test.5", "version": "test.6", "changes": [{"key": "round", "value": -1}]},
    {"type": "step", "base": "test.5", "version": "test.6", "changes": {"key": "round"}},
    {"type": "step", "base": "test.5", "version": "x" * 100, "changes": []},
    {"type": "view", "version": "test.6", "view": {"v": 1, "rows": "all"}},
])
def test_changes_that_make_no_view_this_page_draws_are_refused_and_the_whole_view_asked_for(forged):
    """What comes from a peer is checked before it is used: changes of the wrong shape, or that make a view
    checkView refuses, draw nothing, and the follower asks for the whole view; a whole view refused is ignored,
    and the next step, from a view the follower does not hold, asks for it."""
    views = fight(10)
    out = followed(views, forged={5: forged})
    assert out[5]["drawn"] is None
    assert (out[5]["asked"], out[5]["held"]) == ((True, views[5]) if forged["type"] == "step" else (False, views[4]))
    assert [o["held"] for o in out[6:]] == views[6:]
