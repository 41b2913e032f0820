"""Dice the player typed or asked the page to roll."""

from __future__ import annotations

import random
import re

from .checks import InputError, blank, die

__all__ = ["parse_dice", "roll_dice", "dice_or_roll"]


def parse_dice(raw: object, *, count: int, sides: int, label: str, field: str) -> tuple[int, ...]:
    """Read `count` dice of `sides` faces: an int, a tuple, or text like "14 7" or "14,7"."""
    if isinstance(raw, bool):
        raise InputError(f"{label}: type the number the die shows.", field)
    values: tuple[int, ...]
    if isinstance(raw, int):
        values = (raw,)
    elif isinstance(raw, (tuple, list)):
        values = tuple(raw)
    else:
        text = str(raw).strip()
        parts = [p for p in re.split(r"[\s,;/+.]+", text) if p]
        if not parts or not all(re.fullmatch(r"-?[0-9]{1,6}", p) for p in parts):  # ASCII digits: int() also reads "١٢"
            raise InputError(f"{label}: type the number{'s the dice show' if count > 1 else ' the die shows'}; got {text[:40]!r}.", field)
        values = tuple(int(p) for p in parts)
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise InputError(f"{label}: dice show whole numbers.", field)
    if len(values) != count:
        want = "one die" if count == 1 else f"{count} dice"
        raise InputError(f"{label}: this roll uses {want} (d{sides}); got {len(values)}.", field)
    for v in values:
        die(v, sides, field)
    return values


def roll_dice(rng: random.Random, *, count: int, sides: int) -> tuple[int, ...]:
    return tuple(rng.randint(1, sides) for _ in range(count))


def dice_or_roll(raw: object, rng: random.Random | None, *, count: int, sides: int, label: str,
                 field: str) -> tuple[int, ...]:
    """The typed dice, or dice rolled with `rng` when the field is empty."""
    if blank(raw):
        if rng is None:
            raise InputError(f"{label}: type what you rolled, or let the page roll for you.", field)
        return roll_dice(rng, count=count, sides=sides)
    return parse_dice(raw, count=count, sides=sides, label=label, field=field)
