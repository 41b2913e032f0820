"""The trackers' controls at the table, in Chromium at 360x740: round three, then ending one fight and
starting the next (the GM's play-test on a phone).

Redo after Undo in the encounter's bar and the season's log; Material's "Back to top" pill over no control on
a tracker's page; the season's set-up starting with its players, its "Clear the line-ups" away from Enter and
taken back in one tap; the Weekend form held under 2,200 px. Each test prints the taps and the scrolling it
measured.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect
from support import storage
from support.encounter_page import perform
from support.helpers import BOOT, PHONE
from support.server import BLANK

from calculators import runner

pytestmark = pytest.mark.browser

ENCOUNTER, SEASON = "tell-tale/encounter/", "rpgdl/season-tracker/"
STORES = {ENCOUNTER: storage.ENCOUNTER, SEASON: storage.SEASON}
TRACKERS = {ENCOUNTER: "tell_tale.encounter", SEASON: "rpgdl.season"}
SLOTS = ("godlike", "heavy", "middle", "light")


def made(path, actions):
    """The state Python makes of `actions` (seed 1 for any dice), as the page would keep it."""
    state = ""
    for action in actions:
        answer = runner.track(TRACKERS[path], state, json.dumps(action), 1)
        assert answer["ok"], answer
        state = json.dumps(answer["state"])
    return json.loads(state)


def pool(prefix):
    return "\n".join(f"{prefix}{d[0].upper()}{i}, {d.capitalize()}" for d in SLOTS for i in range(1, 6))


def row(name, division, worth, draw):
    return {"name": name, "division": division, "worth": str(worth), "draw": str(draw), "votes": "", "bonus": ""}


SEASON_SET_UP = [{"do": "player", "player": who, "name": name, "nom_pool": pool(name[0])} for who, name in (("first", "Ana"), ("second", "Ben"))]
WEEK_1 = {"do": "weekend", "week": 1, "first": [row(f"A{d[0].upper()}1", d, 9 - i, 3) for i, d in enumerate(SLOTS)],
          "second": [row(f"B{d[0].upper()}1", d, 9 - i, 3) for i, d in enumerate(SLOTS)]}  # four ties: the page rolls them off
FIGHT = [
    {"do": "add", "name": "Vraska", "kind": "pc", "power": 3, "toughness": 3, "vitality": 60, "speed": 10, "initiative": 14},
    {"do": "add", "name": "Goblin", "kind": "npc", "power": 1, "toughness": 1, "vitality": 60, "speed": 8, "initiative": 12},
    {"do": "start"}, {"do": "next"}, {"do": "next"}, {"do": "next"},
    {"do": "attack", "attacker": "c1", "target": "c2", "dice": {"d20": 17}},
]


@pytest.fixture
def phone(browser):
    """A phone in the light scheme. These tests press and count; nothing they look at differs in the dark one,
    where the trackers are checked by axe (test_encounter_page, test_season_page): each ran twice before."""
    context = browser.new_context(**PHONE, color_scheme="light")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    yield page
    assert page.errors == []
    context.close()


def open_tracker(page, base_url, path, state=None):
    page.goto(base_url + BLANK)
    if state is not None:
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [STORES[path], json.dumps(state)])
    page.goto(base_url + path)
    page.locator(".tracker[data-loaded=true]").wait_for(timeout=BOOT)


def stored(page, path):
    return json.loads(page.evaluate(f"localStorage.getItem({json.dumps(STORES[path])})"))


def wait_log(page, path, n):
    page.wait_for_function("([k, n]) => (JSON.parse(localStorage.getItem(k) || 'null')?.log?.length ?? 0) === n",
                           arg=[STORES[path], n], timeout=BOOT, polling=100)


class Thumb:
    """Taps as a thumb does: a control off screen (or under a sticky bar) is scrolled to first; taps and pixels counted."""

    def __init__(self, page):
        self.page, self.taps, self.scrolled = page, 0, 0

    def tap(self, selector):
        control = self.page.locator(selector).locator("visible=true").first
        before = self.page.evaluate("scrollY")
        hit = control.evaluate("""(e) => { const r = e.getBoundingClientRect(); const x = r.left + r.width / 2, y = r.top + r.height / 2;
            const at = y > 0 && y < innerHeight ? document.elementFromPoint(x, y) : null; return !!at && e.contains(at); }""")
        if not hit:
            control.evaluate("(e) => e.scrollIntoView({block: 'center'})")
        self.scrolled += abs(self.page.evaluate("scrollY") - before)
        control.tap(timeout=5000)
        self.taps += 1


# ---------------------------------------------------------------- Redo


def test_redo_in_the_encounters_bar_brings_back_the_step_undone_and_a_new_step_clears_it(phone, base_url):
    """An attack undone by a slip comes back with its own dice, not new ones. Redo shows in the bar beside Undo once something is undone; it brings back the very fight the step
    made (its dice as they came), in one tap and no scrolling; the next new step takes it away."""
    page = phone
    fight = made(ENCOUNTER, FIGHT)
    open_tracker(page, base_url, ENCOUNTER, fight)
    redo = page.locator(".enc-bar [data-enc=redo]")
    expect(redo).to_be_hidden()  # nothing undone: the bar keeps its room
    page.evaluate("document.querySelector('.enc-roster').scrollIntoView({block: 'start'})")
    thumb = Thumb(page)
    n = len(fight["log"])
    thumb.tap(".enc-bar [data-enc=undo]")
    wait_log(page, ENCOUNTER, n - 1)
    expect(redo).to_be_visible()
    expect(redo).to_have_attribute("aria-label", re.compile("1 step undone"))
    undo_figures = (thumb.taps, thumb.scrolled)
    thumb.tap(".enc-bar [data-enc=redo]")
    wait_log(page, ENCOUNTER, n)
    assert stored(page, ENCOUNTER) == fight  # the attack as it was rolled, its log entry, its undo record
    expect(page.locator(".enc-answer .calc-headline")).to_have_text(f"Redone: {fight['log'][-1]['text']}", use_inner_text=True)
    expect(redo).to_be_hidden()
    print("undo (taps, px):", undo_figures, "undo and redo:", (thumb.taps, thumb.scrolled))
    assert (thumb.taps, thumb.scrolled) == (2, 0)
    # Undone again, then a new step: nothing is left to redo, in the page or in what it keeps.
    thumb.tap(".enc-bar [data-enc=undo]")
    wait_log(page, ENCOUNTER, n - 1)
    thumb.tap(".enc-bar [data-enc=next]")
    wait_log(page, ENCOUNTER, n)
    assert stored(page, ENCOUNTER)["redo"] == []
    expect(redo).to_be_hidden()
    # Saved with its redo record, the fight reloads with Redo still there.
    thumb.tap(".enc-bar [data-enc=undo]")
    wait_log(page, ENCOUNTER, n - 1)
    page.reload()
    page.locator(".tracker[data-loaded=true]").wait_for(timeout=BOOT)
    expect(redo).to_be_visible()


def test_redo_in_the_season_brings_back_the_week_undone_with_its_roll_offs(phone, base_url):
    """A Weekend undone comes back with its own roll-offs, not new ones: Undo week N offers
    Redo week N beside its answer, and the log's Redo beside its Undo: the week comes back as it was."""
    page = phone
    season = made(SEASON, [*SEASON_SET_UP, WEEK_1])
    assert season["log"][-1]["action"]["rolls"]  # the page rolled the four roll-offs
    open_tracker(page, base_url, SEASON, season)
    redo = page.locator("[data-section=log] [data-action=redo]")
    expect(redo).to_be_hidden()
    names = "() => [...document.querySelectorAll('form.season-form input')].map((e) => e.value)"
    filled = page.evaluate(names)  # the next week's form as the page fills it from week 1
    thumb = Thumb(page)
    thumb.tap("[data-section=log] [data-action=undo]")
    wait_log(page, SEASON, len(season["log"]) - 1)
    expect(redo).to_be_visible()
    expect(page.locator("[data-section=log] [data-action=redo-week]")).to_have_count(0)  # one Redo there
    undo_figures = (thumb.taps, thumb.scrolled)
    thumb.tap("[data-section=log] [data-action=redo]")
    wait_log(page, SEASON, len(season["log"]))
    assert stored(page, SEASON) == season
    expect(redo).to_be_hidden()
    print("undo (taps, px):", undo_figures, "undo and redo:", (thumb.taps, thumb.scrolled))
    assert thumb.taps == 2 and thumb.scrolled - undo_figures[1] == 0  # Redo where Undo's answer is: no scrolling
    assert page.evaluate(names) == filled  # the week's form is filled for week 2 again, as after entering week 1
    # Entered on the page, then "Undo week 1" under its result: "Redo week 1" where that answer shows.
    thumb.tap("[data-section=log] [data-action=undo]")
    wait_log(page, SEASON, len(season["log"]) - 1)  # the line-ups of week 1 are back in the form
    thumb.tap("form.season-form [data-action=weekend]")
    wait_log(page, SEASON, len(season["log"]))
    entered = stored(page, SEASON)
    page.locator("[data-action=undo-week]").tap()
    wait_log(page, SEASON, len(season["log"]) - 1)
    again = page.locator("[data-section=week] [data-action=redo-week]")
    expect(again).to_have_text("Redo week 1", use_inner_text=True)
    again.tap()
    wait_log(page, SEASON, len(season["log"]))
    assert stored(page, SEASON) == entered


