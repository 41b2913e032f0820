"""Our JavaScript reaches the site without its comments, and is the same code (rulebook/site/scripts.py).

The comments explain the scripts to whoever edits them; every byte of the
ones a calculator page loads comes before its first result. Leaving them
out must change nothing else: TypeScript's parser (tests/js_tokens.mjs)
reads each script and its copy, and the tokens must be the same.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest
from support import ROOT, load_module

from rulebook.site.scripts import ScriptError, js_without_comments

RUNTIME_SCRIPTS = [name for name in load_module("runtime/build.py").SHIPPED if name.endswith(".mjs")]  # the worker's modules
# What a naive stripper gets wrong: comment marks in strings, templates and regular expressions, a regular
# expression where a division could stand, templates inside a template's ${…}, a comment between two tokens.
TRICKY = r"""const url = "http://example.org//path"; // gone
const quote = '/* not a comment */'; /* gone */
const re = /\/\/|\/\*[^/]*/g, half = a / b / c, word = typeof /x\//.source;
const inner = `a ${`b ${ { c: "//" }["c"] }`} /* kept */ ${1 / 2}`;
const set = /[/*]+/;
if (x) y = x /* gone */ / 2;
return/**/1;
/**
 * gone, every line of it
 * @param {number} n
 */
export function f(n) { return n; } // gone
"""


def ask_typescript(texts: dict[str, str]) -> dict[str, dict]:
    node = shutil.which("node")
    assert node, "Node.js is needed (make setup installs the npm packages)"
    run = subprocess.run([node, "tests/js_tokens.mjs"], cwd=ROOT, input=json.dumps(texts), capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout)


def test_comments_go_and_nothing_else():
    assert js_without_comments(TRICKY) == r"""const url = "http://example.org//path";
const quote = '/* not a comment */';
const re = /\/\/|\/\*[^/]*/g, half = a / b / c, word = typeof /x\//.source;
const inner = `a ${`b ${ { c: "//" }["c"] }`} /* kept */ ${1 / 2}`;
const set = /[/*]+/;
if (x) y = x  / 2;
return 1;
export function f(n) { return n; }
"""


def test_a_line_keeps_its_place_and_blank_lines_stay():
    assert js_without_comments("a();\n\n// one\nb(); /* two\nlines */ c();\n") == "a();\n\nb();\n c();\n"
    assert js_without_comments("x\r\n// y\r\nz\r\n") == "x\r\nz\r\n"


@pytest.mark.parametrize("broken", ['const a = "open;\n', "const t = `open ${1}", "/* open", "const r = /open\n",
                                    "const t = `${ {`"])
def test_a_text_that_is_not_javascript_is_refused_in_words(broken):
    with pytest.raises(ScriptError, match="does not close"):
        js_without_comments(broken)


@pytest.mark.node
def test_every_shipped_script_is_the_same_code_without_comments():
    scripts = {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8")
               for p in [*sorted((ROOT / "docs").rglob("*.js")), *(ROOT / "runtime" / name for name in RUNTIME_SCRIPTS)]}
    texts = {"tricky.js": TRICKY, "tricky.js (shipped)": js_without_comments(TRICKY)}
    for name, text in scripts.items():
        texts[name], texts[name + " (shipped)"] = text, js_without_comments(text)
    read = ask_typescript(texts)
    for name in ["tricky.js", *scripts]:
        source, shipped = read[name], read[name + " (shipped)"]
        assert not source["errors"] and not shipped["errors"], (name, source["errors"], shipped["errors"])
        assert shipped["tokens"] == source["tokens"], name
        assert source["comments"] > 0 and shipped["comments"] == 0, (name, source["comments"], shipped["comments"])


def test_the_site_ships_each_script_without_its_comments(site):
    """The page scripts as the finishing step writes them (their imports carry digests) and the worker's
    modules as the runtime's build writes them."""
    scripts = sorted((ROOT / "docs").rglob("*.js"))
    assert len(scripts) > 20
    for script in scripts:
        rel = script.relative_to(ROOT / "docs").as_posix()
        shipped = re.sub(r"\?v=[0-9a-f]{10}", "", (site / rel).read_text(encoding="utf-8"))
        assert shipped == js_without_comments(script.read_text(encoding="utf-8")), rel
    runtime = next((site / "pyodide").iterdir())
    for name in RUNTIME_SCRIPTS:
        assert (runtime / name).read_text(encoding="utf-8") == js_without_comments(
            (ROOT / "runtime" / name).read_text(encoding="utf-8")), name
