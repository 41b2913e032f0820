"""The `rulebook` package on its own: the markup read by a real Markdown
parser (code stays text, links placed to the character, errors with file and
line), term links and rule text from rendered HTML, and no MkDocs."""

from __future__ import annotations

import subprocess
import sys

import pytest
from support.rulepages import DOCS, ROOT, rule_pages

from calculators.games import GAMES
from rulebook import Book, MarkupError, Rule, link_terms, read_page

PAGE = """# Combat

Intro with `[[tt.no.such]]` in code.

## Attacks

r[tt.combat.roll] Attack roll | roll, attack
Roll a d20; see [[tt.combat.table|the table]] and [[tt.combat.table]].

```text
r[tt.combat.fake] Not a rule
[[tt.no.such]]
```

    [[tt.no.such]] indented code

| a | [[tt.combat.roll]] |
|---|---|
| [[tt.combat.roll]] | [[tt.combat.roll]] |

ruling[tt.ruling.table] Which table
**The text:** a. **Ruling:** b. **Alternative:** c.

```calculator
tell_tale.resolve_attack
```

After the form.

r[tt.combat.table] Attack table
The bands.
"""


def test_rules_links_and_calculators_of_a_page():
    page = read_page(PAGE, "tell-tale/combat.md")
    assert page.title == "Combat"
    assert [(r.id, r.title, r.ruling, r.line, r.end, r.level, r.section) for r in page.rules] == [
        ("tt.combat.roll", "Attack roll", False, 7, 20, 3, "Attacks"),
        ("tt.ruling.table", "Which table", True, 21, 23, 3, "Attacks"),  # the calculator fence (24) ends it
        ("tt.combat.table", "Attack table", False, 30, 32, 3, "Attacks"),
    ]
    assert page.rules[0].aliases == ("roll", "attack")
    assert page.rules[1].body == "**The text:** a. **Ruling:** b. **Alternative:** c.\n"
    assert [(c.name, c.line, c.level) for c in page.calculators] == [("tell_tale.resolve_attack", 24, 3)]
    # Outside code only, each placed on the exact characters, table cells included.
    assert [(link.id, link.text, link.line) for link in page.links] == [
        ("tt.combat.table", "the table", 8), ("tt.combat.table", None, 8),
        ("tt.combat.roll", None, 17), ("tt.combat.roll", None, 19), ("tt.combat.roll", None, 19)]
    for link in page.links:
        assert PAGE[link.start:link.end].startswith("[[") and PAGE[link.start:link.end].endswith("]]")
    assert len({link.start for link in page.links}) == len(page.links)


@pytest.mark.parametrize(("text", "line", "words"), [
    ("# A\n\nr[TT.x] Title\n", 3, "malformed rule ID 'TT.x'"),
    ("# A\n\nr[tt.a.b]\n", 3, "rule tt.a.b has no title"),
    ("# A\n\ntext\n\nr[tt.a.b] Bold <b>x</b>\n", 5, "has HTML in it"),
    ("# A\n\n{{ rule-index xx }}\n", 3, f"rule-index needs one of {', '.join(g.prefix for g in GAMES)}, got xx"),
])
def test_a_mistake_names_its_file_and_line(text, line, words):
    with pytest.raises(MarkupError) as err:
        read_page(text, "tell-tale/a.md")
    assert str(err.value).startswith(f"tell-tale/a.md:{line}: ") and words in str(err.value)


def test_a_book_refuses_duplicates_unknown_links_and_stray_ids():
    book = Book()
    book.add(read_page("# A\n\nr[tt.a.one] One\n[[tt.a.two]]\n", "tell-tale/a.md"))
    with pytest.raises(MarkupError, match=r"^tell-tale/a\.md:4: link to unknown rule ID tt\.a\.two$"):
        book.check()
    with pytest.raises(MarkupError, match=r"^tell-tale/b\.md:5: rule ID tt\.a\.one is used twice: also at tell-tale/a\.md:3$"):
        book.add(read_page("# B\n\nr[tt.b.x] X\n\nr[tt.a.one] Again\n", "tell-tale/b.md"))
    with pytest.raises(MarkupError, match=r"^tell-tale/c\.md:5: rule ID tt\.c\.x is used twice: on this page, at lines 3 and 5$"):
        Book().add(read_page("# C\n\nr[tt.c.x] X\n\nr[tt.c.x] Y\n", "tell-tale/c.md"))
    with pytest.raises(MarkupError, match=r"rpgdl\.a\.x: a rpgdl\. rule lives in docs/rpgdl/"):
        Book().add(read_page("# D\n\nr[rpgdl.a.x] X\n", "tell-tale/d.md"))


def test_front_matter_keeps_the_line_numbers():
    page = read_page("---\ntitle: x\n---\n# A\n\nr[tt.a.b] B\n", "tell-tale/a.md")
    assert page.title == "A" and page.rules[0].line == 6


RENDERED = """<h1 id="combat">Combat</h1>
<h2 class="rule" id="tt.combat.roll">Attack roll</h2>
<p class="rule-id"><a href="#tt.combat.roll">tt.combat.roll</a></p>
<p>A Fighter&rsquo;s roll; a Fighter again. <code>Fighter</code> <strong>Fighter</strong></p>
<details class="example"><summary>Checked example: what the calculator answers</summary><pre><code>&gt;&gt;&gt; 1</code></pre></details>
<h2 class="rule ruling" id="tt.ruling.x">Ruling: X</h2>
<div class="admonition ruling"><p class="admonition-title">Ruling, not in the rulebook</p>
<p><strong>Fighter</strong> mode<br>then a Fighter.</p></div>
<h2 id="other">Other</h2><p>Fighter outside any rule.</p>
"""


def test_terms_are_linked_once_per_rule_outside_code_labels_and_headings():
    rules = {r.id: r for r in [Rule("tt.combat.roll", "Attack roll", "tell-tale/a.md", False),
                               Rule("tt.ruling.x", "X", "tell-tale/a.md", True),
                               Rule("tt.glossary.fighter", "Fighter", "tell-tale/g.md", False)]}
    out, texts = link_terms(RENDERED, rules, [rules["tt.glossary.fighter"]], lambda rule: f"g/#{rule.id}")
    link = '<a class="term" href="g/#tt.glossary.fighter">Fighter</a>'
    assert out == RENDERED.replace("A Fighter&rsquo;s", f"A {link}&rsquo;s").replace("then a Fighter.", f"then a {link}.")
    assert texts == {"tt.combat.roll": "A Fighter’s roll; a Fighter again. Fighter Fighter",
                     "tt.ruling.x": "Fighter mode then a Fighter."}


def test_every_page_reads_and_the_pages_use_no_mkdocs():
    assert len(rule_pages()) > 20
    for page in [*rule_pages(), *DOCS.glob("*.md")]:
        read_page(page.read_text(encoding="utf-8"), page.relative_to(DOCS).as_posix())
    code = "import sys, rulebook; rulebook.read_docs(__import__('pathlib').Path(sys.argv[1])); print(sorted(m for m in sys.modules if m.startswith('mkdocs')))"
    out = subprocess.run([sys.executable, "-c", code, str(DOCS)], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]"
