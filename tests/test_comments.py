"""Comments say what is true now: no issue numbers.

Git keeps the history (`git log -S`, `git blame`); a comment that cites an issue sends the reader to a tracker
instead of saying why the line is as it is. Checked over every tracked source file and the two guides (README.md,
CONTRIBUTING.md), comments and strings alike. (That no comment names a missing file is
tests/test_forms_markup.py's `test_no_file_names_a_project_file_that_does_not_exist`.)
"""

from __future__ import annotations

import re
import subprocess

from support import ROOT

# The project's code and the prose that describes it; the rule pages (docs/<game>/*.md) speak to players.
CHECKED = re.compile(r"\.(py|js|mjs|css|html|toml|yml|cfg)$|^Makefile$|^scripts/|^(README|CONTRIBUTING)\.md$")

# An issue's number, with or without "#"; an upstream report is cited by its address instead.
ISSUE = re.compile(r"\bissues? ?#?\d", re.IGNORECASE)


def issue_citations(text: str) -> list[tuple[int, str]]:
    """(line, the line) of each line that cites an issue by its number."""
    return [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1) if ISSUE.search(line)]


def test_no_comment_cites_an_issue() -> None:
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    sources = [name for name in listed if CHECKED.search(name) and (ROOT / name).is_file()]
    assert len(sources) > 100
    found = [f"{name}:{n}: {line}" for name in sources
             for n, line in issue_citations((ROOT / name).read_text(encoding="utf-8"))]
    assert not found, "Say what is true now; git keeps the history:\n" + "\n".join(found)


def test_the_issue_check_finds_a_citation() -> None:
    text = (
        "# a switch, one tap where a menu took two (iss" "ue 31)\n"  # in parts: this file cites no issue
        "/* Iss" "ue #7: axe-core's rules */\n"
        "# an issue with 3 dice, not a number\n"
        "# https://github.com/pyodide/pyodide/issues/6254\n"
    )
    assert [n for n, _ in issue_citations(text)] == [1, 2]
