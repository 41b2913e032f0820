"""At the table on a phone, in a real Chromium against the built site.

Each test is one thing a player at the table needs: the answer where they
are looking, an error they can see beside its field, any calculator a tap or
two from the home page, the keyboard straight into the form, inputs that fit
what is typed.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from support.helpers import BOOT, CUT_OPTIONS_JS, DESKTOP, PHONE, address, calculator_pages, follow, share_url

from calculators.registry import all_calculators
from calculators.runner import run

pytestmark = pytest.mark.browser
ATTACK = "tell_tale.resolve_attack"
ANCHOR = "calc-tell-tale-resolve-attack"
SIZES = {"phone": {**PHONE, "color_scheme": "light"}, "desktop": {**DESKTOP, "color_scheme": "dark"}}


@pytest.fixture(scope="module")
def pages_of(site):
    return calculator_pages(site)


@pytest.fixture(params=list(SIZES))
def device(request, browser):
    context = browser.new_context(**SIZES[request.param])
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    yield page
    context.close()


IN_VIEW = """(el) => {
  if (!el) return "not on the page";
  const r = el.getBoundingClientRect();
  if (r.height === 0 || r.top < 0 || r.bottom > innerHeight) return `at ${r.top}..${r.bottom} of ${innerHeight}`;
  // The answer bar lets touches through (pointer-events: none): hit-test it as if it did not.
  const bar = el.closest('.calc-answer');
  if (bar) bar.style.pointerEvents = 'auto';
  const hit = document.elementFromPoint(r.left + Math.min(r.width, 40) / 2, r.top + r.height / 2);
  if (bar) bar.style.pointerEvents = '';
  return !!hit && (el.contains(hit) || hit.contains(el)) ? "" : `covered by ${hit && hit.outerHTML.slice(0, 80)}`;
}"""


class Seen:
    def __init__(self, why: str):
        self.why = why

    def __bool__(self):
        return not self.why

    def __repr__(self):
        return f"not in view: {self.why}"


def in_view(locator) -> Seen:
    """Wholly inside the viewport and not covered by anything else (false says why)."""
    return Seen(locator.evaluate(IN_VIEW))


def test_the_outcome_is_in_view_after_typing_the_last_die(device, base_url, pages_of):
    device.goto(base_url + pages_of[ATTACK])
    form = device.locator(f'form[data-calculator="{ATTACK}"]')
    form.locator("[name=power]").fill("5")
    dice = form.locator("[name=d20]")
    dice.evaluate("el => el.scrollIntoView({ block: 'center' })")
    dice.press_sequentially("17")
    result = form.locator('.calc-result[data-outcome="full"]')
    result.wait_for(timeout=BOOT)
    assert in_view(form.locator(".calc-headline"))
    assert dice.evaluate("el => { const r = el.getBoundingClientRect(); return r.top > innerHeight / 4 && r.bottom < innerHeight * 3 / 4; }")
    assert not device.errors


def test_the_loading_status_shows_where_the_answer_will(device, base_url, pages_of):
    device.goto(base_url + pages_of[ATTACK])
    form = device.locator(f'form[data-calculator="{ATTACK}"]')
    form.locator("[name=d20]").evaluate("el => el.scrollIntoView({ block: 'center' })")
    status = form.locator(".calc-answer .calc-status")
    expect(status).not_to_have_text("")
    assert in_view(status)


def contrast(page, locator) -> float:
    """WCAG contrast of an element's text against the first opaque background behind it."""
    return locator.evaluate("""(el) => {
      const rgb = (c) => c.match(/[\\d.]+/g).map(Number);
      const lum = ([r, g, b]) => {
        const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
      };
      let bg = null;
      for (let n = el; n; n = n.parentElement) {
        const c = rgb(getComputedStyle(n).backgroundColor);
        if (c.length < 4 || c[3] === 1) { bg = c; break; }
      }
      bg = bg || [255, 255, 255];
      const fg = rgb(getComputedStyle(el).color);
      const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
      return (a + 0.05) / (b + 0.05);
    }""")


def opacity_chain(locator) -> float:
    return locator.evaluate("(el) => { let o = 1; for (let n = el; n; n = n.parentElement) o *= Number(getComputedStyle(n).opacity); return o; }")


