"""Scripts and stylesheets addressed by their content.

A page asks for `assets/rules.js?v=<digest of its content>`, and the
modules import each other the same way (`import … from
"./table.js?v=<digest>"`), so a browser or service worker cache can only
ever hand a page the very files of its own build: a new build asks for new
addresses (issue 13: after a deploy, a returning visitor's page ran the new
HTML with the old page script).

- `on_config`: the digests of every .js and .css file in docs/ (a module's
  digest covers its imports, already rewritten: dependencies first), and
  `extra_css` / `extra_javascript` entries pointed at the versioned
  addresses;
- `on_env`: the `versioned` template function, for addresses a template
  writes itself (`{{ versioned('assets/calc-runtime.js') | url }}` in
  overrides/main.html), and `asset_build`, a digest of them all, which
  every page carries (`<meta name="asset-build">`): a page open across a
  deploy reloads when instant navigation brings it a page of another build
  (docs/assets/offline.js);
- `on_files`: the built copies of the modules carry the rewritten imports.

State: `config["asset_urls"]`, file -> versioned address, both relative to
the site root (hooks/offline.py precaches these addresses).
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from pathlib import Path

from mkdocs.config.config_options import ExtraScriptValue
from mkdocs.exceptions import PluginError

SUFFIXES = (".js", ".css")
# Relative imports in our modules: `from "./table.js"`, `import("./x.js")`.
IMPORT = re.compile(r"""(?P<head>\b(?:from|import)\s*\(?\s*)(?P<q>["'])(?P<spec>\.{1,2}/[^"'?#\s]+\.js)(?P=q)""")
# Comments, where JSDoc names other modules' types (`{import("./x.js").Answer}`): not imports. A
# block comment, or a line comment after a space or at a line's start (a "//" in a string has
# none before it, as in a URL). tests/test_offline.py checks, under Node, that the imports found
# are exactly those TypeScript's parser finds in every page script.
COMMENT = re.compile(r"/\*.*?\*/|(?:^|(?<=\s))//[^\n]*", re.S)


def imports(text: str) -> list[re.Match[str]]:
    """The relative imports in a module's code, comments left out."""
    comments = [m.span() for m in COMMENT.finditer(text)]
    return [m for m in IMPORT.finditer(text) if not any(a <= m.start() < b for a, b in comments)]


# ---------------------------------------------------------------- hooks


def on_config(config):
    docs = Path(config["docs_dir"])
    # The bytes as they are (no newline translation): a digest is of the file
    # the site serves, which the service worker checks (hooks/offline-sw.js).
    sources = {p.relative_to(docs).as_posix(): p.read_bytes().decode("utf-8")
               for p in sorted(docs.rglob("*")) if p.suffix in SUFFIXES and p.is_file()}
    built = _versioned(sources)
    config["asset_urls"] = {rel: f"{rel}?v={_digest(text)}" for rel, text in built.items()}
    config["asset_contents"] = {rel: text for rel, text in built.items() if text != sources[rel]}
    config["extra_css"] = [_url(config, path) for path in config["extra_css"]]
    for i, script in enumerate(config["extra_javascript"]):
        if isinstance(script, ExtraScriptValue):
            script.path = _url(config, script.path)
        else:
            config["extra_javascript"][i] = _url(config, script)
    return config


def on_env(env, config, files):
    env.globals["versioned"] = lambda path: _url(config, path, strict=True)
    env.globals["asset_build"] = _digest("\n".join(sorted(config["asset_urls"].values())))
    return env


def on_files(files, config):
    for rel, text in config["asset_contents"].items():
        file = files.get_file_from_path(rel)
        if file is not None:
            file.content_string = text
    return files


# ---------------------------------------------------------------- helpers


def _url(config, path: str, strict: bool = False) -> str:
    if path in config["asset_urls"]:
        return config["asset_urls"][path]
    if strict:
        raise PluginError(f"{path} is not a script or stylesheet in docs/: no versioned address for it.")
    return path


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:10]


def _versioned(sources: dict[str, str]) -> dict[str, str]:
    """Each file's text with its relative imports pointing at versioned
    addresses, dependencies first; a missing import or a cycle is an error."""
    done: dict[str, str] = {}
    visiting: list[str] = []

    def visit(rel: str) -> str:
        if rel in done:
            return done[rel]
        if rel in visiting:
            raise PluginError(f"docs/{rel} imports itself through {' -> '.join(visiting[visiting.index(rel):])}.")
        visiting.append(rel)

        def versioned(m: re.Match) -> str:
            target = posixpath.normpath(posixpath.join(posixpath.dirname(rel), m["spec"]))
            if target not in sources:
                raise PluginError(f"docs/{rel} imports {m['spec']}, which is not in docs/.")
            return f"{m['head']}{m['q']}{m['spec']}?v={_digest(visit(target))}{m['q']}"

        text = sources[rel]
        if rel.endswith(".js"):
            parts, at = [], 0
            for m in imports(text):
                parts += [text[at:m.start()], versioned(m)]
                at = m.end()
            text = "".join(parts) + text[at:]
        visiting.pop()
        done[rel] = text
        return text

    for rel in sources:
        visit(rel)
    return done