# ---------------------------------------------------------------- Material's Back to top

CONTROLS_UNDER_THE_PILL = """() => {
  const pill = document.querySelector('.md-top');
  if (!pill || !pill.checkVisibility({opacityProperty: true, visibilityProperty: true})) return [];
  const p = pill.getBoundingClientRect();
  return [...document.querySelectorAll('.md-content :is(button, input, select, textarea, summary, a[href])')]
    .filter((e) => e.checkVisibility())
    .filter((e) => { const r = e.getBoundingClientRect(); return r.width && r.right > p.left && r.left < p.right && r.bottom > p.top && r.top < p.bottom; })
    .map((e) => (e.textContent.trim() || e.name || e.tagName).slice(0, 30));
}"""


@pytest.mark.parametrize("path", [ENCOUNTER, SEASON], ids=["encounter", "season"])
def test_back_to_top_never_covers_a_control_on_a_trackers_page(browser, base_url, path):
    """Material's "Back to top" pill, shown as the page scrolls up, covers no control. At every place a thumb scrolls back up to, no control lies under the pill while it shows."""
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        open_tracker(page, base_url, path, made(path, FIGHT if path == ENCOUNTER else [*SEASON_SET_UP, WEEK_1]))
        covered = {}
        height = page.evaluate("document.documentElement.scrollHeight")
        for y in range(900, height - 740, 520):  # a place every 520 px: a pill shown at all lies over a control at most of them
            page.evaluate("(y) => scrollTo(0, y)", y + 200)
            page.wait_for_timeout(100)
            page.mouse.wheel(0, -200)  # a scroll up: Material shows the pill
            page.wait_for_timeout(350)
            found = page.evaluate(CONTROLS_UNDER_THE_PILL)
            if found:
                covered[y] = found
        assert covered == {}, covered
    finally:
        context.close()


