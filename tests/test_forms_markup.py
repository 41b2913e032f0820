"""The calculators' form markup comes from one template with autoescape (issue 32, rulebook/templates/forms.html):
rulebook/forms.py builds no HTML by f-strings and escapes nothing by hand, and what the registry says reaches
the page as text."""

from __future__ import annotations

import ast
import html.parser
from pathlib import Path

from calculators.types import Calculator, Param, Report
from rulebook import forms

FORMS = Path(forms.__file__)


def test_forms_py_builds_no_html_by_hand():
    tree = ast.parse(FORMS.read_text(encoding="utf-8"))
    tagged = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)
              and any(isinstance(v, ast.Constant) and "<" in str(v.value) for v in node.values)]
    assert not tagged, f"f-strings with markup at lines {tagged} of {FORMS.name}: write it in templates/forms.html"
    escapes = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Attribute) and node.attr == "escape"]
    assert not escapes, f"hand-written escapes at lines {escapes}: the template's autoescape does it"
    literals = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)
                and "</" in node.value]
    assert not literals, f"markup in string literals at lines {literals}"


class _Texts(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.values: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.values += [v or "" for _, v in attrs]

    def handle_data(self, data):
        self.texts.append(data)


def test_what_the_registry_says_reaches_the_page_as_text():
    hostile = '<img src=x onerror="alert(1)"> & \'quoted\''
    calc = Calculator(
        name="tell_tale.hostile", title=hostile, summary=hostile, adapter=lambda rng, **kw: Report("x", "x"),
        params=(Param("power", hostile, help=hostile, default=3, minimum=0, maximum=9),
                Param("mode", hostile, kind="choice", default="a", choices=(("a", hostile), ('"b', hostile))),
                Param("haste", hostile, kind="yes_no", default="no", help=hostile),
                Param("name", hostile, kind="text", group=hostile, short=hostile),
                Param("d20", hostile, kind="dice", help=hostile)),
    )
    page = forms.render_form(calc, {"x": hostile}, runtime=hostile, settings=hostile)
    parsed = _Texts()
    parsed.feed(page)
    assert "img" not in parsed.tags
    assert "".join(parsed.texts).count(hostile) >= 8  # labels, help, options, the summary, a legend: as text
    assert hostile in parsed.values and '"b' in parsed.values  # attributes keep the value whole, quotes and all
    assert "\n" not in page  # the template's lines are joined: one line of HTML, which Markdown passes through whole
