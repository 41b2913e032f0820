"""mkdocs.yml read as data, for what runs without MkDocs (the extension, the finishing step).

`!ENV [NAME, default]` is read as MkDocs reads it; any other tag (a
`!!python/name:` formatter) is read as None: nothing here runs it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import yaml


class _Loader(yaml.SafeLoader):  # type: ignore[misc]  # PyYAML has no types
    pass


def _env(loader: yaml.SafeLoader, node: yaml.Node) -> object:
    names = loader.construct_sequence(node) if isinstance(node, yaml.SequenceNode) else [loader.construct_scalar(node)]
    *keys, default = names if len(names) > 1 else [*names, None]
    return next((os.environ[str(k)] for k in keys if str(k) in os.environ), default)


_Loader.add_constructor("!ENV", _env)
_Loader.add_multi_constructor("", lambda loader, suffix, node: None)
_Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)


def read_config(path: Path) -> dict[str, Any]:
    """The settings in `path`; OSError or yaml.YAMLError when it cannot be read."""
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader)
    return data if isinstance(data, dict) else {}


def nav_order(path: Path) -> list[str]:
    """The pages of the nav in `path`, in reading order (relative to docs/); none when it has no nav."""
    try:
        nav = read_config(path).get("nav") or []
    except (OSError, yaml.YAMLError):
        return []
    out: list[str] = []

    def walk(item: object) -> None:
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict):
            for value in item.values():
                walk(value)
        elif isinstance(item, list):
            for value in item:
                walk(value)

    walk(nav)
    return out
