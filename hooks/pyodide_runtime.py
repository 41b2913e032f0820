"""The calculators' runtime folder, for the pages that start it (rulebook/site/runtime.py).

`on_config` asks for the folder's name (cheap: nothing is built) and keeps
it as `config["pyodide_runtime"]`, relative to the site root, for the forms
and trackers (hooks/calculator_forms.py, hooks/trackers.py) to put in their
pages. The finishing step builds the folder, copies it into the site and
checks that every page names that very folder (hooks/finish.py).
"""

from __future__ import annotations

from mkdocs.exceptions import PluginError

from rulebook.site import runtime
from rulebook.site.errors import SiteError


def on_config(config):
    try:
        config["pyodide_runtime"] = runtime.folder()
    except SiteError as err:
        raise PluginError(str(err)) from err
    return config
