"""The build's HTML, written in templates under rulebook/templates/ and rendered with autoescape.

No module of the build writes HTML in an f-string or escapes a value by hand: each renders a macro
of its template with plain values, and Jinja2 escapes every one of them as text (a title's `<`,
`&` or quote never becomes markup). A value that is HTML already (a link another macro drew, a
page's own text, a QR code's SVG) goes in as `Markup(...)`, which says so where it is passed.

A template whose output goes into Markdown or into one line of a built page is compiled with its
lines joined (`joined=True`, the default), so its indentation and line ends never reach the page:
a space between two attributes is written inside a line. A whole page (the short links) keeps its
lines.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from jinja2 import Environment, StrictUndefined, Template
from markupsafe import Markup

FOLDER = Path(__file__).parent / "templates"
_ENV = Environment(autoescape=True, undefined=StrictUndefined, keep_trailing_newline=True)


@functools.cache
def template(name: str, joined: bool = True) -> Template:
    """templates/<name>, compiled once (its lines joined unless `joined` is False)."""
    source = (FOLDER / name).read_text(encoding="utf-8")
    if joined:
        source = "".join(line.strip() for line in source.splitlines())
    return _ENV.from_string(source)


def macro(name: str, which: str, *args: Any, **kwargs: Any) -> str:
    """One macro of templates/<name> (lines joined), every value escaped as text."""
    return str(getattr(template(name).module, which)(*args, **kwargs))


def page(name: str, **values: Any) -> str:
    """A whole template (lines kept), every value escaped as text."""
    return template(name, joined=False).render(**values)


__all__ = ["FOLDER", "Markup", "macro", "page", "template"]
