"""What the tests share, as a package: the tests import it, never one
another, and `make bench` imports it too (as `tests.support`).

- this module: where things are (ROOT, the built SITE), `load_module` for a
  file that is not in a package, and `made_once` for a slow fixture made by
  one pytest-xdist process for both;
- `server`: the loopback static host for the built site;
- `browser`: Chromium's flags and the Playwright browser wrapper the
  fixtures hand out;
- `helpers`: page helpers (timeouts, phone and desktop sizes, polling,
  the site's JSON);
- `storage`: the keys the page scripts keep the evening under, read from
  docs/assets/storage.js, and reading and writing them in a page;
- `encounter`, `encounter_page`: the encounter's scripted fight and random
  fighters, and the page object that plays actions through the page's
  controls, driven by the actions' declarations;
- `axe`: axe-core in a page;
- `rulepages`: the rule pages as the `rulebook` package reads them.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# SITE_DIR lets parallel work test its own build (mkdocs build -d DIR).
SITE = Path(os.environ.get("SITE_DIR") or ROOT / "site").resolve()


# Examples per Hypothesis property where a run asks for fewer than the property's own count
# (tests/conftest.py): every property under `make check`'s fast profile, and a `settled` one under make test.
FAST_EXAMPLES = 10
SETTLED_EXAMPLES = 40


def load_module(relative_path: str):
    """A hook or benchmark module, loaded from its file (neither is a package)."""
    path = ROOT / relative_path
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def made_once(tmp_path_factory, name: str, make):
    """make()'s JSON-ready result, made by one pytest-xdist process and read by the others.

    For a slow module fixture (Material's search worker over every rule ID,
    Pyodide under Node): each process ran it again. The processes share the
    parent of their temporary folders; the first to take the lock makes the
    result there, the others wait for it and read it."""
    import fcntl
    import json

    shared = tmp_path_factory.getbasetemp().parent if os.environ.get("PYTEST_XDIST_WORKER") else tmp_path_factory.getbasetemp()
    path = shared / f"made-once-{name}.json"
    with open(shared / f"made-once-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if path.exists():
            return json.loads(path.read_text(encoding="utf-8"))
        result = make()
        path.write_text(json.dumps(result), encoding="utf-8")
        return result