# A die the form refuses, each in turn on one page (the last with one die where advantage needs two).
REFUSED_D20 = [("abc", None), ("0", None), ("99", None), ("17", "advantage")]


def test_an_error_is_legible_and_beside_its_field(device, base_url, pages_of):
    """Each refused die is typed over a result: the result goes, and the
    error is legible, beside its field and in the answer bar."""
    device.goto(share_url(base_url, pages_of, ATTACK, {"power": "5", "d20": "12"}))
    form = device.locator(f'form[data-calculator="{ATTACK}"]')
    field = form.locator("[name=d20]")
    for typed, mode in REFUSED_D20:
        field.fill("12")
        form.locator("[data-outcome]").wait_for(timeout=BOOT)
        if mode:
            form.locator("[name=mode]").select_option(mode)
        field.fill(typed)
        error_beside_its_field(device, form, field, run(ATTACK, {"power": "5", "d20": typed} | ({"mode": mode} if mode else {})))


def error_beside_its_field(device, form, field, expected):
    assert not expected["ok"] and expected["field"] == "d20"
    message = form.locator('[data-param="d20"] .calc-field-error').filter(has_text=expected["error"])
    message.wait_for()
    expect(message).to_have_text(expected["error"])
    expect(form.locator("[data-outcome]")).to_have_count(0)  # the old result is gone
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(field).to_have_attribute("aria-describedby", re.compile(rf"(^|\s){re.escape(message.get_attribute('id'))}(\s|$)"))
    field.evaluate("el => el.scrollIntoView({ block: 'center' })")
    assert in_view(message)
    assert contrast(device, message) >= 4.5
    assert opacity_chain(message) == 1
    # Next to its field: right under it, not a screen away.
    gap = message.evaluate("(m) => m.getBoundingClientRect().top - m.parentElement.querySelector('input, select, textarea').getBoundingClientRect().bottom")
    assert 0 <= gap < 40
    # The answer bar says it too, where the result would be.
    alert = form.locator(".calc-answer [role=alert]")
    expect(alert).to_have_text(expected["error"])
    assert contrast(device, alert) >= 4.5


def test_an_error_of_no_field_shows_where_the_result_would(page, base_url, pages_of):
    name = "tell_tale.resolve_attack"
    page.goto(share_url(base_url, pages_of, name, {"power": "5", "d20": "20", "seed": "not-a-seed"}))
    form = page.locator(f'form[data-calculator="{name}"]')
    alert = form.locator(".calc-answer [role=alert]")
    alert.filter(has_text="seed").wait_for(timeout=BOOT)
    expect(alert).to_have_text(run(name, {"power": "5", "d20": "20"}, "not-a-seed")["error"])
    expect(form.locator(".calc-field-error:not([hidden])")).to_have_count(0)  # the form has no seed field
    expect(form.locator("[data-outcome]")).to_have_count(0)


def test_a_shared_link_lands_with_the_inputs_and_the_result_in_view(device, base_url, pages_of):
    name = "rpgdl.resolve_weekend"
    example = all_calculators()[name].examples[0]
    device.goto(share_url(base_url, pages_of, name, example))
    form = device.locator(f'form[data-calculator="{name}"]')
    form.locator("[data-outcome]").wait_for(timeout=BOOT)
    device.wait_for_timeout(300)
    assert in_view(form.locator(".calc-headline"))
    title = device.locator(f'[id="{form.get_attribute("aria-labelledby")}"]')  # the form's title, as its markup names it
    assert in_view(title)  # and what it is
    for key, value in example.items():
        if key != "seed" and form.locator(f'[name="{key}"]').count():
            expect(form.locator(f'[name="{key}"]')).to_have_value(value)


