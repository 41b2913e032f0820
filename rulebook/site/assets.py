"""Scripts and stylesheets addressed by their content.

A page asks for `assets/page-start.js?v=<digest of its content>`, and the
modules import each other the same way (`import … from
"./house-rules.js?v=<digest>"`), so a browser or service worker cache can only
ever hand a page the very files of its own build: a new build asks for new
addresses (a returning visitor's page never runs a new build's HTML with
an old build's page script). `versioned(docs)` gives each .js and .css
file of the docs folder its address and its text as the site serves it:
written by esbuild (runtime/minify.mjs: no comments, whitespace minified),
its imports pointing at versioned addresses; the finishing step writes those texts into the site, points every
page's `src` and `href` at the addresses (`version_page`), writes each
page's `<meta name="asset-build">` (`Assets.build`, beside the policy: csp.py)
and precaches the addresses in the service worker (offline.py). A generator copies docs/
as it is: nothing here needs it to know about digests.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path

from . import runtime
from .errors import SiteError

SUFFIXES = (".js", ".css")
# A page's reference to a script or stylesheet, not yet versioned.
REFERENCE = re.compile(r'(?P<lead>\b(?:src|href)=")(?P<url>[^"?#:]+\.(?:js|css))"')
# Relative imports in our modules: `from "./house-rules.js"`, `import("./x.js")`.
IMPORT = re.compile(r"""(?P<lead>\b(?:from|import)\s*\(?\s*)(?P<quote>["'])(?P<spec>\.{1,2}/[^"'?#\s]+\.js)(?P=quote)""")
# Comments, where JSDoc names other modules' types (`{import("./x.js").Answer}`): not imports. A
# block comment, or a line comment after a space or at a line's start (a "//" in a string has
# none before it, as in a URL). tests/test_offline.py checks, under Node, that the imports found
# are exactly those TypeScript's parser finds in every page script.
COMMENT = re.compile(r"/\*.*?\*/|(?:^|(?<=\s))//[^\n]*", re.S)


@dataclass(frozen=True)
class Assets:
    """The docs folder's scripts and stylesheets: file -> versioned address (both relative to the
    site root), and file -> its text where the build's copy differs (imports rewritten)."""

    urls: dict[str, str]
    contents: dict[str, str]

    @property
    def build(self) -> str:
        """A digest of every address: every page carries it (`<meta name="asset-build">`)."""
        return digest("\n".join(sorted(self.urls.values())))


def versioned(docs: Path) -> Assets:
    # The bytes as they are (no newline translation): a digest is of the file
    # the site serves, which the service worker checks (offline-sw.js).
    sources = {p.relative_to(docs).as_posix(): p.read_bytes().decode("utf-8")
               for p in sorted(docs.rglob("*")) if p.suffix in SUFFIXES and p.is_file()}
    built = _rewritten(runtime.minify(sources))
    return Assets(urls={rel: f"{rel}?v={digest(text)}" for rel, text in built.items()},
                  contents={rel: text for rel, text in built.items() if text != sources[rel]})


def version_page(html: str, url: str, assets: Assets, root: str = "/") -> str:
    """The page at `url` (relative to the site root, which is at the path `root` of its host: the
    404 page names files from there) asking for each script and stylesheet of docs/ by its versioned
    address."""
    base = url if url.endswith("/") else posixpath.dirname(url)
    root = "/" + root.strip("/") + "/" if root.strip("/") else "/"

    def versioned_reference(m: re.Match[str]) -> str:
        ref = m["url"]
        if ref.startswith("/") and not ref.startswith(root):
            return m.group(0)
        target = ref.removeprefix(root) if ref.startswith("/") else posixpath.normpath(posixpath.join(base, ref))
        address = assets.urls.get(target)
        return f'{m["lead"]}{m["url"]}?{address.partition("?")[2]}"' if address else m.group(0)

    return REFERENCE.sub(versioned_reference, html)


def imports(text: str) -> list[re.Match[str]]:
    """The relative imports in a module's code, comments left out."""
    comments = [m.span() for m in COMMENT.finditer(text)]
    return [m for m in IMPORT.finditer(text) if not any(a <= m.start() < b for a, b in comments)]


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:10]


def _rewritten(sources: dict[str, str]) -> dict[str, str]:
    """Each file's text (as esbuild wrote it: no comments) with its relative imports pointing at versioned
    addresses, dependencies first; a missing import or a cycle is an error."""
    done: dict[str, str] = {}
    visiting: list[str] = []

    def visit(rel: str) -> str:
        if rel in done:
            return done[rel]
        if rel in visiting:
            raise SiteError(f"docs/{rel} imports itself through {' -> '.join(visiting[visiting.index(rel):])}.")
        visiting.append(rel)

        def versioned_import(m: re.Match[str]) -> str:
            target = posixpath.normpath(posixpath.join(posixpath.dirname(rel), m["spec"]))
            if target not in sources:
                raise SiteError(f"docs/{rel} imports {m['spec']}, which is not in docs/.")
            return f"{m['lead']}{m['quote']}{m['spec']}?v={digest(visit(target))}{m['quote']}"

        text = sources[rel]
        if rel.endswith(".js"):
            parts, at = [], 0
            for m in IMPORT.finditer(text):
                parts += [text[at:m.start()], versioned_import(m)]
                at = m.end()
            text = "".join(parts) + text[at:]
        visiting.pop()
        done[rel] = text
        return text

    for rel in sources:
        visit(rel)
    return done
