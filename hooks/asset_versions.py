"""Scripts and stylesheets addressed by their content, in MkDocs's build (rulebook/site/assets.py).

- `on_config`: the versioned address of every .js and .css file in docs/,
  and `extra_css` / `extra_javascript` entries pointed at them;
- `on_env`: the `versioned` template function, for addresses a template
  writes itself (`{{ versioned('assets/calc-runtime.js') | url }}` in
  overrides/main.html), and `asset_build`, a digest of them all, which
  every page carries (`<meta name="asset-build">`): a page open across a
  deploy reloads when instant navigation brings it a page of another build
  (docs/assets/offline.js);
- `on_files`: the built copies of the modules carry the rewritten imports.

The finishing step computes the same addresses from docs/ for the service
worker (rulebook/site/__init__.py).
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.config.config_options import ExtraScriptValue
from mkdocs.exceptions import PluginError

from rulebook.site.assets import Assets, versioned
from rulebook.site.errors import SiteError

KEY = "asset_versions"  # this build's Assets: MkDocs gives a hook no other place between its events


def on_config(config):
    try:
        assets = config[KEY] = versioned(Path(config["docs_dir"]))
    except SiteError as err:
        raise PluginError(str(err)) from err
    config["extra_css"] = [assets.urls.get(path, path) for path in config["extra_css"]]
    for i, script in enumerate(config["extra_javascript"]):
        if isinstance(script, ExtraScriptValue):
            script.path = assets.urls.get(script.path, script.path)
        else:
            config["extra_javascript"][i] = assets.urls.get(script, script)
    return config


def on_env(env, config, files):
    assets: Assets = config[KEY]

    def url(path: str) -> str:
        if path not in assets.urls:
            raise PluginError(f"{path} is not a script or stylesheet in docs/: no versioned address for it.")
        return assets.urls[path]

    env.globals["versioned"] = url
    env.globals["asset_build"] = assets.build
    return env


def on_files(files, config):
    for rel, text in config[KEY].contents.items():
        file = files.get_file_from_path(rel)
        if file is not None:
            file.content_string = text
    return files
