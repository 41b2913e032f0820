"""The QR code library the pages use when they print: lean-qr, the npm package (package.json pins it).

A GM screen's footer carries a QR code of its address, which the page's
rendering draws from segno's modules of the site's address (SITE_URL). A page printed from another
host must carry that host's address, known only in the browser: there the
page script redraws the code with lean-qr (docs/assets/print-address.js).
The finishing step copies the package's module and licence into
`assets/lean-qr-<version>/`, a folder whose name changes with the version;
the screen's footer names the module (rulebook/gm_screen.py `qr_code`) for
the script to import.
"""

from __future__ import annotations

import functools
import json
import shutil
from pathlib import Path

from .errors import SiteError

PACKAGE = Path(__file__).resolve().parents[2] / "node_modules" / "lean-qr"
FILES = ("index.mjs", "LICENSE")  # the module (no imports of its own) and the licence it ships under


@functools.cache
def module() -> str:
    """The module's address, relative to the site's root: assets/lean-qr-<version>/index.mjs."""
    try:
        version = json.loads((PACKAGE / "package.json").read_text(encoding="utf-8"))["version"]
    except (OSError, ValueError, KeyError):
        raise SiteError(f"The npm package lean-qr is missing from {PACKAGE.parent}: run `make setup` (it runs `npm ci`).") from None
    return f"assets/lean-qr-{version}/{FILES[0]}"


def copy(site: Path) -> str:
    """Copy the module and its licence into the site; its address, relative to the site's root."""
    rel = module()
    folder = (site / rel).parent
    folder.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        shutil.copyfile(PACKAGE / name, folder / name)
    return rel
