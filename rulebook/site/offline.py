"""Offline use: a service worker at the site root, generated for each build.

The last of the finishing step (rulebook/site/__init__.py): once everything
else is in the site (the Pyodide runtime folder, the data files, the content
security policy, the short links), it lists the files of the build and writes
`sw.js` from the template `offline-sw.js` beside this file, with:

- `precache`: the pages (as their folder URLs), assets, search index,
  rules.json, the manifest and icons, cached when the worker installs; the
  scripts and stylesheets under the address the pages ask for, which carries
  their content's digest (`assets/page-start.js?v=…`, assets.py),
  and which the worker checks before it keeps the file (the build checks
  here that each file has the digest of its address);
- `immutable`: those of them whose address changes with their content
  (versioned, or fingerprinted by Material), which the worker checks
  against that digest; every precached file is served from the cache
  first (the rest, pages, search index and data, is this build's by the
  cache's name);
- `runtime`, `runtimeFiles`: the versioned Pyodide folder and the sha256 of
  each of its files, from the runtime build's `manifest.json`: cached on
  first use, and only when the file matches (see the template);
  `runtimeFill`, those the worker caches ahead in the background: all but
  the fallbacks the manifest names (pyodide.asm.wasm, fetched only where
  pyodide.asm.wasm.zst is missing); `runtimeCompiled`, those fallbacks,
  kept as well once the rest is whole and a calculator has given its first
  result: the next visit compiles the plain wasm from the cache, and
  unpacks nothing (see runtime/pyodide-private.mjs keptWasm);
- `digest`: a hash of every precached file, so the cache name changes
  whenever a page or asset does and the new worker replaces the old cache;
  `runtimeDigest`, the runtime folder name, keys the runtime cache, so a
  pages-only deployment keeps the runtime.

docs/assets/offline.js registers the worker.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from .errors import SiteError

TEMPLATE = Path(__file__).resolve().parent / "offline-sw.js"
WORKER = "sw.js"
CACHE_PREFIX = "table-rules-"
RUNTIME_MANIFEST = "manifest.json"  # written by runtime/build.py; read here, not cached by the browser
NOT_FOUND = "404.html"

# Not worth a phone's storage: source maps, the gzip copy of the sitemap, and
# lunr's other languages (the site is English; Material loads them only for
# other languages); nor meant for browsers: the host's header file.
SKIP_SUFFIXES = (".map", ".gz")
SKIP_FOLDERS = ("assets/javascripts/lunr/",)
SKIP_FILES = ("_headers",)
# Material names its own bundles by their content: bundle.a5f9d56c.min.js.
FINGERPRINTED = re.compile(r"\.[0-9a-f]{8}\.min\.(?:js|css)$")


# ---------------------------------------------------------------- helpers


def write_worker(site: Path, runtime: str, asset_urls: dict[str, str]) -> dict[str, object]:
    """Write sw.js for the build in `site`; `asset_urls` maps a file to the
    versioned address the pages use (assets.py). Returns the data."""
    runtime_dir = site / runtime
    if not (runtime_dir / RUNTIME_MANIFEST).is_file():
        raise SiteError(f"The Pyodide runtime folder {runtime} or its {RUNTIME_MANIFEST} is missing from the site.")
    files = precache_list(site, runtime)
    precache = [asset_urls.get(rel, rel) for rel in files]
    check_versions(site, files, precache)
    manifest = json.loads((runtime_dir / RUNTIME_MANIFEST).read_text())
    data: dict[str, object] = {
        "prefix": CACHE_PREFIX,
        "digest": build_digest(site, files, runtime, precache),
        "runtime": runtime,
        "runtimeDigest": runtime.strip("/").split("/")[-1],
        "precache": precache,
        "immutable": sorted(url for rel, url in zip(files, precache) if url != rel or FINGERPRINTED.search(rel)),
        "notFound": NOT_FOUND if NOT_FOUND in files else None,
        "runtimeFiles": {name: entry["sha256"] for name, entry in sorted(manifest["files"].items())},
        "runtimeFill": sorted(set(manifest["files"]) - set(manifest.get("fallback", {}))),
        "runtimeCompiled": sorted(manifest.get("fallback", {})),
    }
    (site / WORKER).write_text(render_worker(data), encoding="utf-8")
    return data


def precache_list(site: Path, runtime: str) -> list[str]:
    """Site-relative files to cache at install, sorted; pages as folder URLs."""
    urls = []
    for path in sorted(site.rglob("*")):
        if not path.is_file():
            continue
        rel = path.relative_to(site).as_posix()
        if rel == WORKER or rel in SKIP_FILES or rel.startswith(runtime.split("/")[0] + "/"):
            continue
        if rel.endswith(SKIP_SUFFIXES) or rel.startswith(SKIP_FOLDERS):
            continue
        if rel == "index.html":
            rel = "./"
        elif rel.endswith("/index.html"):
            rel = rel.removesuffix("index.html")
        urls.append(rel)
    return sorted(urls)


def check_versions(site: Path, files: list[str], precache: list[str]) -> None:
    """Each versioned address's digest is the start of its file's sha256, the
    check the worker makes before it keeps the file: one that differed would
    never be kept offline."""
    for rel, url in zip(files, precache):
        version = url.partition("?v=")[2]
        if version and not hashlib.sha256(_file_of(site, rel).read_bytes()).hexdigest().startswith(version):
            raise SiteError(f"{rel}: the site's copy does not have the digest of its address {url}; the service worker would never keep it.")


def _file_of(site: Path, url: str) -> Path:
    if url == "./":
        return site / "index.html"
    return site / (url + "index.html" if url.endswith("/") else url)


def build_digest(site: Path, files: list[str], runtime: str, precache: list[str]) -> str:
    h = hashlib.sha256(runtime.encode())
    h.update(TEMPLATE.read_bytes())
    for rel, url in zip(files, precache):
        h.update(url.encode() + b"\0")
        h.update(_file_of(site, rel).read_bytes())
    return h.hexdigest()[:12]


def render_worker(data: dict[str, object]) -> str:
    template = TEMPLATE.read_text(encoding="utf-8")
    head = f"// Generated by rulebook/site/offline.py for this build: do not edit.\nconst OFFLINE = {json.dumps(data, indent=1)};\n"
    return head + template