# ---------------------------------------------------------------- the season's set-up and its Weekend form


def test_a_new_season_starts_with_its_players(phone, base_url):
    """The player names come first while they matter (under the Weekend form they were four screens down). Until the first Weekend
    the players come first; once it is entered they fold away below the weeks, the Weekend first."""
    page = phone
    open_tracker(page, base_url, SEASON)
    top = page.evaluate("""() => {
        const y = (s) => document.querySelector(s).getBoundingClientRect().top + scrollY;
        return {tracker: y('.season'), name: y('form.season-player [name=name]'), week: y('form.season-form')};
    }""")
    print("a new season (px from the tracker's top): first name", top["name"] - top["tracker"], "Weekend form", top["week"] - top["tracker"])
    assert top["name"] < top["week"] and top["name"] - top["tracker"] < 740  # on the tracker's first screen
    open_tracker(page, base_url, SEASON, made(SEASON, [*SEASON_SET_UP, WEEK_1]))
    order = page.evaluate("() => [...document.querySelectorAll('.season-section:not([hidden])')].map((s) => s.dataset.section)")
    assert order.index("week") < order.index("players")


def test_clearing_the_line_ups_is_away_from_enter_and_taken_back_in_one_tap(phone, base_url):
    """Clearing is at the top of the form, away from "Enter week" in the sticky bar (one slip from losing a typed
    Weekend), says that it cleared, and "Put them back"
    brings back what was typed."""
    page = phone
    open_tracker(page, base_url, SEASON, made(SEASON, [*SEASON_SET_UP, WEEK_1]))
    form = page.locator("form.season-form")
    enter = form.locator("[data-action=weekend]")
    expect(form.locator(".calc-actions:has([data-action=weekend]) [data-action=clear]")).to_have_count(0)  # not in Enter's bar
    clear = form.locator("[data-action=clear]")
    # Enter's bar is sticky: wherever the form is scrolled to, Clear is at least two thumbs (88 px) above it, never beside it.
    gaps = page.evaluate("""async () => {
        const form = document.querySelector('form.season-form'), gaps = [];
        const [clear, enter] = ['clear', 'weekend'].map((a) => form.querySelector(`[data-action=${a}]`));
        const start = form.getBoundingClientRect().top + scrollY - innerHeight, end = start + form.offsetHeight + innerHeight;
        for (let y = Math.max(0, start); y < end; y += 40) {
            scrollTo(0, y);
            await new Promise(requestAnimationFrame);
            const c = clear.getBoundingClientRect(), e = enter.getBoundingClientRect();
            if (c.bottom > 0 && c.top < innerHeight && e.bottom > 0 && e.top < innerHeight) gaps.push(Math.round(e.top - c.bottom));
        }
        return gaps;
    }""")
    assert gaps and min(gaps) >= 88, gaps
    form.locator('[name="godlike_first_votes"]').fill("2")
    typed = form.evaluate("f => [...f.querySelectorAll('input, select')].map((e) => e.value)")
    expect(enter).to_be_visible()
    clear.tap()
    answer = page.locator("[data-section=week] .season-answer")
    expect(answer).to_contain_text("cleared", use_inner_text=True)
    expect(form.locator('[name="godlike_first_name"]')).to_have_value("")
    answer.locator("[data-action=unclear]").tap()
    assert form.evaluate("f => [...f.querySelectorAll('input, select')].map((e) => e.value)") == typed


