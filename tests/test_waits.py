"""No browser test reads the page's state once where it could wait for it.

`assert locator.text_content() == "Saved"` reads the page at one moment: on
a loaded machine the page may not have drawn it yet, and the test fails for
reasons other than the code. Every such read has a Playwright assertion that
waits for the state instead (`expect(locator).to_have_text("Saved")`), so an
`assert` holding one of these calls is refused here, in the tests and their
support package alike. Reads that measure (`page.evaluate` of sizes, of
the saved state after `wait_for_log`) are left alone: the page offers no
assertion to wait with, and CONTRIBUTING.md asks for one `evaluate` over many
reads; a test waits for what it reads before it reads it.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).parent

# Locator (and Page) reads, each with the `expect` assertion that waits instead.
WAITS_INSTEAD = {
    "text_content": "to_have_text / to_contain_text",
    "inner_text": "to_have_text / to_contain_text(..., use_inner_text=True)",
    "all_text_contents": "to_have_text([...])",
    "all_inner_texts": "to_have_text([...], use_inner_text=True)",
    "is_visible": "to_be_visible / to_be_hidden",
    "is_hidden": "to_be_hidden / to_be_visible",
    "is_checked": "to_be_checked / not_to_be_checked",
    "is_enabled": "to_be_enabled / to_be_disabled",
    "is_disabled": "to_be_disabled / to_be_enabled",
    "is_editable": "to_be_editable",
    "get_attribute": "to_have_attribute",
    "input_value": "to_have_value",
    "count": "to_have_count",  # Locator.count() takes no argument; str.count and list.count take one
}
# The engine set's tabs (tests/support/engines.py) read the page the same way, with no `expect` to wait with:
# `tab.wait(expression, what)` waits for an expression of the page instead.
ENGINE_READS = {"text": "Tab.wait(expression, what)"}  # Tab.text(selector); Playwright's Response.text() takes no argument
WAITS_INSTEAD.update(ENGINE_READS)


def once_reads(source: str) -> list[tuple[int, str]]:
    """(line, call) of each read in an `assert` that an `expect` assertion would wait for."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Assert):
            continue
        for sub in ast.walk(node.test):
            if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and sub.func.attr in WAITS_INSTEAD:
                if sub.func.attr == "count" and (sub.args or sub.keywords):
                    continue
                if sub.func.attr in ENGINE_READS and not sub.args:
                    continue
                found.append((node.lineno, sub.func.attr))
    return found


def test_the_check_finds_a_once_read_and_passes_a_wait():
    once = (
        "assert page.locator('.x').text_content() == 'Saved'\n"
        "assert not form.locator('[role=alert]').is_visible(), 'shown'\n"
        "assert rows.count() == 4\n"
        "assert 'id' in field.get_attribute('aria-describedby')\n"
        "assert tab.text('.calc-headline').startswith('Full')\n"  # an engine tab's read
    )
    assert [call for _, call in once_reads(once)] == ["text_content", "is_visible", "count", "get_attribute", "text"]
    waits = (
        "expect(page.locator('.x')).to_have_text('Saved')\n"
        "assert told.count(',') == 2\n"  # a string's count, not a locator's
        "assert stored(page) == state\n"
        "name = form.get_attribute('id')\n"  # not an assertion
        "assert response.text() == body\n"  # Playwright's Response.text(): what came, not the page
    )
    assert once_reads(waits) == []


def test_no_test_asserts_on_a_read_of_the_page_it_could_wait_for():
    found = [
        f"{path.relative_to(TESTS)}:{line}: {call}() (expect(...).{WAITS_INSTEAD[call]} waits for it)"
        for path in sorted(TESTS.rglob("*.py"))
        for line, call in once_reads(path.read_text(encoding="utf-8"))
    ]
    assert not found, "an assert reads the page once; wait with Playwright's expect instead:\n" + "\n".join(found)
