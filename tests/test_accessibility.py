"""Accessibility and phone use of the built site.

- axe-core (the pinned npm package) on every built page as a phone in light
  mode, on the pages holding every kind of element as a desktop in dark
  mode, and on every calculator with a result shown;
- Lighthouse's accessibility score of 100 is make bench's (home, two rule
  pages, a calculator, the table settings, the Table log): its audits are
  axe-core's rules, which the axe tests here run on every page in two ways;
- no page scrolls sideways on a 360x740 phone;
- a calculator used with the keyboard alone.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect
from support.axe import AXE, axe_violations
from support.helpers import BOOT, DESKTOP, PHONE, follow, sitemap_pages, static_context

from calculators.registry import all_calculators
from rulebook.markup import GAMES

pytestmark = pytest.mark.browser
PROFILES = {"phone-light": {**PHONE, "color_scheme": "light"}, "desktop-dark": {**DESKTOP, "color_scheme": "dark"}}


def built_pages(site: Path) -> list[str]:
    """Every HTML page of the site, as URLs relative to its root."""
    pages = []
    for html in sorted(site.rglob("*.html")):
        rel = html.relative_to(site).as_posix()
        if rel.startswith(("pyodide/", "r/")):  # the runtime; short links that move on at once (test_short_links.py)
            continue
        pages.append(rel.removesuffix("index.html"))
    return pages


def calculator_pages(site: Path) -> dict[str, list[str]]:
    """Page URL -> the calculators on it."""
    found = {}
    for page in built_pages(site):
        html = (site / (page + "index.html" if page.endswith("/") or not page else page)).read_text(encoding="utf-8")
        names = re.findall(r'data-calculator="([^"]+)"', html)
        if names:
            found[page] = names
    return found



def _watched(context, crashed):
    """A new tab of `context` whose renderer's death is noted in `crashed` (the address it was at)."""
    page = context.new_page()
    page.on("crash", lambda p: crashed.append(p.url))
    return page


def open_page(page, url):
    page.goto(url)
    page.wait_for_load_state("load")
    # page-start.js adds the copy buttons on Material's page event: let it run.
    page.wait_for_function("() => !document.querySelector('.rule-id') || document.querySelector('.rule-id button')")


def fill_example(form, calc):
    """Put the calculator's first registry example in its form, asking for one
    answer: every field but one is set quietly, the last is typed (or chosen)
    as a reader would, so the form computes once, with every value in (each
    typed field would queue a calculation of its own: 62 on the Weekend page).
    A changed ruling is typed last, so the rulings' summary counts it."""
    example = calc.examples[0] if calc.examples else {}
    values = [(p, str(example[p.name])) for p in calc.params if example.get(p.name) is not None]
    assert values, f"{calc.name}: no registry example to type"
    rulings = set(form.evaluate("f => [...f.querySelectorAll('.calc-rulings [name]')].map((e) => e.name)"))
    values.sort(key=lambda pv: pv[0].name in rulings)  # stable: a ruling, if any, comes last
    *quiet, (last, value) = values
    form.evaluate(
        """(f, values) => { for (const [name, value] of values) f.querySelector(`[name="${CSS.escape(name)}"]`).value = value; }""",
        [[p.name, v] for p, v in quiet],
    )
    field = form.locator(f'[name="{last.name}"]')
    if last.kind == "choice":
        field.select_option(value)
    else:
        field.fill(value)


# ---------------------------------------------------------------- axe-core


def too_wide(page) -> str | None:
    """On a phone: how the page is wider than the screen, if it is."""
    width = page.evaluate("() => document.documentElement.scrollWidth")
    if width <= 360:
        return None
    culprits = page.evaluate(
        """() => [...document.querySelectorAll('body *')]
             .filter((e) => e.getBoundingClientRect().right > 361 && !e.closest('.md-typeset__scrollwrap, .md-sidebar, .md-search'))
             .slice(0, 3).map((e) => e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).split(' ')[0] : ''))"""
    )
    return f"{width}px ({', '.join(culprits)})"


GAME_FOLDERS = tuple(GAMES.values())  # the games' folders, as the rule markup names them


class _Kinds(HTMLParser):
    """The kinds of element a page holds: each tag with its classes (`table.coverage`, `details.example`)."""

    def __init__(self):
        super().__init__()
        self.kinds: set[str] = set()

    def handle_starttag(self, tag, attrs):
        classes = sorted(next((v or "" for k, v in attrs if k == "class"), "").split())
        self.kinds.add(".".join([tag, *classes]))


def every_kind(site: Path, pages: list[str]) -> list[str]:
    """Pages that together hold every kind of element the given pages hold, the one holding most unseen kinds
    first: a colour scheme's contrast is the site's styles on each kind, so this is every style the pages draw."""
    held = {}
    for url in pages:
        parser = _Kinds()
        parser.feed((site / (url or "index.html") if url.endswith(".html") else site / url / "index.html").read_text(encoding="utf-8"))
        held[url] = parser.kinds
    unseen, chosen = set().union(*held.values()), []
    while unseen:
        best = max(held, key=lambda u: (len(held[u] & unseen), -pages.index(u)))
        chosen.append(best)
        unseen -= held[best]
    return sorted(chosen, key=pages.index)


