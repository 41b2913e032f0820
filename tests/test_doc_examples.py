"""The worked examples in the rule pages run as doctests.

Every ```pycon fence of a page is a doctest; the fences of one page share
their names, top to bottom, so a page can set up a character once and use it
in later examples. Changing a number in the calculators makes a page fail.
"""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest
from support.helpers import DOCS, PAGES_WITH_EXAMPLES, examples


def test_pages_with_examples_exist():
    # Each game carries worked examples from its text.
    games = {p.relative_to(DOCS).parts[0] for p in PAGES_WITH_EXAMPLES}
    assert {"tell-tale", "talislanta", "rpgdl"} <= games


@pytest.mark.parametrize("page", PAGES_WITH_EXAMPLES, ids=lambda p: str(p.relative_to(DOCS)))
def test_examples_in_page(page: Path):
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    globs: dict = {}
    failures = []
    for line, source in examples(page):
        test = parser.get_doctest(source, globs, f"{page.name}:{line}", str(page), line - 1)
        out: list[str] = []
        result = runner.run(test, out=out.append, clear_globs=False)
        globs = test.globs  # DocTest works on a copy: carry the names on to the next fence
        if result.failed:
            failures.append("".join(out))
    assert not failures, "\n".join(failures)
