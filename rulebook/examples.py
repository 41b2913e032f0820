"""Worked examples: doctests in the source, a collapsed, checked example on the page.

The rule pages' worked examples are ```pycon fences that pytest runs as
doctests (tests/test_doc_examples.py), so the prose and the calculators
cannot drift apart. Players should not be shown Python, though: each fence
becomes a collapsed pymdownx.details block with a title in player words,
at the fence's own indentation (a fence in a list stays in its item), and
its code is kept out of the search index:

    ??? example "Checked example: what the calculator answers"

        ``` { .pycon data-search-exclude="" }
        >>> ...
        ```

The source is untouched; only the Markdown handed to Python-Markdown
changes (rulebook/render.py, last: a fence in a ruling's box, indented with
the box's body, is folded at that indentation and stays in the box).
"""

from __future__ import annotations

import re

from .markup import MarkupError

# ---------------------------------------------------------------- data

# An opening fence: indentation, 3 or more backticks (none after them) or
# tildes, info string.
OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}(?=[^`]*$)|~{3,})[ \t]*(?P<info>[^\s`]*)")
PYCON = "pycon"
BODY_INDENT = "    "  # a details block's body, as for any admonition
# Kept out of the search index too, or search results would quote the code.
PYCON_ATTRS = '{ .pycon data-search-exclude="" }'

# Titles in player words: what the block is, never what language it is in;
# the same in a rule and in a ruling.
TITLE = "Checked example: what the calculator answers"
TITLE_WITH_REFUSALS = "Checked example: what the calculator answers, and what it refuses"


# ---------------------------------------------------------------- helpers


def _closes(line: str, fence: str) -> bool:
    """Whether `line` closes a fence opened with `fence` (CommonMark's rule)."""
    stripped = line.strip()
    return stripped.startswith(fence) and set(stripped) == {fence[0]}


def check_examples(markdown: str, src: str) -> None:
    """A MarkupError naming the line of a ```pycon fence that is never closed (run on the page as written)."""
    fold_examples(markdown, src)


def fold_examples(markdown: str, src: str) -> str:
    """Each ```pycon fence of the page folded into a collapsed example; other fences as they are."""
    lines = markdown.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        m = OPEN.match(lines[i])
        if not m:
            out.append(lines[i])
            i += 1
            continue
        end = next((j for j in range(i + 1, len(lines)) if _closes(lines[j], m["fence"])), None)
        if end is None and m["info"] == PYCON:
            raise MarkupError(src, i + 1, "a ```pycon fence is never closed")
        end = len(lines) - 1 if end is None else end  # any other fence runs to the end, as in CommonMark
        block = lines[i:end + 1]
        if m["info"] == PYCON:
            out += _details(block, m["indent"], out)
        else:
            out += block  # any other fence, pycon-looking text inside it included, stays as it is
        i = end + 1
    return "\n".join(out)


def _details(block: list[str], indent: str, before: list[str]) -> list[str]:
    """The fence `block`, wrapped in a collapsed details block at `indent`."""
    title = TITLE_WITH_REFUSALS if any("Traceback (most recent call last)" in line for line in block) else TITLE
    head = [] if not before or not before[-1].strip() else [""]  # a block starts after a blank line
    body = [indent + BODY_INDENT + _dedent(line, len(indent)) if line.strip() else "" for line in block]
    body[0] = body[0].replace(PYCON, PYCON_ATTRS, 1)
    return head + [f'{indent}??? example "{title}"', ""] + body + [""]


def _dedent(line: str, width: int) -> str:
    """`line` without up to `width` leading spaces (a fence's content may sit further left)."""
    return line[min(width, len(line) - len(line.lstrip())):]