def section_of(url: str) -> str:
    """The game a page is of, or "site" (home, the Table log, the 404 page...)."""
    top = url.split("/", 1)[0]
    return top if top in GAME_FOLDERS else "site"


@pytest.mark.parametrize("section", [*GAME_FOLDERS, "site"])
@pytest.mark.parametrize("profile", PROFILES)
def test_axe_finds_nothing_on_any_page(browser, site, base_url, profile, section):
    """Every page as it is drawn, in the two ways a reader comes to it: on
    the phone each page is opened directly (a link from elsewhere, a
    bookmark), and no page scrolls sideways; on the desktop, in the dark
    scheme, the pages that together hold every kind of element (every_kind:
    the scheme's styles on each, 27 pages of 45), the first opened and the
    others reached by a link, which Material's instant navigation swaps in
    (404.html, in no sitemap, is opened directly).

    The calculators' runtime is idle here (helpers.static_context): its forms
    show "Loading the calculator…", and the page is checked without a
    Python runtime starting behind it. The forms with results drawn are the
    next test's. One test per game (and one for the rest): two processes
    share them out better than one long test."""
    pages = [url for url in built_pages(site) if section_of(url) == section]
    assert pages, f"no page in {section}"
    phone = PROFILES[profile].get("is_mobile")
    if not phone:  # the other scheme on the pages that hold every kind of element (every page is the phone's)
        pages = every_kind(site, pages)
    context = static_context(browser, **PROFILES[profile], bypass_csp=True)  # axe is injected as an inline script
    context.add_init_script(path=AXE)
    crashed = []
    page = _watched(context, crashed)
    swapped = set() if phone else sitemap_pages(site)
    failures, wide = {}, {}
    for k, url in enumerate(pages):
        for fresh in (False, True):
            try:
                if k and url in swapped and not fresh:
                    follow(page, base_url + url)
                else:
                    open_page(page, base_url + url)
                found = axe_violations(page)
                break
            except PlaywrightError:
                # A renderer that died (Chromium here, about one full run in three, in a walk of one context;
                # never the same page twice) costs this page a fresh tab, not the walk: once, and said below.
                if fresh or not crashed:
                    raise
                page = _watched(context, crashed)
        if found:
            failures[url or "/"] = found
        if phone and (width := too_wide(page)):
            wide[url or "/"] = width
    context.close()
    if crashed:
        print(f"the renderer died at {crashed}: each page opened again in a new tab and checked there")
    problems = [f"{url}: {'; '.join(v)}" for url, v in failures.items()] + [f"{url}: wider than 360px: {w}" for url, w in wide.items()]
    assert not problems, "axe-core violations, pages wider than a phone:\n" + "\n".join(problems)


def test_axe_finds_nothing_in_calculators_with_results(browser, site, base_url):
    """Every calculator with its first example computed, on a phone: the
    result, its rule links and the odds table are checked too. The first
    page is loaded, the others are reached by a link (Material's instant
    navigation, as a reader moves about), so the runtime starts once. No
    service worker: its copy of the whole site only takes time here."""
    calcs = all_calculators()
    context = browser.new_context(**PROFILES["phone-light"], bypass_csp=True)
    context.add_init_script(path=AXE)
    page = context.new_page()
    failures = {}
    for k, (url, names) in enumerate(calculator_pages(site).items()):
        if k == 0:
            open_page(page, base_url + url)
        else:
            follow(page, base_url + url)
            page.locator(f'form[data-calculator="{names[0]}"][data-ready]:not([data-stale])').wait_for(timeout=BOOT)
        for name in names:
            form = page.locator(f'form[data-calculator="{name}"]:not([data-stale])')
            fill_example(form, calcs[name])
            form.locator("[data-outcome], [role=alert]:not(:empty)").first.wait_for(timeout=BOOT)
        found = axe_violations(page)
        wide = page.evaluate("() => document.documentElement.scrollWidth")
        if wide > 360:
            found.append(f"page is {wide}px wide with results shown")
        if found:
            failures[url] = found
    context.close()
    assert not failures, "\n".join(f"{url}: {'; '.join(v)}" for url, v in failures.items())


# ---------------------------------------------------------------- phone


def test_calculator_touch_targets_and_keypads(browser, site, base_url):
    """On a phone: every control of every calculator is at least 44px both
    ways, and number and dice fields bring up the numeric keypad."""
    pages = calculator_pages(site)
    assert pages, "no page embeds a calculator"
    context = static_context(browser, **PROFILES["phone-light"])  # the controls as drawn; results are not needed
    page = context.new_page()
    problems = []
    for k, url in enumerate(pages):
        if k:
            follow(page, base_url + url)  # reached by a link, as a reader moves about: the controls are the same
        else:
            open_page(page, base_url + url)
        small = page.evaluate(
            """() => [...document.querySelectorAll('form.calc input, form.calc select, form.calc button, form.calc textarea')]
                 .filter((e) => { const r = e.getBoundingClientRect(); return r.height < 44 || r.width < 44; })
                 .map((e) => e.name || e.getAttribute('aria-label') || e.textContent.trim())"""
        )
        if small:
            problems.append(f"{url}: under 44px: {small}")
        keypads = page.evaluate(
            # A field that takes negatives is type=number: the only keypad with a minus sign on every phone.
            "() => [...document.querySelectorAll('.calc-int input, .calc-dice input')].filter((e) => e.type === 'number'"
            " ? !(e.min === '' || Number(e.min) < 0) : !['numeric', 'decimal'].includes(e.inputMode)).map((e) => e.name)"
        )
        if keypads:
            problems.append(f"{url}: no numeric keypad for {keypads}")
    context.close()
    assert not problems, "\n".join(problems)