def test_the_attack_form_is_one_tap_from_the_home_page_and_two_through_the_list(browser, base_url):
    context = browser.new_context(**SIZES["phone"])
    page = context.new_page()
    page.goto(base_url)
    link = page.locator(".md-content a", has_text="Attack roll").first
    # Scroll first and let Material record the offset (it does so 100 ms after
    # a scroll, and a late record would restore this page's offset over there).
    link.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    link.tap()
    page.wait_for_url(f"**#{ANCHOR}")
    page.wait_for_function(f"() => document.getElementById('{ANCHOR}') && !({IN_VIEW})(document.getElementById('{ANCHOR}'))", timeout=10_000)
    # The long way: home, the Calculators page, the form.
    page.goto(base_url)
    page.locator(".md-content a", has_text="All calculators").tap()
    page.wait_for_url("**/calculators/")
    link = page.locator(".md-content table a", has_text="Attack roll")
    link.scroll_into_view_if_needed()  # as a finger scrolls first; see above for the wait
    page.wait_for_timeout(300)
    link.tap()
    page.wait_for_url(f"**#{ANCHOR}")
    # Instant navigation changes the address first, then swaps the page in and scrolls.
    page.wait_for_function(f"() => document.getElementById('{ANCHOR}') && !({IN_VIEW})(document.getElementById('{ANCHOR}'))", timeout=10_000)
    context.close()


def test_every_form_has_a_heading_in_the_table_of_contents(site, pages_of):
    for name, url in pages_of.items():
        html = (site / url / "index.html").read_text(encoding="utf-8")
        anchor = "calc-" + re.sub(r"[._]+", "-", name)
        assert f'id="{anchor}"' in html, name
        assert f'href="#{anchor}"' in html, f"{name}: not in the page's table of contents"
    listing = (site / "calculators" / "index.html").read_text(encoding="utf-8")
    for name in pages_of:
        assert "#calc-" + re.sub(r"[._]+", "-", name) in listing, f"the Calculators page does not link to {name}'s form"


def tabs_to_first_field(page, name, limit=200) -> int:
    for tabs in range(1, limit + 1):
        page.keyboard.press("Tab")
        focused = page.evaluate("() => [document.activeElement.tagName, document.activeElement.name, document.activeElement.dataset.calcSkip !== undefined]")
        if focused[2]:
            page.keyboard.press("Enter")
            page.wait_for_timeout(200)
            if page.evaluate(f"() => document.activeElement.closest('form[data-calculator=\"{name}\"]') !== null"):
                return tabs
        elif page.evaluate(f"() => document.activeElement.closest('form[data-calculator=\"{name}\"]') !== null"):
            return tabs
    return limit + 1


def test_the_keyboard_reaches_the_first_field_in_a_few_tabs(browser, base_url, pages_of):
    context = browser.new_context(**DESKTOP)
    page = context.new_page()
    page.goto(base_url + pages_of[ATTACK])
    page.wait_for_function("() => document.querySelector('[data-calc-skip]')")
    tabs = tabs_to_first_field(page, ATTACK)
    assert tabs <= 3, f"{tabs} Tabs to the first field"
    assert page.evaluate("() => document.activeElement.name") == "power"
    context.close()


def test_rolled_dice_go_into_their_fields(page, base_url, pages_of):
    page.goto(base_url + pages_of[ATTACK])
    form = page.locator(f'form[data-calculator="{ATTACK}"]')
    form.locator("[name=power]").fill("4")
    form.locator("[name=mode]").select_option("advantage")
    form.locator("[data-action=roll]").click()
    form.locator("[data-outcome]").wait_for(timeout=BOOT)
    seed = re.search(r"seed (\d+)", form.locator(".calc-seed").text_content()).group(1)
    expected = run(ATTACK, {"power": "4", "mode": "advantage"}, seed)
    expect(form.locator("[name=d20]")).to_have_value(expected["dice"]["d20"])
    expect(form.locator(".calc-headline")).to_have_text(expected["headline"])
    # Typing over a rolled die drops the seed: the typed dice rule.
    form.locator("[name=d20]").fill("3 4")
    form.locator('[data-outcome="miss"]').wait_for()
    address(page, lacks=["seed="])


def test_dice_fields_say_how_to_type_two_dice(site, pages_of):
    html = (site / pages_of[ATTACK] / "index.html").read_text(encoding="utf-8")
    assert "with spaces, like 4 17" in html


