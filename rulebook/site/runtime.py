"""The calculators' browser runtime in the site: `pyodide/<version>-<digest>/`.

The runtime (self-hosted Pyodide, the calculators and icepool wheels, the
lock file, the memory snapshot, the worker) is built by `runtime.build`,
which also runs on its own and caches its output in `.cache/pyodide/`. Here
it is asked for the build (`folder`: its name, cheap; `copy`: the files,
built if not cached), and the folder is copied into the site: one folder per
combination of runtime and code, so a cached file can never be mixed with
another version's.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from runtime import build

from .errors import SiteError


def folder() -> str:
    """The runtime's folder in the site, relative to its root (`pyodide/<version>-<digest>/`), unbuilt."""
    try:
        return str(build.plan().folder)
    except build.BuildError as err:
        raise SiteError(str(err)) from err


def minify(texts: dict[str, str]) -> dict[str, str]:
    """The page scripts and stylesheets (name -> text) as the site serves them (runtime/build.py `minify`: esbuild)."""
    try:
        return dict(build.minify(texts))
    except build.BuildError as err:
        raise SiteError(str(err)) from err


def copy(site: Path, say: Callable[[str], None]) -> str:
    """The runtime built (or taken from the cache) and copied into `site`; its folder."""
    try:
        runtime = build.build(say=say)
    except build.BuildError as err:
        raise SiteError(str(err)) from err
    target = site / runtime.folder
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(runtime.path, target)
    return str(runtime.folder)

