"""The site finished in one step after any generator (issue 32): `python -m rulebook.site finish`.

MkDocs's build calls the step from hooks/finish.py. The same step run as a
command on the pages MkDocs wrote without that hook must give the very same
site, file by file: the step takes everything from the built folder and
docs/, nothing from MkDocs. It refuses, in one sentence and exit status 2,
what it cannot finish, and it writes nothing then.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from support import ROOT

FINISH = [sys.executable, "-m", "rulebook.site", "finish"]


def mkdocs_without_the_finish_hook(out: Path) -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(r"^  - hooks/finish\.py", config, flags=re.M), "mkdocs.yml names hooks/finish.py"
    config = re.sub(r"^  - hooks/finish\.py.*\n", "", config, flags=re.M)
    config = config.replace("hooks/", f"{ROOT}/hooks/").replace("custom_dir: overrides", f"custom_dir: {ROOT}/overrides")
    cfg = out.parent / "mkdocs-unfinished.yml"
    cfg.write_text(f"docs_dir: {ROOT}/docs\n" + config, encoding="utf-8")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(cfg), "-d", str(out)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr


def files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_command_after_a_generator_gives_the_site_the_hook_gives(site, tmp_path):
    out = tmp_path / "site"
    mkdocs_without_the_finish_hook(out)
    unfinished = files(out)
    assert not (out / "rules.json").exists() and not (out / "sw.js").exists() and not (out / "r").exists()
    assert all(b"CONTENT-SECURITY-POLICY" in data for name, data in unfinished.items() if name.endswith(".html"))

    done = subprocess.run([*FINISH, str(out)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    ours, hooked = files(out), files(site)
    assert sorted(ours) == sorted(hooked)
    differ = [name for name in ours if ours[name] != hooked[name] and not name.endswith(".gz")]  # gzip stamps its time
    assert differ == []
    assert not any(b"CONTENT-SECURITY-POLICY" in data for name, data in ours.items() if name.endswith(".html"))

    # A site is finished once: the second run refuses, and changes nothing.
    again = subprocess.run([*FINISH, str(out)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert again.returncode == 2 and again.stdout == ""
    assert "has no content security policy" in again.stderr and "finished once" in again.stderr
    assert "Traceback" not in again.stderr
    assert files(out) == ours


@pytest.mark.parametrize("args,said", [
    (["no-such-folder"], "holds no built page"),
    (["--config", "no-such.yml", "site"], "cannot be read"),
], ids=["no site", "no settings"])
def test_what_cannot_be_finished_is_one_sentence(tmp_path, args, said):
    done = subprocess.run([*FINISH, *args], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1


GENERATOR_TAG = re.compile(rb'<meta name="generator" content="[^"]*">')


def test_properdocs_builds_the_same_site_but_for_its_name(site, tmp_path):
    """ProperDocs, the maintained fork of MkDocs 1.6 (make build GENERATOR=properdocs), runs the same hooks and
    the same finishing step: the same files, byte for byte, but for the generator's <meta> in each page and the
    service worker's build digest, which hashes the pages."""
    out = tmp_path / "site"
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    done = subprocess.run([str(Path(sys.executable).with_name("properdocs")), "build", "--strict", "-q", "-f", "mkdocs.yml", "-d", str(out)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    ours, theirs = files(site), files(out)
    assert sorted(ours) == sorted(theirs)
    assert b"ProperDocs" in GENERATOR_TAG.search(theirs["index.html"]).group(0)
    differ = [name for name in ours if ours[name] != theirs[name]
              and not name.endswith(".gz")  # gzip stamps its time
              and GENERATOR_TAG.sub(b"", ours[name]) != GENERATOR_TAG.sub(b"", theirs[name])]
    assert differ == ["sw.js"]
    digest = re.compile(rb'"digest": "[0-9a-f]+"')
    assert digest.sub(b"", ours["sw.js"]) == digest.sub(b"", theirs["sw.js"])
