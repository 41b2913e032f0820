"""Tell-Tale's Flying and Reach: who can attack a flyer, and when a flyer is open to ground forces.

tt.keyword.flying lets a flyer pass over ground characters without Reach and
pick its targets; tt.mechanics.flying-landing opens it to ground forces once
it lands or attacks something on the ground; tt.keyword.reach lets a
character attack flyers and gives it an attack of opportunity on a flyer
passing over. tt.ruling.flying-reach says how the site applies them (the
encounter tracker follows it).
"""

from __future__ import annotations


def in_the_air(flying: bool, tapped: bool, landed: bool) -> bool:
    """A flyer is in the air unless it is tapped (kneeling, knocked down or detained: on the ground) or has landed."""
    return bool(flying) and not tapped and not landed


def can_attack(attacker_flying: bool, attacker_reach: bool, target_in_air: bool) -> bool:
    """Only a flyer or a character with Reach can attack a flyer in the air; anyone can attack what is on the ground."""
    return not target_in_air or bool(attacker_flying) or bool(attacker_reach)


def lands_by_attacking(attacker_in_air: bool, target_in_air: bool) -> bool:
    """A flyer in the air that attacks something on the ground lands: ground forces can attack it (until its next
    turn)."""
    return attacker_in_air and not target_in_air


def reach_opportunity(reach: bool, target_flying: bool, target_tapped: bool, target_vigilant: bool) -> str | None:
    """Why a Reach character gets no attack of opportunity on a flyer passing over it, or None when it gets one."""
    if not reach:
        return "only a character with Reach gets an attack of opportunity on a flyer passing over"
    if not target_flying or target_tapped:
        return "only a flyer in the air passes over"
    if target_vigilant:
        return "a vigilant flyer provokes no attacks of opportunity"
    return None
