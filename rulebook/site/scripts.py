"""Our JavaScript as the browser gets it: without its comments.

The page scripts (docs/assets/*.js) and the worker's modules (runtime/*.mjs)
explain themselves at length, and every byte of the ones a calculator page
loads comes before its first result. The site's copies leave the comments
out and change nothing else: every other character stays where it was on
its line, a line left empty by a comment goes, and a comment between two
tokens becomes one space. What is code and what is a comment is read with
the language's rules for strings, template literals (`${…}` nested to any
depth) and regular expressions; tests/test_scripts.py checks the result
with TypeScript's parser: the same tokens, in the same order, for every
shipped file. Linear in the text's length: one pass, no backtracking.
"""

from __future__ import annotations

# After one of these, a "/" starts a regular expression, not a division.
_REGEX_AFTER_CHAR = set("(,=:[!&|?{};+-*%<>~^")
_REGEX_AFTER_WORD = {"return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void",
                     "throw", "instanceof", "yield", "await"}


class ScriptError(ValueError):
    """The text ends inside a string, a template, a regular expression or a comment."""


def js_without_comments(text: str) -> str:
    """`text` (JavaScript) with its comments left out, as the module docstring says."""
    out: list[str] = []
    i, n = 0, len(text)
    # Where the code between braces is a template's `${…}`: the depth of braces at which it closes.
    templates: list[int] = []
    depth = 0
    last = ";"  # the last significant character of code (at the start, as after a statement)
    word = ""  # the last identifier or keyword, if it is the last token

    def word_end(j: int) -> int:
        """Where the identifier, keyword or number (or a regular expression's flags) at j ends."""
        while j < n and (text[j].isalnum() or text[j] in "_$"):
            j += 1
        return j

    def skip_string(start: int, quote: str) -> int:
        j = start + 1
        while j < n:
            c = text[j]
            if c == "\\":
                j += 2
                continue
            if c == quote:
                return j + 1
            if c == "\n":
                break
            j += 1
        raise ScriptError(f"a string opened at character {start} does not close on its line")

    def skip_template(start: int) -> tuple[int, bool]:
        """From just after a ` or a template's closing }: the end of this run of text, and whether
        a ${ opened there (else the template closed)."""
        j = start
        while j < n:
            c = text[j]
            if c == "\\":
                j += 2
                continue
            if c == "`":
                return j + 1, False
            if c == "$" and j + 1 < n and text[j + 1] == "{":
                return j + 2, True
            j += 1
        raise ScriptError(f"a template literal opened before character {start} does not close")

    def skip_regex(start: int) -> int:
        j, in_class = start + 1, False
        while j < n:
            c = text[j]
            if c == "\\":
                j += 2
                continue
            if c == "\n":
                break
            if in_class:
                in_class = c != "]"
            elif c == "[":
                in_class = True
            elif c == "/":
                return word_end(j + 1)  # its flags
            j += 1
        raise ScriptError(f"a regular expression opened at character {start} does not close on its line")

    def drop(start: int, end: int) -> None:
        """A comment from start to end: left out, with one space where it parted two tokens; the line
        ends inside it stay, so each line of the result stands for the same line of the text."""
        before = text[start - 1] if start else "\n"
        after = text[end] if end < n else "\n"
        if not before.isspace() and not after.isspace():
            out.append(" ")
        out.append("\n" * text.count("\n", start, end))

    while i < n:
        c = text[i]
        if c == "/" and i + 1 < n and text[i + 1] == "/":
            end = text.find("\n", i)
            end = n if end < 0 else end
            drop(i, end)
            i = end
            continue
        if c == "/" and i + 1 < n and text[i + 1] == "*":
            end = text.find("*/", i + 2)
            if end < 0:
                raise ScriptError(f"a comment opened at character {i} does not close")
            drop(i, end + 2)
            i = end + 2
            continue
        if c in "'\"":
            j = skip_string(i, c)
            out.append(text[i:j])
            i, last, word = j, c, ""
            continue
        # A template's text runs from its ` to its end or to a ${, and again from the } that closes it.
        closes_template = c == "}" and bool(templates) and templates[-1] == depth - 1
        if c == "`" or closes_template:
            if closes_template:
                templates.pop()
                depth -= 1
            j, opened = skip_template(i + 1)
            out.append(text[i:j])
            if opened:
                templates.append(depth)
                depth += 1
            last, word = ("{" if opened else "`"), ""
            i = j
            continue
        if c == "/" and (last in _REGEX_AFTER_CHAR or word in _REGEX_AFTER_WORD):
            j = skip_regex(i)
            out.append(text[i:j])
            i, last, word = j, "/", ""
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        if c.isalnum() or c in "_$":
            j = word_end(i)
            out.append(text[i:j])
            word = text[i:j]
            last = word[-1]
            i = j
            continue
        out.append(c)
        if not c.isspace():
            last, word = c, ""
        i += 1
    if templates:
        raise ScriptError("a template literal's ${…} does not close")
    lines = "".join(out).split("\n")
    kept = []
    for source, line in zip(text.split("\n"), lines, strict=True):
        if line == source:
            kept.append(line)
        elif line.strip():
            kept.append(line.rstrip())
    return "\n".join(kept)