def test_arrow_keys_step_numbers_and_every_control_shows_focus(browser, base_url, pages_of):
    context = browser.new_context(**DESKTOP)
    page = context.new_page()
    page.goto(base_url + pages_of[ATTACK])
    form = page.locator(f'form[data-calculator="{ATTACK}"]')
    power = form.locator("[name=power]")
    power.fill("5")
    power.press("ArrowUp")
    power.press("ArrowUp")
    power.press("ArrowDown")
    expect(power).to_have_value("6")
    no_ring = []
    form.locator(".calc-rulings summary").click()  # open the folded rulings
    for control in form.locator("input, select, textarea, button, summary").all():
        control.focus()
        page.keyboard.press("Shift")  # keyboard modality, as a Tab would give
        style = control.evaluate("(e) => { const s = getComputedStyle(e); return [s.outlineStyle, s.outlineWidth]; }")
        if style[0] == "none" or style[1] in ("0px", ""):
            no_ring.append(control.evaluate("(e) => e.name || e.textContent"))
    assert not no_ring, f"no visible focus ring on {no_ring}"
    context.close()


def test_select_labels_are_not_cut_on_a_phone(browser, base_url, pages_of):
    """Every option of every select on the calculator pages, the table settings pages and the
    Table log reads whole at 360 px (the trackers' selects: test_encounter_page.py, test_season_page.py)."""
    context = browser.new_context(**SIZES["phone"])
    context.route("**/pyodide/**", lambda route: route.abort())  # the options are in the page as built: no runtime to boot 17 times
    page = context.new_page()
    cut = []
    urls = {*pages_of.values(), "tell-tale/table-settings/", "rpgdl/table-settings/", "talislanta/table-settings/", "table-log/"}
    for k, url in enumerate(sorted(urls)):
        if k:
            follow(page, base_url + url)  # reached by a link: the options are the same, the page is not built again
        else:
            page.goto(base_url + url)
        page.evaluate("document.fonts.ready")
        cut += page.evaluate(CUT_OPTIONS_JS)
    context.close()
    assert not cut, "select options cut short on a 360px phone:\n" + "\n".join(cut)


def test_an_old_weekend_link_fills_the_rows(page, base_url, pages_of):
    """Links made before the Weekend had a row per duelist still open, and
    show their duelists field by field."""
    name = "rpgdl.resolve_weekend"
    old = {"godlike_first": "Worker 8: heavy 6 4 4", "godlike_second": "God: godlike 9 3",
           "heavy_first": "Pip: light 5 1 1", "heavy_second": "Brute: heavy 3 4",
           "middle_first": "Mid: middle 5 3", "middle_second": "Mido: middle 4 1",
           "light_first": "Lite: light 3 2", "light_second": "Lita: light 2 2 1", "sudden_death_rolls": "2 5"}
    expected = run(name, old)
    assert expected["ok"]
    page.goto(share_url(base_url, pages_of, name, old))
    form = page.locator(f'form[data-calculator="{name}"]')
    form.locator("[data-outcome]").wait_for(timeout=BOOT)
    expect(form.locator(".calc-headline")).to_have_text(expected["headline"])
    expect(form.locator("[name=godlike_first_name]")).to_have_value("Worker 8")
    expect(form.locator("[name=godlike_first_division]")).to_have_value("heavy")
    expect(form.locator("[name=godlike_first_votes]")).to_have_value("4")
    expect(form.locator("[name=godlike_second_votes]")).to_have_value("0")
    page.wait_for_function("() => !location.search.includes('godlike_first=')")  # the address now has the rows
    assert "godlike_first_worth=6" in page.url
    assert not page.errors


def test_the_weekend_form_says_each_help_once_and_is_under_2200_px_at_360(browser, base_url, pages_of):
    """The Weekend calculator's form is under 2,200 px tall at 360 px once ready (a help on each of eight duelist
    rows made it 2,225). Each help is said once: the duelists' under one line before their rows, the Vote Pools' under their row,
    and every field of those rows is described by it."""
    name = "rpgdl.resolve_weekend"
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(base_url + pages_of[name])
    form = page.locator(f'form[data-calculator="{name}"]')
    form.locator(".calc-status", has_text="Ready").wait_for(timeout=BOOT)
    rows = form.locator("fieldset.calc-row")
    expect(rows).to_have_count(9)
    expect(form.locator("fieldset.calc-row small")).to_have_count(0)  # no help of a row's own field
    duelists = form.locator("details.calc-rows-fold")
    expect(duelists).to_have_count(1)
    expect(duelists.locator("summary")).to_have_text("What the fields of these 8 rows take")
    pools = form.locator("fieldset.calc-row:has([name=first_vote_pool]) + .calc-rows-help")
    expect(pools).to_have_text(re.compile(r"^The votes a player's Voters gave this week .+ add up to at most this\.$"))
    described = form.evaluate("""(f) => [...f.querySelectorAll('fieldset.calc-row [name]')].filter((c) => {
        const [help] = c.getAttribute('aria-describedby').split(' ');
        return !f.querySelector(`.calc-rows-help[id="${help}"]`);
    }).map((c) => c.name)""")
    assert described == []
    height = form.evaluate("f => f.getBoundingClientRect().height")
    print("the Weekend calculator's form at 360 px:", height)
    assert height < 2200
    context.close()