def test_the_weekend_form_stays_under_2200_px_at_360(phone, base_url):
    """The Weekend form is under 2,200 px tall at 360 px mid-season, with the Roster's names filled in and a
    refusal beside a field: 2,137 px when measured (2,166 with a number at fault taking its row's width, its
    sentence in lines under it), five numbers a line and each player's Vote Pool and cards folded under one line
    while usual."""
    page = phone
    open_tracker(page, base_url, SEASON, made(SEASON, [*SEASON_SET_UP, WEEK_1]))
    form = page.locator("form.season-form")
    form.locator('[name="godlike_first_worth"]').fill("40")
    form.locator("[data-action=weekend]").tap()
    page.locator("[data-section=week] .season-answer .calc-error").wait_for(timeout=BOOT)
    height = form.evaluate("f => f.getBoundingClientRect().height")
    print("the Weekend form at 360 px:", height)
    assert height < 2200
    said = form.locator("fieldset.calc-row .calc-field-error:not([hidden])")
    assert said.bounding_box()["width"] > 200  # the sentence across its row, not a word a line in a fifth of it


def fill_the_rows(form):
    """Worth and Draw in every row the page left without them (a duelist that has not played yet): a Weekend Python takes."""
    for who in ("first", "second"):
        for slot in SLOTS:
            for key in ("worth", "draw"):
                box = form.locator(f'[name="{slot}_{who}_{key}"]')
                if not box.input_value():
                    box.fill("3")


