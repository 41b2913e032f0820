"""What both trackers' pages share (docs/assets/tracker-shell.js): pasting a
state in, and storage filled until little is left."""

from __future__ import annotations

from .helpers import BOOT


def paste(page, text):
    """Open `text` as a pasted state (the same controls in both trackers: tracker-shell.js); the sentence the page answers with."""
    page.locator(".tracker-notice").evaluate("e => { e.hidden = true; }")
    page.fill("[data-keep=paste]", text)
    page.click("[data-keep=open-paste]")
    said = page.locator(".tracker-notice:visible, [data-keep=keep-status]:not(:empty)").first
    said.wait_for(timeout=BOOT)
    return said




FILL = """(leave) => {
  // Fill this site's localStorage until at most `leave` characters more fit.
  let n = 0;
  for (const size of [1e6, 1e5, 1e4, 1e3, 100, 10]) {
    const chunk = "x".repeat(size);
    for (;;) {
      try { localStorage.setItem(`junk-${n}`, chunk); n += 1; } catch { break; }
    }
  }
  // Free `leave` characters: shorten one 10,000-character piece.
  for (let i = 0; i < n; i++) {
    const key = `junk-${i}`;
    if (localStorage.getItem(key).length === 1e4) { localStorage.setItem(key, "x".repeat(1e4 - leave)); break; }
  }
  return n;
}"""
