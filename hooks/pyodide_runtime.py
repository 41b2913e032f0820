"""The calculators' browser runtime in the site.

The runtime (self-hosted Pyodide, the calculators and icepool wheels, the
lock file, the memory snapshot, the worker) is built by `runtime/build.py`,
which also runs on its own and caches its output in `.cache/pyodide/`. This
hook only asks it for the build (`on_config`: its name, cheap; `on_post_build`:
the files, built if not cached) and copies the folder into the site as
`pyodide/<version>-<digest>/`: one folder per combination of runtime and
code, so a cached file can never be mixed with another version's.

State for the other hooks: `config["pyodide_runtime"]`, that folder relative
to the site root (hooks/calculator_forms.py puts it in the pages,
hooks/offline.py reads the manifest in it).
"""

from __future__ import annotations

import importlib.util
import logging
import shutil
import sys
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

BUILD_SCRIPT = Path(__file__).resolve().parent.parent / "runtime" / "build.py"
log = logging.getLogger("mkdocs.hooks.pyodide_runtime")


# ---------------------------------------------------------------- hooks


def on_config(config):
    build = _build_module()
    try:
        runtime = build.plan()
    except build.BuildError as err:
        raise PluginError(str(err)) from err
    config["pyodide_runtime"] = runtime.folder
    return config


@event_priority(50)  # before hooks/offline.py and hooks/csp.py read the site
def on_post_build(config):
    build = _build_module()
    try:
        runtime = build.build(say=log.info)
    except build.BuildError as err:
        raise PluginError(str(err)) from err
    if runtime.folder != config["pyodide_runtime"]:
        raise PluginError("The runtime's inputs changed during the build: build again.")
    target = Path(config["site_dir"]) / runtime.folder
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(runtime.path, target)


# ---------------------------------------------------------------- helpers


def _build_module():
    """runtime/build.py (not a package), loaded afresh: `mkdocs serve` keeps
    hook modules between builds, and the script may have changed."""
    name = "table_rules_runtime_build"
    spec = importlib.util.spec_from_file_location(name, BUILD_SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
