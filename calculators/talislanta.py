"""Placeholder: filled in by the calculators work."""

__all__ = ["CALCULATORS"]

CALCULATORS = ()
