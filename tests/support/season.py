"""What the season tracker's tests share: two players' Nom Pools and decks,
five weeks of line-ups, the season as the Python package makes it from the
same actions (Mirror), a season two weeks in, and dice from a seed."""

from __future__ import annotations

import json
import random

from calculators import runner

SLOTS = ("godlike", "heavy", "middle", "light")


def pool(prefix: str) -> str:
    return "\n".join(f"{prefix}{d[0].upper()}{i}, {d.capitalize()}" for d in SLOTS for i in range(1, 6))


DECK = "\n".join(f"4 Card {i}" for i in range(10))


def r(name, division, worth, draw, votes="", bonus=""):
    return {"name": name, "division": division, "worth": str(worth), "draw": str(draw), "votes": str(votes), "bonus": str(bonus)}


# The five weeks: (Ana's line-up, Ben's, roll-offs typed or None for the page to roll).
WEEKS = {
    1: ([r("AG1", "godlike", 10, 3), r("AH1", "heavy", 8, 3), r("AM1", "middle", 6, 3), r("AL1", "light", 4, 3)],
        [r("BG1", "godlike", 9, 3), r("BH1", "heavy", 7, 3), r("BM1", "middle", 5, 3), r("BL1", "light", 3, 3)], None),
    # A tied Godlike duel with its roll-off typed; votes, another change and a Trainwreck by half the Draw.
    2: ([r("AG2", "godlike", 9, 3), r("AH2", "heavy", 6, 4, 2), r("AM2", "middle", 5, 2, "", -1), r("AL2", "light", 3, 2)],
        [r("BG2", "godlike", 9, 3), r("BH2", "heavy", 7, 2), r("BM2", "middle", 5, 1), r("BL2", "light", 2, 2)], "2 5"),
    # A Light duelist playing up in the Heavy slot; two ties the page rolls.
    3: ([r("AG3", "godlike", 8, 3), r("AL3", "light", 7, 1), r("AM3", "middle", 6, 2), r("AL4", "light", 4, 2)],
        [r("BG3", "godlike", 8, 3), r("BH3", "heavy", 5, 3), r("BM3", "middle", 4, 2), r("BL3", "light", 3, 2)], None),
    4: ([r("AG4", "godlike", 7, 3), r("AH4", "heavy", 7, 3), r("AM4", "middle", 7, 3), r("AL5", "light", 7, 3)],
        [r("BG4", "godlike", 6, 3), r("BH4", "heavy", 6, 3), r("BM4", "middle", 6, 3), r("BL4", "light", 6, 3)], None),
    5: ([r("AG5", "godlike", 5, 3), r("AH5", "heavy", 5, 3), r("AM5", "middle", 5, 3), r("AL1", "light", 5, 3)],
        [r("BG5", "godlike", 6, 3), r("BH5", "heavy", 6, 3), r("BM5", "middle", 6, 3), r("BL5", "light", 6, 3)], None),
}


class Mirror:
    """The season as the Python package makes it from the same actions and seeds."""

    def __init__(self):
        self.state = runner.track("rpgdl.season", "", json.dumps({"do": "show"}))["state"]

    def step(self, action, seed=None):
        answer = runner.track("rpgdl.season", json.dumps(self.state), json.dumps(action), seed)
        assert answer["ok"], answer
        self.state = answer["state"]
        return answer


def mid_season() -> str:
    mirror = Mirror()
    for who, name, prefix in (("first", "Ana", "A"), ("second", "Benedetta", "B")):
        mirror.step({"do": "player", "player": who, "name": name, "nom_pool": pool(prefix), "season_deck": DECK})
    for week in (1, 2):
        first, second, rolls = WEEKS[week]
        mirror.step({"do": "weekend", "week": week, "first": first, "second": second, **({"rolls": rolls} if rolls else {})})
    return json.dumps(mirror.state)


def dice(seed):
    rng = random.Random(seed)
    return lambda: (rng.randint(1, 6), rng.randint(1, 6))
