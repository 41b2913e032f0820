"""Comments say what is true now: no issue numbers, and no name of a project file that does not exist.

Git keeps the history (`git log -S`, `git blame`); a comment that cites an issue sends the reader to a
tracker instead of saying why the line is as it is, and a comment that names a file that is gone sends
them nowhere. Both are checked over every tracked source file and the two guides (README.md,
CONTRIBUTING.md), comments and strings alike: a string that names a file is read by someone too.
"""

from __future__ import annotations

import re
import subprocess

import pytest

from tests.support import ROOT

# The project's code and the prose that describes it; the rule pages (docs/<game>/*.md) speak to players.
CHECKED = re.compile(r"\.(py|js|mjs|css|html|toml|yml|cfg)$|^Makefile$|^scripts/|^(README|CONTRIBUTING)\.md$")

# An issue's number, with or without "#"; an upstream report is cited by its address instead.
ISSUE = re.compile(r"\bissues? ?#?\d", re.IGNORECASE)

# A path inside the project: it starts with one of its top folders and ends in a word character. A path
# followed by `*`, `<`, `{` or `\` is a pattern (`encounter*.py`, `tests/test_<game>.py`, a regex), not a name.
PROJECT_PATH = re.compile(
    r"(?<![\w./-])((?:benchmarks|calculators|docs|hooks|overrides|rulebook|runtime|scripts|templates|tests|types)"
    r"/[\w./-]*\w)(?!\w|[*<{\\]|[./-]\w)"
)

# Written by `make lint` (calculators/typescript.py), not kept in git.
GENERATED = {"types/trackers.d.ts"}


def tracked() -> list[str]:
    """The files git keeps, as paths from the project's root."""
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return out.splitlines()


def issue_citations(text: str) -> list[tuple[int, str]]:
    """(line, the line) of each line that cites an issue by its number."""
    return [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1) if ISSUE.search(line)]


def missing_paths(text: str, files: set[str]) -> list[tuple[int, str]]:
    """(line, path) of each project path in `text` that names neither a file nor a folder of `files`.

    `templates/x.html` is looked for under rulebook/ and overrides/ too, and `tests/support/encounter.f`
    (a module and a name in it) as the module's file."""
    folders = {str(parent) for name in files for parent in _parents(name)}
    found = []
    for n, line in enumerate(text.splitlines(), 1):
        for match in PROJECT_PATH.finditer(line):
            path = match.group(1).rstrip(".")
            if path in GENERATED:
                continue
            candidates = [path, path.rsplit(".", 1)[0] + ".py"]
            if path.startswith("templates/"):
                candidates += [f"rulebook/{path}", f"overrides/{path}"]
            if not any(c in files or c in folders for c in candidates):
                found.append((n, path))
    return found


def _parents(name: str) -> list[str]:
    parts = name.split("/")
    return ["/".join(parts[:i]) for i in range(1, len(parts))]


def checked_files() -> list[str]:
    return [name for name in tracked() if CHECKED.search(name) and (ROOT / name).is_file()]


@pytest.fixture(scope="module")
def sources() -> dict[str, str]:
    return {name: (ROOT / name).read_text(encoding="utf-8") for name in checked_files()}


def test_no_comment_cites_an_issue(sources: dict[str, str]) -> None:
    found = [f"{name}:{n}: {line}" for name, text in sources.items() for n, line in issue_citations(text)]
    assert not found, "Say what is true now; git keeps the history:\n" + "\n".join(found)


def test_no_comment_names_a_missing_file(sources: dict[str, str]) -> None:
    files = set(tracked())
    found = [f"{name}:{n}: {path}" for name, text in sources.items() for n, path in missing_paths(text, files)]
    assert not found, "These files do not exist:\n" + "\n".join(found)


def test_the_checks_find_what_they_look_for() -> None:
    files = {"hooks/rule_markup.py", "rulebook/templates/forms.html", "tests/support/encounter.py"}
    text = (
        "# see hooks/rule_markup.py and hooks/trackers.py (iss" "ue 16)\n"
        "// drawn by templates/forms.html, once templates/gm_fill.html\n"
        "# tests/support/encounter.random_from_spec; calculators/tell_tale/encounter*.py; tests/test_<game>.py\n"
        "/* Iss" "ue #31: a switch */\n"
        "# an issue with 3 dice, not a number\n"
    )
    assert missing_paths(text, files) == [(1, "hooks/trackers.py"), (2, "templates/gm_fill.html")]
    assert [n for n, _ in issue_citations(text)] == [1, 4]