def test_every_page_with_a_calculator_or_a_tracker_has_the_skip_link_when_opened_directly(browser, base_url, pages_of):
    """Opened from a bookmark or a link, not only from home; two Tabs and Enter land in the form or the tracker."""
    context = browser.new_context(**DESKTOP)
    context.route("**/pyodide/**", lambda route: route.abort())  # the link needs no calculator: no runtime to boot 17 times
    page = context.new_page()
    targets = {url: "form[data-calculator]" for url in pages_of.values()}  # the page's first form: the link's target
    targets |= {"tell-tale/encounter/": "[data-tracker]", "rpgdl/season-tracker/": "[data-tracker]"}
    for url, target in sorted(targets.items()):
        page.goto(base_url + url)
        page.locator("[data-calc-skip]").wait_for(state="attached")
        page.keyboard.press("Tab")
        page.keyboard.press("Tab")
        assert page.evaluate("() => document.activeElement.dataset.calcSkip !== undefined"), f"{url}: the second Tab is not the skip link"
        page.keyboard.press("Enter")
        page.wait_for_function("(target) => document.activeElement.closest(target) === document.querySelector(target)", arg=target)
    context.close()


RING_CONTRAST = """(el) => {
  const rgb = (c) => c.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  let bg = null;
  for (let n = el.parentElement; n; n = n.parentElement) {
    const c = rgb(getComputedStyle(n).backgroundColor);
    if (c.length < 4 || c[3] === 1) { bg = c; break; }
  }
  bg = bg || rgb(getComputedStyle(document.body).backgroundColor);
  const ring = rgb(getComputedStyle(el).outlineColor);
  const [a, b] = [lum(ring), lum(bg)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_focus_ring_stands_out_at_least_3_to_1_on_both_schemes(browser, base_url, pages_of, scheme):
    """The focus ring stands out at least 3:1 (WCAG 1.4.11) in both schemes; an amber one has about 1.9:1 on
    white."""
    context = browser.new_context(**DESKTOP, color_scheme=scheme)
    context.route("**/pyodide/**", lambda route: route.abort())  # the controls are drawn without the runtime
    page = context.new_page()
    weak = []
    for url, selector in ((pages_of[ATTACK], f'form[data-calculator="{ATTACK}"] :is(input, select, button)'),
                          ("tell-tale/table-settings/", "form.table-settings :is(select, input, button)"),
                          ("table-log/", ".table-log :is(select, button)")):
        page.goto(base_url + url)
        page.locator(selector).first.wait_for(state="attached")
        for control in page.locator(selector).all()[:6]:
            if not control.is_visible() or not control.is_enabled():
                continue
            control.focus()
            page.keyboard.press("Shift")  # keyboard modality, as a Tab would give
            ratio = control.evaluate(RING_CONTRAST)
            if ratio < 3:
                weak.append((url, control.evaluate("(e) => e.name || e.textContent"), round(ratio, 2)))
    assert not weak, weak
    context.close()


def test_the_home_page_reaches_the_table_tools_in_its_first_screen(browser, base_url):
    """The trackers, the Table log and the settings are linked in the home page's first screen on a phone, not
    2-3 menu taps away."""
    context = browser.new_context(**SIZES["phone"])
    page = context.new_page()
    page.goto(base_url)
    wanted = ["tell-tale/encounter/", "rpgdl/season-tracker/", "table-log/", "tell-tale/table-settings/",
              "talislanta/table-settings/", "rpgdl/table-settings/"]
    for path in wanted:
        link = page.locator(f'.md-content a[href$="{path}"]').first
        box = link.bounding_box()
        assert box and box["y"] + box["height"] <= 740, f"{path}: not in the first screen ({box})"
    context.close()
