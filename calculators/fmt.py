"""Numbers as players read them: signed modifiers, fractions, percentages.

The one place that turns numbers into text for a result's sentences and the
command line's odds table. Odds stay exact `Fraction`s everywhere else; the
web page formats its own percentages from the `percent` floats that
`percent_value` gives the JSON answer.
"""

from __future__ import annotations

from fractions import Fraction

__all__ = ["signed", "fraction", "ratio", "about", "chance", "percent", "percent_value"]


def signed(n: int) -> str:
    """A modifier with its sign: +3, -2, +0."""
    return f"{n:+d}"


def fraction(p: Fraction | int) -> str:
    """An exact number: 5/2, or 3 when it is whole."""
    return str(Fraction(p))


def ratio(p: Fraction) -> str:
    """A probability as numerator/denominator, always both: 1/4, 1/1."""
    return f"{p.numerator}/{p.denominator}"


def about(p: Fraction | int) -> str:
    """A number as players read it, the decimal first and the exact fraction second:
    111/40 -> "about 2.77 (111/40)"; a decimal that is exact in two places needs no fraction:
    5/2 -> "2.5"; a whole number is itself: 3."""
    p = Fraction(p)
    if p.denominator == 1:
        return str(p.numerator)
    if (p * 100).denominator == 1:  # ends within two places: the decimal is exact
        return f"{float(p):.2f}".rstrip("0")
    return f"about {float(p):.2f} ({p.numerator}/{p.denominator})"


def chance(p: Fraction) -> str:
    """A probability, the percentage first and the exact odds second: 3/20 -> "15.0% (3/20)";
    a certainty or an impossibility is its percentage alone: "100.0%", "0.0%"."""
    return percent(p) if p.denominator == 1 else f"{percent(p)} ({p.numerator}/{p.denominator})"


def percent_value(p: Fraction) -> float:
    """A probability in percent, as a float: 1/8 -> 12.5."""
    return float(p * 100)


def percent(p: Fraction, places: int = 1, width: int = 0) -> str:
    """A probability in percent: 12.5%; `width` pads the number for a column."""
    return f"{percent_value(p):{width or ''}.{places}f}%"