def test_a_players_vote_pool_and_cards_fold_under_one_line_and_open_for_a_value_or_a_fault(phone, base_url):
    """Each player's Vote Pool and card fields fold under one line saying what they hold, closed while
    usual (a pool of 10, no cards), so a plain week is as many taps as before; a value typed keeps the fold open and
    its line says it; a refusal naming a field in a fold the player closed opens it, the sentence beside the field."""
    page = phone
    open_tracker(page, base_url, SEASON, made(SEASON, [*SEASON_SET_UP, WEEK_1]))
    form = page.locator("form.season-form")
    folds = form.locator("details.season-extra")
    expect(folds).to_have_count(2)
    assert folds.evaluate_all("fs => fs.map((f) => f.open)") == [False, False]
    ana = form.locator("details.season-extra[data-player=first]")
    expect(ana.locator("summary")).to_have_text("Ana's Vote Pool 10; cards: 0 votes, 0 Trainwrecks", use_inner_text=True)
    for name in ("first_vote_pool", "first_card_votes", "first_card_trainwrecks", "second_vote_pool", "second_card_votes",
                 "second_card_trainwrecks", "godlike_first_opponent_votes", "light_second_bonus"):  # no field lost, only folded
        expect(form.locator(f'[name="{name}"]'), name).to_have_count(1)
    expect(form.locator('[name="first_card_votes"]')).to_be_hidden()
    fill_the_rows(form)
    thumb = Thumb(page)
    thumb.tap("details.season-extra[data-player=first] summary")
    thumb.tap('[name="first_card_votes"]')
    page.keyboard.type("11")
    expect(ana.locator("summary")).to_have_text("Ana's Vote Pool 10; cards: 11 votes, 0 Trainwrecks", use_inner_text=True)
    expect(ana).to_have_attribute("open", "")
    print("a week with cards (taps, px) to the field:", (thumb.taps, thumb.scrolled))
    ana.locator("summary").tap()  # closed by hand, the value still in it
    assert not ana.evaluate("f => f.open")
    thumb.tap("[data-action=weekend]")
    page.locator("[data-section=week] .season-answer .calc-error").wait_for(timeout=BOOT)
    assert ana.evaluate("f => f.open")
    box = form.locator('[name="first_card_votes"]')
    line = form.locator("#" + box.get_attribute("id") + "-error")
    expect(box).to_have_attribute("aria-invalid", "true")
    expect(line).to_be_visible()
    expect(line).to_contain_text("11 on cards", use_inner_text=True)
    assert 0 <= line.bounding_box()["y"] - box.bounding_box()["y"] < 200  # under its field, not a screen away
    assert page.evaluate("document.activeElement.name") == "first_card_votes"
    bar = form.locator("[data-action=weekend]").bounding_box()
    assert line.bounding_box()["y"] + line.bounding_box()["height"] <= bar["y"]  # the whole sentence in view, above the Enter bar
    # Emptied again, the week goes in; the next week's form closes the fold (its cards start empty).
    box.fill("")
    thumb.tap("[data-action=weekend]")
    wait_log(page, SEASON, 4)
    assert folds.evaluate_all("fs => fs.map((f) => f.open)") == [False, False]
    print("one Weekend with cards (taps, px):", (thumb.taps, thumb.scrolled))


def test_undo_of_a_week_puts_back_its_cards_and_rivals_votes(phone, base_url):
    """Undo of a week puts its line-ups, votes and Vote Pools back in the form to be corrected, and each
    player's votes on cards and Trainwrecks from cards too, their fold open."""
    page = phone
    week = json.loads(json.dumps(WEEK_1))
    week["first"][0]["opponent_votes"] = "1"
    week["cards"] = {"first": {"votes": "2", "trainwrecks": "1"}, "second": {"votes": "", "trainwrecks": ""}}
    season = made(SEASON, [*SEASON_SET_UP, week])
    open_tracker(page, base_url, SEASON, season)
    form = page.locator("form.season-form")
    expect(form.locator('[name="first_card_votes"]')).to_have_value("")  # the next week's cards start empty
    page.locator("[data-section=log] [data-action=undo]").tap()
    wait_log(page, SEASON, len(season["log"]) - 1)
    value = lambda name: form.locator(f'[name="{name}"]').input_value()  # noqa: E731
    assert (value("first_card_votes"), value("first_card_trainwrecks"), value("godlike_first_opponent_votes")) == ("2", "1", "1")
    assert (value("second_card_votes"), value("second_card_trainwrecks")) == ("", "")
    assert form.locator("details.season-extra").evaluate_all("fs => fs.map((f) => f.open)") == [True, False]
    expect(form.locator('[name="first_card_votes"]')).to_be_visible()


# ---------------------------------------------------------------- ending one fight and starting the next

PARTY_AND_GOBLIN = [
    {"do": "add", "name": "Vraska", "kind": "pc", "power": 3, "toughness": 3, "vitality": 15, "speed": 10, "initiative": 14},
    {"do": "add", "name": "Mira", "kind": "pc", "power": 2, "toughness": 2, "vitality": 12, "speed": 12, "initiative": 9},
    {"do": "add", "name": "Goblin", "kind": "npc", "power": 1, "toughness": 1, "vitality": 4, "speed": 8, "initiative": 12},
    {"do": "start", "through": True},  # Vraska's turn, at its actions step
]
LAST_FOE_FALLS = {"do": "damage", "source": "c1", "target": "c3", "amount": 9}  # through the Goblin's Toughness and Vitality: dead
# The next step, in view: its middle on the screen and not under the sticky bar (what a tap there would hit).
IN_VIEW = """(selector) => { const e = document.querySelector(selector); if (!e) return false; const r = e.getBoundingClientRect();
  const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2); return !!at && e.contains(at); }"""


