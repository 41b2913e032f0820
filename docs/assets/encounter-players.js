// The encounter tracker's players' view: a second window on the same device
// (the tracker's page opened at #players), kept in step with the GM's tab
// through a BroadcastChannel. No server, no Python, nothing from storage:
// the view draws only what the GM's tab sends (encounter.js playersView():
// the turn order, whose turn and the step, the round, what players can see
// of each combatant, the last result's headline), and no GM control.
//
// The GM's tab sends the view whole once, then what each step changed, and
// every message is checked before anything is drawn (players-view.js);
// anything else is ignored. Text goes in with textContent only.

import { onPageEnd, pageSignal } from "./dom.js";
import { el } from "./tracker-kit.js";
import { SHOW_ONLY_HASH } from "./calc-runtime.js";
import { ENCOUNTER, PLAYERS } from "./storage.js";
import { checkView, plain, viewFollower } from "./players-view.js";

/** @typedef {import("./players-view.js").CheckedView} CheckedView */

/** The channel the GM's tab and the players' windows share (same site, same browser). */
export const CHANNEL = ENCOUNTER + PLAYERS;
export const PLAYERS_HASH = SHOW_ONLY_HASH; // the window starts no Python runtime (calc-runtime.js)
const ASK_EVERY = 5000; // ms between questions to the GM's tab
const ANSWER_WITHIN = 1500; // ms: no answer by then, no GM tab is open

/** m:ss (h:mm:ss past an hour) since `since` (ms since the epoch); 0:00 for a time still to come.
 * @param {number} since @param {number} [now] */
export function clock(since, now = Date.now()) {
  const s = Math.max(0, Math.floor((now - since) / 1000));
  const mmss = `${Math.floor(s / 60) % 60}:${String(s % 60).padStart(2, "0")}`;
  return s >= 3600 ? `${Math.floor(s / 3600)}:${mmss.padStart(5, "0")}` : mmss;
}

// ---------------------------------------------------------------- the players' view, from any source

/** The players' view drawn in `box`, with no source of its own: `show(data)` checks a view (checkView) and
 * draws it, false if it was refused; `say(text, alone)` writes the status line (`alone`: nothing follows the
 * fight now); `seen()`, whether a view was drawn. The same-device window below and a player's phone
 * (encounter-join.js) each feed it.
 * @param {HTMLElement} box @param {string} title @param {string} first the status line until a view comes */
