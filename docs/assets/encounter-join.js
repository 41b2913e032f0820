// A player's phone following the GM's fight, with no server: the page the
// GM's seat code opens (the encounter page at #join=<offer>, read by the
// phone's own camera app). It answers the offer, shows its answer as a QR code
// and as text for the GM to scan or type, and once the data channel opens
// draws the players' view the GM's tracker sends, whole and then each step's
// changes (players-view.js follows and checks them, encounter-players.js draws; no Python starts on this page: calc-runtime.js SHOW_ONLY).
//
// The code leaves the address as soon as it is read (the address becomes
// #phone), and the offer is kept in this tab's sessionStorage: while the
// channel is open the GM's tracker sends a spare offer for the next
// connection, which replaces it. So a reload, or a phone woken after the
// connection dropped, answers the spare offer at once and only its new answer
// needs scanning again; the last view stays on screen meanwhile.
//
// The same page opened at #answer=<code> is the GM's own camera app reading a
// phone's answer: it hands the code to the tracker open on this device (a
// BroadcastChannel) and says whether a tracker took it.

import { onPageEnd, pageSignal } from "./dom.js";
import { el, unpack } from "./tracker-kit.js";
import { CHANNEL, playersDrawing } from "./encounter-players.js";
import { plain, viewFollower } from "./players-view.js";
import { MAX_CODE } from "./phone-code.js";
import { answer, hasRtc, inbox, send } from "./phone-link.js";
import { qrSvg } from "./print-address.js";
import { rollForm } from "./encounter-roll.js";
import { PHONE, PHONE_VIEW } from "./storage.js";

const ANSWER_WITHIN = 1500; // ms for a tracker tab on this device to say it took an answer

/** Whether `hash` is this module's: a phone following a fight, or an answer handed to the GM's tracker.
 * @param {string} hash */
export const isPhoneHash = (hash) => /^#(phone|join=|answer=|view=)/.test(hash);

/** The lean-qr module, from the tracker's container (`data-qr`, written by the build).
 * @param {HTMLElement} box @returns {Promise<import("./print-address.js").LeanQr | null>} */
export async function loadQr(box) {
  if (!box.dataset.qr) return null;
  try {
    return await import(new URL(box.dataset.qr, location.href).href);
  } catch {
    return null;
  }
}

/** The code in the address after `prefix`, and the address left without it (at `rest`).
 * @param {string} prefix @param {string} rest */
function takeCode(prefix, rest) {
  const code = location.hash.slice(prefix.length);
  history.replaceState(history.state, "", rest);
  return code.length <= MAX_CODE ? code : "";
}

/** @param {HTMLElement} box */
export function setUpPhone(box) {
  if (location.hash.startsWith("#answer=")) return handOver(box, takeCode("#answer=", "#answer="));
  if (location.hash.startsWith("#view=")) return viewLink(box, location.hash.slice(6));
  const fresh = location.hash.startsWith("#join=") ? takeCode("#join=", "#phone") : "";
  if (fresh) {
    keep(fresh);
    keep("", PHONE_VIEW); // a new seat: no fight from before
  }
  const drawing = playersDrawing(box, "Your phone: the fight", "Joining the GM's fight…");
  const panel = el("div", { class: "enc-phone", "data-phone": "panel" });
  drawing.extra.append(panel);
  const lifetime = pageSignal();
  drawing.show(parse(kept(PHONE_VIEW))); // the fight as it last stood, before a reload (checked like any view)
  const offer = kept();
  if (!offer) {
    drawing.say("This page has no code from the GM: scan the code of a seat on the GM's tracker with this phone's camera.", true);
    return;
  }
  if (!hasRtc()) {
    drawing.say("This browser has no WebRTC, so it cannot join the GM's fight: open the GM's code in another browser of this phone, or follow the players' window the GM shows.", true);
    return;
  }
  /** @type {RTCPeerConnection | null} */
  let pc = null;
  answer(offer).then(async (link) => {
    if (lifetime.aborted) return link.pc.close();
    pc = link.pc;
    onPageEnd(lifetime, () => link.pc.close());
    const address = new URL("#answer=" + link.code, location.href).href;
    const qr = await loadQr(box);
    panel.replaceChildren(el("p", { text: "Show this code to the GM: they scan it with the tracker or their camera, or type the letters below it." }),
      ...(qr ? [el("div", { class: "enc-phone-qr", role: "img", "aria-label": "QR code of this phone's answer", "data-phone": "qr" }, qrSvg(qr, address, "enc-qr-code"))] : []),
      el("p", { class: "enc-phone-code" }, el("span", { text: "Answer: " }), el("code", { "data-phone": "code", text: link.code })));
    drawing.say(drawing.seen() ? "Reconnecting: the GM scans this phone's new code below. Meanwhile, the fight as it last stood." : "Waiting for the GM to scan this phone's code.", drawing.seen());
    const mail = inbox({ rate: 100, burst: 200 }); // the GM's views, one a step
    const follower = viewFollower(() => send(link.channel, { type: "hello" })); // a step missed: the whole view, once
    const rolls = rollForm(el("div", { class: "enc-phone-rolls", "data-phone": "rolls" }), (r) => send(link.channel, r));
    link.channel.addEventListener("open", () => {
      panel.replaceChildren(rolls.box);
      const shown = drawing.view();
      if (shown) rolls.draw(shown);
      drawing.say("Following the GM's fight.");
      send(link.channel, { type: "hello" });
    }, { signal: lifetime });
    link.channel.addEventListener("message", (event) => {
      const got = mail.take(event.data);
      if ("why" in got) return; // the GM's tracker sends nothing else: a broken or hostile peer, ignored
      const m = got.message;
      const view = m.type === "view" || m.type === "step" ? follower.take(m) : null;
      if (view && drawing.show(view)) {
        rolls.draw(/** @type {import("./players-view.js").CheckedView} */ (drawing.view()));
        keep(JSON.stringify({ v: 1, ...drawing.view() }), PHONE_VIEW);
      }
      else if (m.type === "roll-answer") rolls.answer(m);
      else if (m.type === "spare" && typeof m.code === "string" && m.code.length <= MAX_CODE) keep(m.code);
      else if (m.type === "refused" && typeof m.why === "string") drawing.say(`The GM's tracker refused a message from this phone: ${m.why.slice(0, 200)}.`, true);
      else if (m.type === "bye") lost("The GM dropped this phone's seat");
    }, { signal: lifetime });
    link.channel.addEventListener("close", () => lost("The connection to the GM closed"), { signal: lifetime });
    link.pc.addEventListener("connectionstatechange", () => {
      if (link.pc.connectionState === "failed") lost("The connection to the GM failed");
    }, { signal: lifetime });
  }).catch((/** @type {Error} */ err) => {
    drawing.say(`${err.message} This phone cannot join with it: ask the GM for a new seat code.`, true);
  });

  let gone = false; // the first reason the connection ended is the one said
  /** @param {string} what */
  function lost(what) {
    if (gone) return;
    gone = true;
    pc?.close();
    drawing.say(`${what}. ${drawing.seen() ? "This is the fight as it last stood. " : ""}Reload this page to make a new code for the GM to scan (the phone and the GM's device must be on the same Wi-Fi; a guest Wi-Fi that keeps devices apart stops it), or ask the GM for the players' view as a link.`, true);
  }
}

