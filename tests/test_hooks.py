"""The hooks refuse what would publish a broken link: a mini site built with
them fails on a duplicate rule ID, a link to an unknown rule, an unknown
calculator, and builds when everything is right."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulepages import ROOT

CONFIG = """site_name: Mini
site_url: http://127.0.0.1:8000/
docs_dir: docs
theme: {{name: material, custom_dir: {root}/overrides}}
hooks:
  - {root}/hooks/rule_ids.py
  - {root}/hooks/calculator_forms.py
markdown_extensions: [attr_list, admonition, md_in_html, tables, toc]
nav:
  - tell-tale/index.md
  - tell-tale/b.md
"""
GOOD_A = "# A\n\nr[tt.mini.one] One\nThe first rule. See [[tt.mini.two]].\n"
GOOD_B = "# B\n\nr[tt.mini.two] Two\nThe second rule, after [[tt.mini.one|the first]].\n"


def build(tmp_path: Path, a: str, b: str) -> subprocess.CompletedProcess:
    docs = tmp_path / "docs" / "tell-tale"
    docs.mkdir(parents=True)
    (docs / "index.md").write_text(a)
    (docs / "b.md").write_text(b)
    (tmp_path / "mkdocs.yml").write_text(CONFIG.format(root=ROOT))
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q"], cwd=tmp_path,
                          capture_output=True, text=True, env=env)


def test_a_correct_mini_site_builds(tmp_path):
    proc = build(tmp_path, GOOD_A, GOOD_B)
    assert proc.returncode == 0, proc.stderr
    html = (tmp_path / "site" / "tell-tale" / "b" / "index.html").read_text()
    assert 'id="tt.mini.two"' in html and 'href="../#tt.mini.one"' in html


def test_duplicate_rule_id_fails_the_build(tmp_path):
    proc = build(tmp_path, GOOD_A, GOOD_B.replace("tt.mini.two] Two", "tt.mini.one] Two"))
    assert proc.returncode != 0
    assert "Rule ID tt.mini.one is used twice" in proc.stderr


def test_link_to_unknown_rule_fails_the_build(tmp_path):
    proc = build(tmp_path, GOOD_A.replace("[[tt.mini.two]]", "[[tt.mini.three]]"), GOOD_B)
    assert proc.returncode != 0
    assert "unknown rule ID tt.mini.three" in proc.stderr


def test_rule_in_another_games_folder_fails_the_build(tmp_path):
    proc = build(tmp_path, GOOD_A.replace("tt.mini.one", "tal.mini.one").replace("[[tt.mini.two]]", ""), GOOD_B.replace("[[tt.mini.one|the first]]", ""))
    assert proc.returncode != 0
    assert "tal.mini.one" in proc.stderr and "folder" in proc.stderr


@pytest.mark.parametrize("name", ["tell_tale.no_such_thing", "nothing"])
def test_unknown_calculator_fails_the_build(tmp_path, name):
    proc = build(tmp_path, GOOD_A + f"\n```calculator\n{name}\n```\n", GOOD_B)
    assert proc.returncode != 0
    assert f"unknown calculator '{name}'" in proc.stderr


def test_a_calculator_used_twice_fails_the_build_with_its_line(tmp_path):
    fence = "\n```calculator\ntell_tale.haste_speed\n```\n"
    proc = build(tmp_path, GOOD_A + fence + fence, GOOD_B)
    assert proc.returncode != 0
    assert "tell-tale/index.md:" in proc.stderr and "twice on that page" in proc.stderr
