"""The rules of Tell-Tale, RPGDL TCG and Talislanta 5e as Python functions.

Each game is one module (`tell_tale`, `talislanta`, `rpgdl`) of small pure
functions with exact odds (`fractions.Fraction`); `registry` describes them
for the command line (`python -m calculators`) and the web forms.
"""

__all__ = ["registry", "tell_tale", "talislanta", "rpgdl"]
