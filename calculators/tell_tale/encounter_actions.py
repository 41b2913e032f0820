"""Which Tell-Tale encounter actions ask something of whoever takes them, declared once.

The handlers refuse anyone who lacks it (encounter_fight, encounter_effects),
and the page offers each action, actor and die only where they apply: the
encounter's vocabulary publishes both tables (encounter.vocabulary()).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .encounter_state import Combatant

# Who may take an action that not everyone can: a combatant with any one of these
# keywords ("planeswalker": a planeswalker PC). The handlers refuse anyone else
# (encounter_fight, encounter_effects), and the page offers each action only to
# those who may take it (encounter.vocabulary()).
ACTION_NEEDS = {
    "charge": ("trample",),  # tt.keyword.trample
    "first_strike": ("first-strike", "double-strike"),  # tt.keyword.first-strike, tt.ruling.opportunist-attacks
    "reach": ("reach",),  # tt.keyword.reach
    "extort": ("extort",),  # tt.keyword.extort
    "ability": ("planeswalker",),  # tt.planeswalker.abilities
}
# The dice an action asks for only of some: [whose keywords decide, the keywords]. A second
# attack roll is Double Strike's (tt.keyword.double-strike); the enemy's opposed d20 is
# rolled when the enemy coming in range strikes first too (tt.mechanics.first-strike-meeting).
DICE_NEEDS = {
    "second_d20": ("actor", ("double-strike",)),
    "second_crit_d4": ("actor", ("double-strike",)),
    "target_d20": ("target", ("first-strike", "double-strike")),
}


def may_take(c: Combatant, action: str) -> bool:
    """Whether `c` has what ACTION_NEEDS asks of whoever takes `action` (any action not listed: yes)."""
    needs = ACTION_NEEDS.get(action)
    return needs is None or any(c["planeswalker"] if k == "planeswalker" else k in c["keywords"] for k in needs)
