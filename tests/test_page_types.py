"""The page's types for a tracker's state are written from Python's TypedDicts (calculators/typescript.py), so a
field renamed in Python fails the page's type check (`make lint`): shown here in a scratch copy of the project."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

import pytest
from support import ROOT

from calculators.tell_tale.encounter_types import Combatant, Encounter
from calculators.typescript import declarations

pytestmark = pytest.mark.node


def test_every_field_of_a_fight_is_in_the_pages_types():
    text = declarations([Encounter])
    for td in (Encounter, Combatant):
        block = re.search(rf"export interface {td.__name__} {{\n(.*?)\n}}", text, re.S).group(1)
        assert [line.split(":")[0].strip().rstrip("?") for line in block.splitlines()] == list(td.__annotations__)
    assert "  log: LogEntry[];" in text and "  redo?: Record<string, unknown>[];" in text and "  moved: Movement | null;" in text


def _lint_types(project):
    """What make lint does for the page's types, in `project`: write them, then tsc over the page scripts."""
    env = dict(os.environ, PYTHONPATH=str(project))
    subprocess.run([sys.executable, "-m", "calculators.typescript", "types/trackers.d.ts"], cwd=project, env=env, check=True, timeout=120)
    tsc = ROOT / "node_modules" / ".bin" / "tsc"
    assert tsc.exists(), "TypeScript is needed (make setup installs the npm packages)"
    return subprocess.run([str(tsc), "-p", "tsconfig.json"], cwd=project, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("module, field, renamed, message", [
    ("tell_tale/encounter_types.py", "max_vitality", "full_vitality", "Property 'max_vitality' does not exist on type 'Combatant'"),
    # the season page reads its types from league_types.py, not from a JSDoc copy of them
    ("rpgdl/league_types.py", "trainwreck_limit", "wreck_limit", "Property 'trainwreck_limit' does not exist on type 'Settings'"),
])
def test_a_field_renamed_in_python_fails_the_pages_type_check(tmp_path, module, field, renamed, message):
    project = tmp_path / "project"
    for part in ("calculators", "docs/assets", "types"):
        shutil.copytree(ROOT / part, project / part, ignore=shutil.ignore_patterns("__pycache__", "trackers.d.ts"))
    shutil.copy(ROOT / "tsconfig.json", project)
    (project / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)
    assert _lint_types(project).returncode == 0  # the copy as it is: clean

    types = project / "calculators" / module
    types.write_text(types.read_text(encoding="utf-8").replace(f"    {field}: int\n", f"    {renamed}: int\n"), encoding="utf-8")
    checked = _lint_types(project)
    assert checked.returncode != 0 and message in checked.stdout, checked.stdout[-2000:]


def test_the_trackers_names_are_pythons_and_the_pages_take_them_from_the_build():
    """`TrackerName` is written from the registry; the tracker pages read their own name from their container and the
    party's from the encounter's vocabulary. The loader (page-start.js) and the storage keys (storage.js) are typed with
    TrackerName, so a name Python no longer has fails tsc there."""
    from calculators.registry import all_trackers
    from calculators.typescript import tracker_declarations

    names = list(all_trackers())
    assert f"export type TrackerName = {' | '.join(json.dumps(n) for n in names)};" in tracker_declarations()
    for script in sorted((ROOT / "docs" / "assets").glob("*.js")):
        if script.name in ("page-start.js", "storage.js"):
            continue
        code = [line for line in script.read_text(encoding="utf-8").splitlines() if not line.lstrip().startswith(("//", "*", "/*"))]
        assert not [line for line in code for n in names if json.dumps(n) in line], script.name
    assert "TrackerName" in (ROOT / "docs" / "assets" / "storage.js").read_text(encoding="utf-8")
