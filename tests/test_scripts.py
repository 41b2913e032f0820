"""Our JavaScript and CSS reach the site as esbuild writes them (runtime/minify.mjs), and stay the same code.

The comments explain the scripts to whoever edits them; every byte of the
ones a calculator page loads comes before its first result. esbuild leaves
them out, and minifies the whitespace of the page scripts, the stylesheets
and the worker's modules, with no renaming, rewriting or bundling asked of it. TypeScript's parser
(tests/js_ast.mjs) reads each shipped script and esbuild's readable print
of its source: the syntax trees must be the same (but for parentheses, which
a minified script drops where it needs none), and no comment is left.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest
from support import ROOT

from runtime import build as BUILD

RUNTIME_SCRIPTS = [name for name in BUILD.SHIPPED if name.endswith(".mjs")]  # the worker's modules
# What a naive stripper gets wrong: comment marks in strings, templates and regular expressions, a regular
# expression where a division could stand, templates inside a template's ${…}, a comment between two tokens.
TRICKY = r"""const url = "http://example.org//path"; // gone
const quote = '/* not a comment */'; /* gone */
const re = /\/\/|\/\*[^/]*/g, half = a / b / c, word = typeof /x\//.source;
const inner = `a ${`b ${ { c: "//" }["c"] }`} /* kept */ ${1 / 2}`;
const set = /[/*]+/;
if (x) y = x /* gone */ / 2;
/**
 * gone, every line of it
 * @param {number} n
 */
export function f(n) { return n; } // gone
"""

pytestmark = pytest.mark.node


def ask_typescript(texts: dict[str, str]) -> dict[str, dict]:
    node = shutil.which("node")
    assert node, "Node.js is needed (make setup installs the npm packages)"
    run = subprocess.run([node, "tests/js_ast.mjs"], cwd=ROOT, input=json.dumps(texts), capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout)


def test_comments_go_and_what_looks_like_one_in_code_stays():
    shipped = BUILD.minify({"tricky.js": TRICKY})["tricky.js"]
    for kept in ('"http://example.org//path"', '"/* not a comment */"', r"/\/\/|\/\*[^/]*/g", "a/b/c", r"typeof/x\//.source",
                 '`a ${`b ${{c:"//"}["c"]}`} /* kept */ ${1/2}`', "/[/*]+/", "x/2"):
        assert kept in shipped, kept
    assert "gone" not in shipped and "@param" not in shipped


def test_a_text_that_is_not_javascript_is_refused_naming_it():
    with pytest.raises(BUILD.BuildError, match=r"broken\.js cannot be read"):
        BUILD.minify({"broken.js": 'const a = "open;\n'})


def test_every_shipped_script_is_the_code_of_esbuilds_readable_print_without_comments():
    scripts = {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8")
               for p in [*sorted((ROOT / "docs").rglob("*.js")), *(ROOT / "runtime" / name for name in RUNTIME_SCRIPTS)]}
    scripts["tricky.js"] = TRICKY
    readable, shipped = BUILD.minify(scripts, readable=True), BUILD.minify(scripts)
    texts = {}
    for name in scripts:
        texts[name], texts[name + " (readable)"], texts[name + " (shipped)"] = scripts[name], readable[name], shipped[name]
    read = ask_typescript(texts)
    for name in scripts:
        source, print_, copy = read[name], read[name + " (readable)"], read[name + " (shipped)"]
        assert not source["errors"] and not copy["errors"], (name, source["errors"], copy["errors"])
        assert copy["tree"] == print_["tree"], name
        assert source["comments"] > 0 and copy["comments"] == 0, name
    assert sum(map(len, shipped.values())) < 0.6 * sum(map(len, scripts.values()))


def test_the_site_ships_each_script_and_stylesheet_as_esbuild_writes_it(site):
    """The page scripts and stylesheets as the finishing step writes them (their imports carry digests) and the
    worker's modules as the runtime's build writes them."""
    files = sorted([*(ROOT / "docs").rglob("*.js"), *(ROOT / "docs").rglob("*.css")])
    assert len(files) > 20
    sources = {p.relative_to(ROOT / "docs").as_posix(): p.read_text(encoding="utf-8") for p in files}
    for rel, text in BUILD.minify(sources).items():
        shipped = re.sub(r"\?v=[0-9a-f]{10}", "", (site / rel).read_text(encoding="utf-8"))
        assert shipped == text, rel
    runtime = next((site / "pyodide").iterdir())
    modules = BUILD.minify({name: (ROOT / "runtime" / name).read_text(encoding="utf-8") for name in RUNTIME_SCRIPTS})
    for name, text in modules.items():
        assert (runtime / name).read_text(encoding="utf-8") == text, name


LONGEST_FUNCTION = 80  # lines, in a page script
# The page scripts' functions that are longer today, each to be cut into parts; no other may be.
LONG_FUNCTIONS: set[tuple[str, str]] = set()


def long_functions(texts: dict[str, str]) -> dict[tuple[str, str], int]:
    """Each function of more than LONGEST_FUNCTION lines in the scripts (name -> text), by (script, function)."""
    node = shutil.which("node")
    assert node, "Node.js is needed (make setup installs the npm packages)"
    run = subprocess.run([node, "tests/js_functions.mjs"], cwd=ROOT, input=json.dumps(texts), capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    return {(name, function): lines for name, found in json.loads(run.stdout).items() for function, lines in found
            if lines > LONGEST_FUNCTION}


def test_no_page_script_function_is_longer_than_80_lines_but_those_listed():
    scripts = {p.name: p.read_text(encoding="utf-8") for p in sorted((ROOT / "docs" / "assets").glob("*.js"))}
    assert len(scripts) > 20
    assert sorted(set(long_functions(scripts)) - LONG_FUNCTIONS) == []


def test_the_function_length_check_finds_a_long_one():
    body = "\n".join(f"  x += {n};" for n in range(LONGEST_FUNCTION))
    found = long_functions({"a.js": f"export function short() {{ return 1; }}\nconst long = (x) => {{\n{body}\n}};\n"})
    assert found == {("a.js", "long"): LONGEST_FUNCTION + 2}