# Every button of the bar within the phone's width, where the fight stands given some room: a bar too wide widened the
# page, and the phone zoomed it out with the bar below the screen.
BAR_FITS = """() => document.documentElement.scrollWidth <= innerWidth
  && [...document.querySelectorAll('.enc-bar > :not([hidden])')].every((e) => e.getBoundingClientRect().right <= innerWidth)
  && document.querySelector('.enc-bar-where').getBoundingClientRect().width >= 24"""


def test_when_no_foe_stands_end_is_in_the_bar_in_one_tap(phone, base_url):
    """The GM's play-test: the last foe fell and Next went on to the next round; End sat 2,300 to 3,400 px below the
    action form and took two taps. While a foe stands the bar has Next and Undo; once none does (Python's
    foes_standing), it says so and offers End there, in one tap and no scrolling; Undo beside it takes the end back.
    From the last foe falling to the next fight's first turn: End, Next encounter, Start (figures printed)."""
    page = phone
    fight = made(ENCOUNTER, PARTY_AND_GOBLIN)
    open_tracker(page, base_url, ENCOUNTER, fight)
    end = page.locator(".enc-bar [data-enc=bar-end]")
    expect(page.locator(".enc-bar [data-enc=bar-where]")).to_contain_text("Character actions")
    expect(end).to_be_hidden()  # the Goblin stands
    perform(page, LAST_FOE_FALLS, None)
    wait_log(page, ENCOUNTER, len(fight["log"]) + 1)
    expect(end).to_be_visible(timeout=BOOT)
    expect(page.locator(".enc-bar [data-enc=bar-where]")).to_contain_text("No foe stands")
    assert page.evaluate(BAR_FITS), "the bar is wider than the phone"
    thumb = Thumb(page)
    thumb.tap(".enc-bar [data-enc=bar-end]")
    expect(page.locator(".enc-turn")).to_have_text("The encounter is over", timeout=BOOT)
    assert (thumb.taps, thumb.scrolled) == (1, 0)
    assert stored(page, ENCOUNTER)["phase"] == "over"
    thumb.tap(".enc-bar [data-enc=undo]")
    expect(page.locator(".enc-turn")).to_have_text("Round 1: Vraska's turn", timeout=BOOT)
    expect(end).to_be_visible()  # the fight as it was: still no foe standing
    expect(page.locator(".enc-bar [data-enc=redo]")).to_be_visible()
    assert page.evaluate(BAR_FITS), "the bar with Redo too is wider than the phone"
    thumb = Thumb(page)  # ended again, and on to the next fight
    thumb.tap(".enc-bar [data-enc=bar-end]")
    expect(page.locator("[data-enc=next-encounter]")).to_be_focused(timeout=BOOT)
    thumb.tap("[data-enc=next-encounter]")
    expect(page.locator(".enc-turn")).to_have_text("Setting up the fight", timeout=BOOT)
    to_next = thumb.scrolled
    thumb.tap("[data-enc=start]")
    expect(page.locator(".enc-turn")).to_have_text("Round 1: Vraska's turn", timeout=BOOT)
    print("last foe falls to the next fight's first turn (taps, px):", (thumb.taps, thumb.scrolled))
    assert (thumb.taps, to_next) == (3, 0)


def test_after_end_the_next_encounter_is_in_view_and_focused(phone, base_url):
    """After End, "Next encounter with this party" (2,500 to 3,300 px above End) comes into view, clear of the bar,
    and takes the focus: from the End under "Save, share, end"
    (two taps) as from the bar's."""
    page = phone
    fight = made(ENCOUNTER, [*PARTY_AND_GOBLIN, LAST_FOE_FALLS])
    open_tracker(page, base_url, ENCOUNTER, fight)
    thumb = Thumb(page)
    thumb.tap(".enc-keep [data-enc=end]")
    thumb.tap(".enc-keep [data-enc=end]")  # ending there asks once more
    go = page.locator("[data-enc=next-encounter]")
    expect(go).to_be_focused(timeout=BOOT)
    page.wait_for_function(IN_VIEW, arg="[data-enc=next-encounter]", timeout=BOOT, polling=100)
    print("End under the keep section (taps, px):", (thumb.taps, thumb.scrolled))
    thumb = Thumb(page)
    thumb.tap("[data-enc=next-encounter]")
    expect(page.locator(".enc-turn")).to_have_text("Setting up the fight", timeout=BOOT)
    assert thumb.scrolled == 0


