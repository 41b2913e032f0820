"""Calculators as a player reads them on a phone, in Chromium at 360x740:

- the decimal leads and the exact fraction follows ("about 2.77 (111/40)");
- every calculator with odds draws the same chance chart (calc-result.js oddsTable, from the odds Python publishes):
  a row per outcome with its bar, its percentage and its exact fraction, the bars scaled to the likeliest
  outcome, readable (4.5:1) and inside the screen in both colour schemes;
- a yes/no question (Haste, Poisoned, Tapped) is a switch: one tap, not a menu's two; keyboard and screen
  readers know it as a switch with its label; links with haste=yes / haste=no still read.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from support import storage
from support.helpers import BOOT, PHONE, address, calculator_pages, share_url

from calculators.registry import all_calculators
from calculators.runner import run

ATTACK = "tell_tale.resolve_attack"


@pytest.fixture(scope="module")
def pages_of(site):
    return calculator_pages(site)

# The ratio of a text's colour to what is behind it, colours with alpha laid over the page's background.
TEXT_CONTRAST = """(el) => {
  const parse = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const over = (top, under) => { const a = top.length > 3 ? top[3] : 1; return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)); };
  let bg = parse(getComputedStyle(document.body).backgroundColor).slice(0, 3);
  const chain = [];
  for (let e = el; e; e = e.parentElement) chain.unshift(e);
  for (const e of chain) { const c = parse(getComputedStyle(e).backgroundColor); if (c.length > 3 ? c[3] > 0 : c.length) bg = over(c, bg); }
  const fg = over(parse(getComputedStyle(el).color), bg);
  const lum = (c) => { const [r, g, b] = c.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""

# What the chart shows, read in one evaluate: each row's words, the bar's width against its track's.
READ_CHART = """(form) => {
  const table = form.querySelector("table.calc-odds");
  if (!table) return null;
  return {
    caption: table.caption ? table.caption.textContent : "",
    heads: [...table.querySelectorAll("thead th")].map((th) => th.textContent),
    fits: table.getBoundingClientRect().right <= document.documentElement.clientWidth + 0.5
      && table.getBoundingClientRect().left >= -0.5,
    rows: [...table.querySelectorAll("tbody tr")].map((tr) => {
      const bar = tr.querySelector(".calc-bar"), track = tr.querySelector(".calc-bar-track");
      return {
        label: tr.querySelector("th").textContent,
        percent: tr.querySelector(".calc-pct")?.textContent ?? "",
        exact: tr.querySelector(".calc-exact")?.textContent ?? "",
        bar: bar ? bar.getBoundingClientRect().width : null,
        track: track ? track.getBoundingClientRect().width : 0,
        hidden: bar ? bar.getAttribute("aria-hidden") : null,
      };
    }),
  };
}"""


def _open(page, base_url, pages_of, name, params):
    page.goto(share_url(base_url, pages_of, name, params))
    form = page.locator(f'form[data-calculator="{name}"]')
    form.locator(".calc-result[data-outcome]").wait_for(state="attached", timeout=BOOT)
    return form


def test_the_attack_leads_with_the_decimal_on_a_phone(browser, base_url, pages_of):
    """Players read the decimal, so it comes first: "about 2.77 (111/40)", not "111/40 (about 2.77)"."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    form = _open(page, base_url, pages_of, ATTACK, {"power": "5", "d20": "10"})
    details = form.locator(".calc-details li").all_text_contents()
    assert "Expected damage of this attack (normal): about 2.77 (111/40)." in details, details
    assert "Half of Power 5 is 2.5; fractions round down, so 2 damage." in details, details
    line = form.locator(".calc-details li", has_text="Expected damage")
    expect(line).to_be_visible()
    expect(line).not_to_have_text(re.compile(r"\d+/\d+ \(about"))
    context.close()


# Each example's values into its form's fields, as typing and tapping would leave them (a switch is on for "yes").
FILL = """(form, values) => {
  for (const control of form.querySelectorAll("[name]")) {
    if (control.type === "checkbox") control.checked = values[control.name] === "yes";
    else if (control.dataset.default !== undefined) control.value = control.dataset.default;
    else control.value = "";
  }
  for (const [name, value] of Object.entries(values)) {
    const control = form.querySelector(`[name="${CSS.escape(name)}"]`);
    if (control && control.type !== "checkbox") control.value = value;
  }
  form.querySelector("[name]").dispatchEvent(new Event("input", { bubbles: true }));
}"""


def _with_odds() -> dict[str, tuple[dict, dict]]:
    """The first example of each calculator that answers with the odds of two outcomes or more, rolling nothing."""
    found = {}
    for name, calc in all_calculators().items():
        for example in calc.examples:
            if "seed" in example:
                continue
            answer = run(name, dict(example))
            if answer["ok"] and len(answer["odds"]) > 1:
                found[name] = (dict(example), answer)
                break
    return found


def _chart_faults(form, name: str, answer: dict, scheme: str) -> list[str]:
    chart = form.evaluate(READ_CHART)
    if chart is None:
        return [f"{name}: no chart"]
    faults = []
    odds = answer["odds"]
    if chart["caption"] != answer["odds_title"] or chart["heads"] != ["Result", "Chance", "Exactly"]:
        faults.append(f"{name}: caption {chart['caption']!r}, heads {chart['heads']}")
    if not chart["fits"]:
        faults.append(f"{name}: the chart runs off a 360 px screen")
    if [r["label"].removeprefix("▶ ") for r in chart["rows"]] != [o["label"] for o in odds]:
        return [*faults, f"{name}: rows {[r['label'] for r in chart['rows']]}"]
    top = max(o["percent"] for o in odds)
    for row, o in zip(chart["rows"], odds):
        exact = str(o["numerator"]) if o["denominator"] == 1 else f"{o['numerator']}/{o['denominator']}"
        if row["exact"] != exact or not re.fullmatch(r"\d+(\.\d+)?%", row["percent"]):
            faults.append(f"{name} {o['label']}: shows {row['percent']!r} {row['exact']!r}, not {exact}")
        # Scaled to the likeliest outcome; a possible outcome keeps a sliver of 3 px, an impossible one none.
        want = 0 if o["numerator"] == 0 else max(3, row["track"] * o["percent"] / top)
        if row["hidden"] != "true" or row["bar"] is None or abs(row["bar"] - want) > 1.5:
            faults.append(f"{name} {o['label']}: bar {row['bar']} px of {row['track']}, want {want:.1f}")
    weak = form.locator(".calc-odds :is(caption, th, .calc-pct, .calc-exact)").evaluate_all(
        f"(els) => els.map((e) => [e.textContent, ({TEXT_CONTRAST})(e)]).filter(([, r]) => r < 4.5)")
    if weak:
        faults.append(f"{name}: text under 4.5:1 in {scheme}: {weak[:3]}")
    return faults


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_calculator_with_odds_draws_the_chance_chart(browser, base_url, pages_of, scheme):
    """The attack calculator and every other calculator with odds get the same chart, drawn by one
    generic function from the odds Python publishes: a row per outcome, in Python's order, with a bar scaled
    to the likeliest outcome, the percentage and the exact fraction, all inside a 360 px screen and readable
    (4.5:1). Light: every such calculator; dark, where only the colours differ: the attack and Talislanta's."""
    context = browser.new_context(**PHONE, color_scheme=scheme)
    page = context.new_page()
    with_odds = _with_odds()
    assert {ATTACK, "talislanta.resolve_action", "tell_tale.double_strike", "tell_tale.trample_charge"} <= set(with_odds), sorted(with_odds)
    if scheme == "dark":
        with_odds = {n: with_odds[n] for n in (ATTACK, "talislanta.resolve_action")}
    faults, opened = [], set()
    # One page load per page: its first calculator from a share link, the others on it filled in.
    for name, (example, answer) in sorted(with_odds.items(), key=lambda item: (pages_of[item[0]], item[0] != ATTACK)):
        if pages_of[name] not in opened:
            opened.add(pages_of[name])
            form = _open(page, base_url, pages_of, name, example)
        else:
            form = page.locator(f'form[data-calculator="{name}"]')
            form.evaluate(FILL, example)
        form.locator(".calc-result .calc-headline", has_text=answer["headline"]).wait_for(timeout=BOOT)
        faults += _chart_faults(form, name, answer, scheme)
    assert not faults, faults
    context.close()


def test_yes_no_questions_are_switches_of_one_tap(browser, base_url, pages_of):
    """Yes/No menus (Haste, Poisoned, Tapped) cost two taps each; a switch costs one. The switch is
    a checkbox with role=switch and its label (Space toggles it), drawn from the registry's yes_no params, and
    share links keep their words: haste=yes turns it on, and the link it writes says haste=yes / haste=no."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    form = _open(page, base_url, pages_of, ATTACK, {"power": "5", "d20": "4 17", "haste": "yes"})
    expected = {p.name for p in all_calculators()[ATTACK].params if p.kind == "yes_no"}
    assert expected == {"haste", "poisoned", "tapped"}
    # Every yes/no field of the form is a switch named by its label; no Yes/No menu is left.
    switches = {name: form.get_by_role("switch", name=label, exact=True)
                for name, label in (("haste", "Haste"), ("poisoned", "Poisoned by Deathtouch"), ("tapped", "Attacker is tapped"))}
    for switch in switches.values():
        expect(switch).to_have_count(1)
    assert form.locator("select").evaluate_all("(ss) => ss.filter((s) => [...s.options].map((o) => o.value).sort().join() === 'no,yes').length") == 0
    # The link's haste=yes is read: the switch is on, and the roll had advantage.
    haste, poisoned = switches["haste"], switches["poisoned"]
    expect(haste).to_be_checked()
    expect(poisoned).not_to_be_checked()
    expect(form.locator('.calc-result[data-outcome="full"]')).to_have_count(1)
    # One tap: poisoned on, so Haste and poison cancel to one d20, and the two dice are refused in a sentence.
    poisoned.tap()
    form.locator(".calc-error", has_text="uses one die").wait_for()
    expect(poisoned).to_be_checked()
    address(page, has=["poisoned=yes", "haste=yes"])
    # The keyboard: Space toggles it back off, and the link says so.
    poisoned.focus()
    page.keyboard.press("Space")
    form.locator('.calc-result[data-outcome="full"]').wait_for()
    expect(poisoned).not_to_be_checked()
    address(page, has=["poisoned=no"])
    # The switch and its label are one line at 360 px, the label a target of 44 px, inside the screen.
    box, label = haste.bounding_box(), form.locator('label[for$="-haste"]').bounding_box()
    assert box["x"] + box["width"] <= 360 and label["height"] >= 44 and abs((box["y"] + box["height"] / 2) - (label["y"] + label["height"] / 2)) < 4
    # Tapping the label works as well (the whole line is the target).
    form.locator('label[for$="-tapped"]').tap()
    form.locator(".calc-error", has_text="uses one die").wait_for()
    expect(switches["tapped"]).to_be_checked()
    address(page, has=["tapped=yes"])
    # The evening's log keeps the switches in words and in its link (table-log.js), as it kept the menus'.
    switches["tapped"].tap()
    form.locator('.calc-result[data-outcome="full"]').wait_for()
    entry = page.wait_for_function("""(key) => (JSON.parse(localStorage.getItem(key) || '[]'))
        .find((e) => e.outcome === 'full' && e.said.includes('Attacker is tapped: No'))""", arg=storage.LOG, timeout=BOOT, polling=100).json_value()
    assert "Haste: Yes" in entry["said"] and "Poisoned by Deathtouch: No" in entry["said"], entry["said"]
    assert entry["inputs"]["haste"] == "yes" and "haste=yes" in entry["url"] and "poisoned=no" in entry["url"]
    page.goto(base_url + entry["url"].lstrip("/"))
    form.locator('.calc-result[data-outcome="full"]').wait_for(state="attached", timeout=BOOT)
    expect(haste).to_be_checked()
    expect(poisoned).not_to_be_checked()
    expect(switches["tapped"]).not_to_be_checked()
    context.close()