export function playersDrawing(box, title, first) {
  document.documentElement.classList.add("enc-players-page");
  document.title = `${title} · Encounter tracker`;
  const status = el("p", { class: "enc-p-status", role: "status", "data-players": "status", text: first });
  const where = el("p", { class: "enc-p-where", "data-players": "where" });
  const step = el("p", { class: "enc-p-step", "data-players": "step" });
  const timer = el("p", { class: "enc-p-timer", "data-players": "timer", hidden: true });
  const headline = el("p", { class: "enc-p-headline", "data-players": "headline", hidden: true });
  const rows = el("ol", { class: "enc-p-rows", "data-players": "rows", "aria-label": "Turn order" });
  const extra = el("div", { class: "enc-p-extra" }); // what a source adds below the status (a phone's roll)
  // Hidden while none of its lines has anything to show: no accent bar with nothing beside it. Set here, not by a
  // `:has(p:not(:empty))` rule: WebKit did not recheck that rule when a line drawn empty was given its text.
  const top = el("div", { class: "enc-p-top", hidden: true }, where, step, timer);
  const showTop = () => { top.hidden = [where, step, timer].every((p) => p.hidden || !p.textContent); };
  box.classList.add("encounter", "enc-players");
  box.replaceChildren(el("h1", { class: "enc-p-title", text: title }), status, extra, top, headline, rows);

  /** @type {CheckedView | null} */
  let view = null;

  function draw() {
    if (!view) return;
    if (view.phase === "combat") {
      where.textContent = `Round ${view.round} · ${view.turn}'s turn`;
      step.textContent = view.step;
    } else {
      where.textContent = view.phase === "over" ? `The encounter is over (${view.round} round${view.round === 1 ? "" : "s"})`
        : view.phase === "setup" ? "The fight has not started yet" : "No encounter yet";
      step.textContent = "";
    }
    step.hidden = !view.step;
    headline.hidden = !view.headline;
    headline.replaceChildren(el("span", { class: "enc-p-label", text: "Last: " }), view.headline);
    tick();
    rows.replaceChildren(...view.rows.map((r) => el("li", { class: "enc-p-row", "data-side": r.side, "aria-current": r.acting ? "true" : null },
      el("p", { class: "enc-p-name" }, el("span", { class: "enc-name", text: r.name }), " ", el("span", { class: "enc-who", text: r.who }),
        r.acting ? el("span", { class: "enc-now", text: "acting" }) : null,
        r.band !== null ? el("span", { class: "enc-p-band", "data-band": r.band, text: r.band }) : null,
        r.marks.length ? el("span", { class: "enc-flags", "data-marks": "", text: r.marks.join(" · ") }) : null),
      r.numbers ? el("dl", { class: "enc-p-numbers" }, ...r.numbers.map(([label, value]) => el("div", { class: "enc-stat" },
        el("dt", { text: label }), el("dd", { text: value })))) : null)));
    if (!view.rows.length) rows.replaceChildren(el("li", { class: "enc-empty", text: "Nobody yet." }));
  }

  function tick() {
    timer.hidden = !(view?.timer && view.phase === "combat");
    if (!timer.hidden) timer.textContent = `This turn: ${clock(/** @type {CheckedView & {timer: {since: number}}} */ (view).timer.since)}`; // shown only with a timer
    showTop();
  }
  const ticking = setInterval(tick, 1000);
  onPageEnd(pageSignal(), () => clearInterval(ticking));

  return {
    extra,
    /** @param {unknown} data @returns {boolean} */
    show(data) {
      const checked = checkView(data);
      if (!checked) return false; // not a view this page draws: refused
      const same = JSON.stringify(checked) === JSON.stringify(view);
      view = checked;
      if (!same) draw();
      return true;
    },
    /** @param {string} text @param {boolean} [alone] */
    say(text, alone = false) {
      status.textContent = text;
      status.classList.toggle("enc-p-alone", alone);
    },
    seen: () => view !== null,
    /** The view last drawn, as checked. */
    view: () => view,
  };
}

// ---------------------------------------------------------------- the players' window

/** Draw the players' view in `box` (the tracker's container on the page opened at #players).
 * @param {HTMLElement} box */
export function setUpPlayers(box) {
  const drawing = playersDrawing(box, "Players' view", "Looking for the GM's tab…");
  let heard = false; // an answer since the last question
  let gmOpen = false;

  /** @param {boolean} open */
  function showGm(open) {
    gmOpen = open;
    drawing.say(open ? "Following the GM's tab." : drawing.seen()
      ? "The GM's tab is closed: this is the fight as it last stood. Open the encounter tracker on this device to follow it again."
      : "No GM tab is open: open the encounter tracker in another tab or window of this browser, on this device, and this view follows it.", !open);
  }

  if (typeof BroadcastChannel !== "function") {
    drawing.say("This browser cannot keep two windows in step (no BroadcastChannel): show the tracker itself instead.");
    return;
  }
  const channel = new BroadcastChannel(CHANNEL);
  const follower = viewFollower(() => channel.postMessage({ type: "hello" })); // a step missed: the whole view, once
  channel.addEventListener("message", (event) => {
    const data = event.data;
    if (!plain(data)) return;
    if (data.type === "bye") return showGm(false);
    const view = follower.take(data);
    if (!view || !drawing.show(view)) return;
    heard = true;
    if (!gmOpen) showGm(true);
  });
  const ask = () => {
    heard = false;
    channel.postMessage({ type: "hello" });
    setTimeout(() => { if (!heard) showGm(false); }, ANSWER_WITHIN);
  };
  ask();
  const asking = setInterval(ask, ASK_EVERY);
  onPageEnd(pageSignal(), () => { // a link followed from this window: the view is gone
    clearInterval(asking);
    channel.close();
  });
}
