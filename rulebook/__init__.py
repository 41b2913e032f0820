"""The rule pages' markup, read with a real Markdown parser (markdown-it-py).

    r[tt.combat.attack-table] Attack table        a rule: ID, then its title (plain text)
    ruling[tt.ruling.adv-and-dis] Both at once    a ruling (boxed), same shape
    r[tt.keyword.trample] Trample | trample       a term, its other spellings after |
    [[tt.combat.attack-table]]                    a link, the rule's title as its text
    [[tt.combat.attack-table|the table]]          a link with text of its own
    {{ rule-index tt }}                           every rule of a game, by chapter
    ```calculator                                 a calculator's form (ends a rule)
    tell_tale.resolve_attack
    ```

A rule runs from its marker to the next marker, heading or calculator fence.
Markup inside code (fenced, indented or inline) stays text. Mistakes raise
`MarkupError`, which names the file and line.

No MkDocs in here. The Markdown extension `rulebook.extension` renders the
markup under any generator (rulebook/render.py, in one pass per page); the
finishing step `rulebook.site` makes what comes from the whole site; the
tests (tests/support/rulepages.py) and scripts/publish-rule-ids read the pages with
`read_docs`.
"""

from .book import REDIRECTS, Book, read_docs
from .markup import (CALCULATOR, GAME_NAMES, GAMES, LINK, TERM_KINDS, VALID_ID, CalculatorFence, Index, Link,
                     MarkupError, Page, Rule, Shortcode, short_url)
from .pages import read_page
from .terms import link_terms, term_pattern

__all__ = [
    "CALCULATOR", "GAMES", "GAME_NAMES", "LINK", "REDIRECTS", "TERM_KINDS", "VALID_ID",
    "Book", "CalculatorFence", "Index", "Link", "MarkupError", "Page", "Rule", "Shortcode",
    "link_terms", "read_docs", "read_page", "short_url", "term_pattern",
]