def test_the_same_fight_again_is_apart_from_the_next_encounter_says_what_it_does_and_undo_brings_the_end_back(phone, base_url):
    """"Start another fight" (the same fight at round 1, the dead Goblin included) is apart from the next step,
    below the banner's controls, with a sentence saying what it does; it is one step, and Undo in the bar brings the fight that was over back."""
    page = phone
    over = made(ENCOUNTER, [*PARTY_AND_GOBLIN, LAST_FOE_FALLS, {"do": "end"}])
    open_tracker(page, base_url, ENCOUNTER, over)
    again = page.locator("[data-enc=start-again]")
    expect(again).to_be_visible()
    expect(page.locator(".enc-banner .calc-actions [data-enc=start-again]")).to_have_count(0)  # not among the next step's controls
    note = page.locator("#" + again.get_attribute("aria-describedby"))
    expect(note).to_contain_text("same fight again from round 1")
    expect(note).to_contain_text("Undo brings this ending back")
    gap = page.evaluate("""() => { const a = document.querySelector('[data-enc=next-encounter]').getBoundingClientRect();
      const b = document.querySelector('[data-enc=start-again]').getBoundingClientRect(); return b.top - a.bottom; }""")
    assert gap >= 48, gap  # a thumb's width between the two, at least
    n = len(over["log"])
    Thumb(page).tap("[data-enc=start-again]")
    wait_log(page, ENCOUNTER, n + 1)
    expect(page.locator(".enc-turn")).to_have_text("Round 1: Vraska's turn", timeout=BOOT)
    expect(page.locator(".enc-answer")).to_contain_text("fight again from round 1, as they stand")
    Thumb(page).tap(".enc-bar [data-enc=undo]")
    wait_log(page, ENCOUNTER, n)
    expect(page.locator(".enc-turn")).to_have_text("The encounter is over", timeout=BOOT)
    past = lambda s: {k: v for k, v in s.items() if k != "redo"}  # noqa: E731 (the step undone aside)
    assert past(stored(page, ENCOUNTER)) == past(over)


def test_after_adding_a_familiar_the_add_form_is_ready_for_the_next_pc(phone, base_url):
    """The GM's play-test: after adding a familiar, Kind stayed Familiar, and the next PC typed was refused. Once an add
    is done, what was that combatant's own goes with its name and numbers: a familiar's or a summon's kind becomes its
    owner's, and its side and Token or Planeswalker their defaults."""
    page = phone
    open_tracker(page, base_url, ENCOUNTER)
    perform(page, PARTY_AND_GOBLIN[0], None)
    expect(page.locator(".enc-card")).to_have_count(1, timeout=BOOT)
    page.select_option("#enc-add-extra", "token")
    perform(page, {"do": "add", "name": "Spirit", "kind": "summon", "owner": "c1", "power": 1, "toughness": 1, "vitality": 1}, None)
    expect(page.locator(".enc-card")).to_have_count(2, timeout=BOOT)
    expect(page.locator("#enc-add-kind")).to_have_value("pc")
    expect(page.locator("#enc-add-extra")).to_have_value("")
    page.select_option("#enc-add-side", "party")
    perform(page, {"do": "add", "name": "Owl", "kind": "familiar", "owner": "c1", "power": 1, "toughness": 1, "vitality": 3}, None)
    expect(page.locator(".enc-card")).to_have_count(3, timeout=BOOT)
    expect(page.locator("#enc-add-kind")).to_have_value("pc")
    expect(page.locator("#enc-add-side")).to_have_value("")
    for key, value in (("name", "Mira"), ("power", 2), ("toughness", 2), ("vitality", 12), ("initiative", 9)):
        page.fill(f"#enc-add-{key}", str(value))  # the next PC, Kind untouched
    page.locator("[data-enc=add]").tap()
    expect(page.locator(".enc-card")).to_have_count(4, timeout=BOOT)
    expect(page.locator("[data-enc=add-error]")).to_have_text("")
    spirit, owl, mira = stored(page, ENCOUNTER)["combatants"][1:]
    assert (spirit["kind"], spirit["token"], owl["kind"], owl["side"]) == ("summon", True, "familiar", "party")
    assert (mira["kind"], mira["side"], mira["token"]) == ("pc", "party", False)
