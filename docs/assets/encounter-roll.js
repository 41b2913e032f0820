// A player's own attack roll, sent from their phone for the GM to accept.
// On the phone (rollForm): the player says which PC is theirs; on that PC's
// turn they pick a target and type the d20 they rolled (two with advantage or
// disadvantage), or let the phone roll, and send it. On the GM's tracker
// (checkRoll, requestRow): the request, checked like every message, waits
// beside its seat with Accept and Decline. Nothing changes before the GM
// accepts; an accepted roll is the tracker's own attack action, run through
// the same Python step as the GM's (encounter.js run), and the phone is told
// the outcome or the refusal in words.

import { button, el } from "./tracker-kit.js";
import { PHONE_PC } from "./storage.js";

/** A player's roll as the phone sends it: who attacks (their PC), whom, the d20s, whether the phone rolled them.
 * @typedef {{type: "roll", as: string, target: string, d20: number[], rolled: boolean}} RollRequest */

const NAME = 40; // characters of a name, as the players' view allows

/** A roll request checked and copied, or a sentence saying why it is refused.
 * @param {Record<string, unknown>} m @returns {RollRequest | string} */
export function checkRoll(m) {
  const keys = Object.keys(m);
  if (keys.length !== 5 || !["type", "as", "target", "d20", "rolled"].every((k) => keys.includes(k))) return "a roll of the wrong shape";
  const { as, target, d20, rolled } = m;
  if (typeof as !== "string" || typeof target !== "string" || !as.trim() || !target.trim() || as.length > NAME || target.length > NAME) return "a roll whose names are not names";
  if (!Array.isArray(d20) || d20.length < 1 || d20.length > 2 || !d20.every((d) => Number.isInteger(d) && d >= 1 && d <= 20)) return "a roll whose d20s are not one or two numbers from 1 to 20";
  if (typeof rolled !== "boolean") return "a roll of the wrong shape";
  return { type: "roll", as, target, d20: [...d20], rolled };
}

/** The request in words, as the GM reads it. @param {RollRequest} r */
export const said = (r) => `${r.as} attacks ${r.target}: d20 ${r.d20.join(" and ")} (${r.rolled ? "rolled by the phone" : "typed by the player"}).`;

/** The GM's row for one waiting request: its words, Accept and Decline.
 * @param {RollRequest} r @param {() => void} yes @param {() => void} no */
export function requestRow(r, yes, no) {
  return el("div", { class: "enc-seat-roll", "data-seat-roll": "" }, el("p", { text: said(r) }),
    el("div", { class: "calc-actions" }, button("Accept", yes, { class: "md-button md-button--primary", "data-seat-accept": "" }),
      button("Decline", no, { "data-seat-decline": "" })));
}

/** The phone's roll form, redrawn with each view. `send(request)` sends it; `answer(m)` shows the GM's answer.
 * @param {HTMLElement} box @param {(r: RollRequest) => boolean} send */
export function rollForm(box, send) {
  const mine = el("select", { id: "enc-phone-mine", "data-phone": "mine" });
  const target = el("select", { id: "enc-phone-target", "data-phone": "target" });
  const first = el("input", { type: "number", id: "enc-phone-d20", min: 1, max: 20, inputmode: "numeric", "data-phone": "d20" });
  const second = el("input", { type: "number", id: "enc-phone-d20b", min: 1, max: 20, inputmode: "numeric", "data-phone": "d20b", "aria-label": "Second d20 (advantage or disadvantage)" });
  const line = el("p", { class: "enc-phone-said", role: "status", "data-phone": "roll-status" });
  const turn = el("div", { class: "enc-phone-turn", hidden: true },
    el("div", { class: "calc-field" }, el("label", { for: target.id, text: "Your target" }), target),
    el("div", { class: "calc-field" }, el("label", { for: first.id, text: "Your d20 (two with advantage or disadvantage)" }), first, second),
    el("div", { class: "calc-actions" },
      button("Send my roll", () => go(false), { class: "md-button md-button--primary", "data-phone": "send-roll" }),
      button("Roll for me and send", () => go(true), { "data-phone": "roll" })));
  box.replaceChildren(el("div", { class: "calc-field" }, el("label", { for: mine.id, text: "You play" }), mine), turn, line);
  let chosen = "";
  try { chosen = sessionStorage.getItem(PHONE_PC) ?? ""; } catch { /* none kept */ }
  mine.addEventListener("change", () => {
    chosen = mine.value;
    try { sessionStorage.setItem(PHONE_PC, chosen); } catch { /* kept until the page goes */ }
    if (last) form.draw(last);
  });
  /** @type {import("./players-view.js").CheckedView | null} */
  let last = null;

  /** @param {boolean} roll */
  function go(roll) {
    const d20 = roll ? [die(), ...(second.value ? [die()] : [])] : [first.value, second.value].filter(Boolean).map(Number);
    const request = /** @type {RollRequest} */ ({ type: "roll", as: chosen, target: target.value, d20, rolled: roll });
    const checked = checkRoll(request);
    if (typeof checked === "string") return void (line.textContent = "Type your d20: a number from 1 to 20 (two with advantage or disadvantage).");
    line.textContent = send(checked) ? `Sent to the GM: ${said(checked)} Waiting for the GM to accept it.` : "Not sent: the connection to the GM is closed.";
  }

  const form = {
    box,
    /** @param {import("./players-view.js").CheckedView} view */
    draw(view) {
      last = view;
      const pcs = view.rows.filter((r) => r.side === "party" && r.numbers).map((r) => r.name);
      const options = ["", ...new Set(pcs)];
      if (options.join("\n") !== [...mine.options].map((o) => o.value).join("\n")) {
        mine.replaceChildren(...options.map((n) => el("option", { value: n, text: n || "(choose)" })));
      }
      mine.value = options.includes(chosen) ? chosen : "";
      const acting = view.phase === "combat" && view.rows.some((r) => r.acting && r.name === chosen);
      turn.hidden = !acting;
      const targets = view.rows.filter((r) => r.name !== chosen).map((r) => r.name);
      if (targets.join("\n") !== [...target.options].map((o) => o.value).join("\n")) {
        const was = target.value;
        target.replaceChildren(...targets.map((n) => el("option", { value: n, text: n })));
        if (targets.includes(was)) target.value = was;
        else target.value = view.rows.find((r) => r.side === "foes" && targets.includes(r.name))?.name ?? targets[0] ?? "";
      }
    },
    /** The GM's answer to a roll. @param {Record<string, unknown>} m */
    answer(m) {
      if (typeof m.accepted !== "boolean" || typeof m.said !== "string") return;
      line.textContent = (m.accepted ? "The GM accepted your roll: " : "The GM did not take your roll: ") + m.said.slice(0, 400);
      first.value = second.value = "";
    },
  };
  return form;
}

/** A d20 the phone rolls: crypto's random numbers, without the bias of a modulo. */
function die() {
  const one = new Uint8Array(1);
  do crypto.getRandomValues(one); while (one[0] >= 240);
  return (one[0] % 20) + 1;
}
