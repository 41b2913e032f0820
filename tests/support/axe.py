"""axe-core (the npm package, node_modules/axe-core) run in a page: its
violations as short lines a failing test prints."""

from __future__ import annotations

from . import ROOT

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


def axe_violations(page, context: str | None = None) -> list[str]:
    """axe-core's violations on the page as 'rule-id (n): first target' lines."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    # The page at rest: a colour caught halfway through a transition (Material's
    # header title fades in when a form scrolls the page) is no colour a reader sees.
    page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running'"
                           " || a.effect?.getComputedTiming().endTime === Infinity)")
    found = page.evaluate(
        """async (context) => {
          const r = await axe.run(context || document, {resultTypes: ["violations"]});
          return r.violations.map((v) => `${v.id} (${v.nodes.length}): ${v.nodes[0].target.join(" ")}`);
        }""",
        context,
    )
    return found