def test_calculator_semantics(site):
    """Labels, descriptions and live regions are in the markup itself."""
    pages = calculator_pages(site)
    assert pages, "no page embeds a calculator"
    problems = []
    for url in pages:
        html = (site / url / "index.html").read_text(encoding="utf-8")
        ids = set(re.findall(r'\bid="([^"]+)"', html))
        for form in re.findall(r"<form class=\"calc\".*?</form>", html, re.S):
            for control in re.findall(r"<(?:input|select|textarea)\b[^>]*>", form):
                cid = re.search(r'\bid="([^"]+)"', control).group(1)
                if f'for="{cid}"' not in form:
                    problems.append(f"{url}: {cid} has no label")
                described = re.search(r'aria-describedby="([^"]+)"', control)
                if not described or not set(described.group(1).split()) <= ids:
                    problems.append(f"{url}: {cid} is not described by its help and error")
            if 'aria-live="polite"' not in form:
                problems.append(f"{url}: a form's result is not announced politely")
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------- keyboard


def test_a_calculator_works_by_keyboard_alone(browser, site, base_url):
    pages = calculator_pages(site)
    name = "tell_tale.resolve_attack"
    url = next((u for u, names in pages.items() if name in names), None)
    if url is None:
        pytest.skip(f"{name} is not embedded in a page yet")
    context = browser.new_context(**DESKTOP)
    page = context.new_page()
    open_page(page, base_url + url)
    # Start the keyboard just before the form, as a reader following a link to it would.
    form_id = page.locator(f'form[data-calculator="{name}"]').get_attribute("id")
    page.evaluate("id => { const f = document.getElementById(id); f.tabIndex = -1; f.focus(); f.removeAttribute('tabindex'); }", form_id)

    def tab_to(field_name, limit=12):
        for _ in range(limit):
            page.keyboard.press("Tab")
            if page.evaluate("() => document.activeElement.name") == field_name:
                return
        raise AssertionError(f"Tab never reached {field_name}")

    tab_to("power")
    page.keyboard.type("5")
    tab_to("d20")
    page.keyboard.type("17")
    form = page.locator(f"#{form_id}")
    form.locator('.calc-result[data-outcome="full"]').wait_for(timeout=BOOT)
    expect(form.locator(".calc-result")).to_have_attribute("aria-live", "polite")
    # Shift+Tab back to the stepper's "+" button and press it with the space bar.
    for _ in range(12):  # past the fields between (the form gained "Attacker is tapped")
        page.keyboard.press("Shift+Tab")
        if page.evaluate("() => document.activeElement.dataset.step") == "1":
            break
    else:
        raise AssertionError("Shift+Tab never reached the stepper's + button")
    page.keyboard.press("Space")
    page.wait_for_function(f"() => document.querySelector('#{form_id} [name=power]').value === '6'")
    form.locator(".calc-headline", has_text="6").wait_for()
    # A focused control shows where it is: an outline or a ring.
    outline = page.evaluate("() => { const s = getComputedStyle(document.activeElement); return s.outlineStyle !== 'none' || s.boxShadow !== 'none'; }")
    assert outline
    context.close()


def test_copy_link_buttons_are_small_to_see_and_big_to_hit(browser, base_url):
    """Beside every rule ID on a phone: a button no taller than the ID's line
    needs, yet a thumb anywhere in a 44px-tall band hits it."""
    context = browser.new_context(**PROFILES["phone-light"])
    page = context.new_page()
    open_page(page, base_url + "tell-tale/combat/")
    report = page.evaluate("""() => [...document.querySelectorAll('.rule-copy')].map((button) => {
        button.scrollIntoView({ block: 'center' });
        const r = button.getBoundingClientRect();
        const x = r.left + r.width / 2, middle = r.top + r.height / 2;
        const hits = (y) => document.elementFromPoint(x, y)?.closest('.rule-copy') === button;
        return { id: button.getAttribute('aria-label'), height: r.height, width: r.width,
                 band: hits(middle - 21) && hits(middle + 21) };
    })""")
    context.close()
    assert len(report) >= 10
    too_tall = [r["id"] for r in report if r["height"] > 32]
    missed = [r["id"] for r in report if not r["band"] or r["width"] < 44]
    assert not too_tall, f"copy buttons taller than they need to be: {too_tall[:5]}"
    assert not missed, f"copy buttons a thumb can miss inside 44px: {missed[:5]}"
