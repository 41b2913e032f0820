"""The names the page scripts keep things under in the browser's storage,
read from the one file that declares them (docs/assets/storage.js), and
reading and writing them in a page.

    from support import storage
    storage.put(page, storage.ENCOUNTER + storage.ASIDE, text)
"""

from __future__ import annotations

import re

from . import ROOT

SOURCE = ROOT / "docs" / "assets" / "storage.js"
# `export const NAME = "text";`, the one form storage.js writes a name in.
_DECLARED = re.compile(r'^export const ([A-Z_]+) = "([^"\\]*)";$', re.M)


def declared(text: str) -> dict[str, str]:
    names = dict(_DECLARED.findall(text))
    exports = re.findall(r"^export\b.*$", text, re.M)
    if len(names) != len(exports):
        raise ValueError(f"{SOURCE.name} exports something other than `export const NAME = \"text\";`: read it by hand")
    return names


KEYS = declared(SOURCE.read_text(encoding="utf-8"))
ENCOUNTER, PARTY, SEASON, LOG, SETTINGS = (KEYS[k] for k in ("ENCOUNTER", "PARTY", "SEASON", "LOG", "SETTINGS"))
ASIDE, BACKUP, TIMER, THROUGH, TURN_START, PLAYERS = (KEYS[k] for k in ("ASIDE", "BACKUP", "TIMER", "THROUGH", "TURN_START", "PLAYERS"))
SAVES = KEYS["SAVES"]  # the IndexedDB database that notes each record's last save (tracker-kit.js)
TRACKER = {"tell_tale.encounter": ENCOUNTER, "tell_tale.party": PARTY, "rpgdl.season": SEASON}  # by Python's tracker name


def get(page, key: str) -> str | None:
    """What the page's localStorage holds under `key` (None: nothing)."""
    return page.evaluate("(key) => localStorage.getItem(key)", key)


def put(page, key: str, value: str | None) -> None:
    """Write (or, for None, remove) `key` in the page's localStorage."""
    page.evaluate("([key, value]) => value === null ? localStorage.removeItem(key) : localStorage.setItem(key, value)", [key, value])


def empty(page) -> None:
    """Empty everything the site keeps in the page's origin: localStorage, sessionStorage and the IndexedDB
    database of last saves (a record's note there with no record in localStorage reads as another tab's save).
    No other tab of the origin may be open: it would hold the database and stall its deletion."""
    page.evaluate("""(name) => new Promise((done, failed) => {
      localStorage.clear();
      sessionStorage.clear();
      const deleting = indexedDB.deleteDatabase(name);
      deleting.onsuccess = () => done(null);
      deleting.onerror = () => failed(deleting.error);
      deleting.onblocked = () => failed(new Error("another tab holds " + name));
    })""", SAVES)
