"""The rules of Tell-Tale, RPGDL TCG and Talislanta 5e as Python functions.

Each game is a package (`tell_tale`, `talislanta`, `rpgdl`) of small pure
functions with exact odds (`fractions.Fraction`), the reports that explain
a result to players, and its calculators' registry entries. `registry`
describes the calculators for the command line (`python -m calculators`)
and the web forms; `web.compute` is the browser's entry point; `checks`
holds the input checks and `fmt` the number formats every game shares.
"""

__all__ = ["registry", "tell_tale", "talislanta", "rpgdl", "checks", "dice", "fmt", "web"]