/** The players' view as a link (the fallback where no connection can be made): the fight as it stood when the GM
 * made the link, checked like any view. It stays in the address: a reload shows it again.
 * @param {HTMLElement} box @param {string} code */
function viewLink(box, code) {
  const drawing = playersDrawing(box, "The fight", "Reading the GM's link…");
  unpack(code, "view", 64 * 1024).then((text) => {
    if (!drawing.show(parse(text))) throw new Error("the link holds no players' view of this site");
    drawing.say("The fight as it stood when the GM made this link: to see it as it is now, scan the GM's new link.", true);
  }).catch((/** @type {Error} */ err) => drawing.say(`This link cannot be shown: ${err.message}.`, true));
}

/** What this tab keeps (sessionStorage): under PHONE the offer it answers, the GM's seat code or the spare one
 * the GM sent for the next connection; under PHONE_VIEW the last view drawn. @param {string} [key] */
function kept(key = PHONE) {
  try {
    return sessionStorage.getItem(key) ?? "";
  } catch {
    return "";
  }
}
/** @param {string} text @param {string} [key] */
function keep(text, key = PHONE) {
  try {
    sessionStorage.setItem(key, text);
  } catch { /* no storage: a reload needs the GM's seat code again, and shows no fight until it connects */ }
}
/** @param {string} text @returns {unknown} */
function parse(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The GM's own camera app opened a phone's answer: hand it to the tracker open on this device.
 * @param {HTMLElement} box @param {string} code */
function handOver(box, code) {
  const status = el("p", { class: "enc-p-status", role: "status", "data-players": "status" });
  box.classList.add("encounter");
  box.replaceChildren(el("h1", { text: "A player's answer" }), status);
  if (!code) {
    status.textContent = "This address holds no answer any more (it is read once). Scan the player's code again.";
    return;
  }
  if (typeof BroadcastChannel !== "function") {
    status.textContent = `This browser cannot reach the tracker's tab (no BroadcastChannel). Type this answer into the seat on the tracker: ${code}`;
    return;
  }
  const channel = new BroadcastChannel(CHANNEL);
  onPageEnd(pageSignal(), () => channel.close());
  let taken = false;
  channel.addEventListener("message", (event) => {
    const data = event.data;
    if (!plain(data) || data.type !== "answer-taken" || data.code !== code || typeof data.said !== "string") return;
    taken = true;
    status.textContent = `The encounter tracker on this device took the answer: ${data.said.slice(0, 300)} You may close this tab.`;
  });
  channel.postMessage({ type: "answer", code });
  status.textContent = "Handing the answer to the encounter tracker on this device…";
  setTimeout(() => {
    if (!taken) status.textContent = `No encounter tracker on this device took the answer. Open the tracker in this browser (its seats are in "Players' phones") and scan the player's code again, or type this answer into the seat: ${code}`;
  }, ANSWER_WITHIN);
}
