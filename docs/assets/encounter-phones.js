// The GM's side of the players' phones: the tracker's "Players' phones"
// section. Each seat is one WebRTC data channel to one phone, made with no
// server (phone-link.js): the seat shows its offer as a QR code of this page's
// address with #join=<code> (and as text), the phone's camera opens it, and the
// phone's answer comes back typed or pasted here, scanned in the page where
// the browser reads QR codes (BarcodeDetector), or through this device's own
// camera app, whose #answer=<code> page hands it over the same-device
// BroadcastChannel (encounter-join.js).
//
// Only the players' view leaves this device (encounter.js playersView(): no
// foe's numbers, no note, no dice): whole when a phone connects or asks, and
// then what each step changed (players-view.js), to every open seat.
// Each seat's messages are checked (phone-link.js inbox: size, rate, shape)
// and anything refused is counted, said beside the seat and answered with the
// reason; nothing a phone sends runs or changes the fight. While a seat is
// open it holds a spare offer for the phone's next connection, so a phone that
// reloads answers at once and only that answer needs scanning.

import { onPageEnd, pageSignal, plural } from "./dom.js";
import { button, el, pack } from "./tracker-kit.js";
import { CHANNEL } from "./encounter-players.js";
import { plain } from "./players-view.js";
import { MAX_CODE } from "./phone-code.js";
import { accept, answerFor, hasRtc, inbox, offer, send } from "./phone-link.js";
import { qrSvg } from "./print-address.js";
import { loadQr } from "./encounter-join.js";
import { checkRoll, requestRow } from "./encounter-roll.js";

export const MAX_SEATS = 12; // a table's players and a few more; each seat is one connection kept open
const SCAN_EVERY = 400; // ms between looks at the camera's picture
/** The browser's QR code reader where it has one (Chromium on Android and macOS, Safari 17+), as this page uses it.
 * @typedef {{detect: (source: HTMLVideoElement) => Promise<{rawValue: string}[]>}} Detector */
const Reader = /** @type {{BarcodeDetector?: new (options: {formats: string[]}) => Detector}} */ (/** @type {unknown} */ (globalThis)).BarcodeDetector;

/** One seat: its number, its connection and channel, the spare connection for the phone's next one, and
 * what is shown of it.
 * @typedef {{n: number, link: import("./phone-link.js").Link | null, spare: import("./phone-link.js").Link | null,
 *   state: HTMLElement, item: HTMLElement, roll: HTMLElement, join: HTMLElement | null, refused: number, open: boolean}} Seat */
/** What the tracker gives this section: the players' view now, the message that brings a phone to it whole
 * (players-view.js), the fight now, and its one way to run an action.
 * @typedef {{view: () => object, whole: () => import("./players-view.js").ViewMessage, state: () => import("../../types/trackers").Encounter | null,
 *   run: (action: import("./tracker-kit.js").Action, options: {roll: boolean}) => Promise<{ok: boolean, headline?: string, error?: string} | null>}} Tracker */

/** What the seats of one tracker tab share: the page's lifetime, the tab's tag, the seats, the section's note and
 * list, the QR module, and what the tracker gives (Tracker).
 * @typedef {Tracker & {lifetime: AbortSignal, tag: number, seats: Seat[], next: number, note: HTMLElement, list: HTMLElement,
 *   qrModule: Promise<import("./print-address.js").LeanQr | null>}} Table */

/** The "Players' phones" section of the GM's tracker.
 * @param {HTMLElement} box the tracker's container (its `data-qr`) @param {Tracker} tracker */
export function phoneSeats(box, tracker) {
  /** @type {Table} */
  const t = { ...tracker, lifetime: pageSignal(), tag: crypto.getRandomValues(new Uint16Array(1))[0], // this tab's seats: an answer for another tab is refused
    seats: [], next: 1, list: el("ol", { class: "enc-seats", "data-enc": "seats" }), note: el("p", { class: "enc-note", "data-enc": "phones-note" }),
    qrModule: loadQr(box) };
  const addButton = button("Add a seat", () => { void addSeat(t); }, { "data-enc": "phone-add" });
  const linkBox = el("div", { class: "enc-view-link", "data-enc": "view-link" });
  const linkButton = button("The players' view as a link", () => { void viewLink(t, linkBox); }, { "data-enc": "phone-view-link" });
  const section = el("section", { class: "enc-section enc-phones", "data-enc": "phones", "aria-labelledby": "enc-phones-title" },
    el("h2", { id: "enc-phones-title", text: "Players' phones" }),
    el("p", { text: "Each player follows the fight on their own phone, over this Wi-Fi, with no server: add a seat, the player scans its code with the phone's camera, and you scan or type the code the phone then shows. Phones see what the players' window shows, never a foe's numbers." }),
    t.note, el("div", { class: "calc-actions" }, addButton, linkButton), linkBox, t.list);
  if (!hasRtc()) {
    t.note.textContent = "This browser has no WebRTC, so no phone can join it. Use the players' window instead.";
    addButton.disabled = true;
  }
  handOvers(t);
  return {
    section,
    /** Send every open seat the players' view's latest message (players-view.js viewFeed). @param {import("./players-view.js").ViewMessage} message */
    tell(message) {
      for (const seat of t.seats) if (seat.open) send(seat.link?.channel ?? null, message);
    },
  };
}

/** Where no connection can be made: the players' view now as a link (deflated, in the address's fragment),
 * with its QR code; a phone scans it again to see the fight as it is later. @param {Table} t @param {HTMLElement} linkBox */
async function viewLink(t, linkBox) {
  const code = await pack(JSON.stringify(t.view())).catch(() => "");
  if (!code) return void (linkBox.textContent = "This browser cannot make a link (no CompressionStream).");
  const address = new URL("#view=" + code, location.href).href;
  const qr = await t.qrModule;
  linkBox.replaceChildren(el("p", { class: "enc-note", text: "The fight as it stands now, for a phone that cannot connect: it does not follow the fight; press again and scan again to show it later." }),
    ...(qr && drawable(qr, address) ? [el("div", { class: "enc-phone-qr", role: "img", "aria-label": "QR code of the players' view", "data-enc": "view-link-qr" }, qrSvg(qr, address, "enc-qr-code"))] : []),
    el("p", { class: "enc-phone-code" }, el("code", { "data-enc": "view-link-address", text: address })));
}

/** Whether a QR code can hold `text` (a big fight's view may not: then the link is text only).
 * @param {import("./print-address.js").LeanQr} qr @param {string} text */
const drawable = (qr, text) => { try { qr.generate(text); return true; } catch { return false; } };

/** @param {Seat} seat @param {string} text */
const say = (seat, text) => { seat.state.textContent = text; };

/** @param {Table} t */
async function addSeat(t) {
  if (t.seats.length >= MAX_SEATS) {
    t.note.textContent = `${MAX_SEATS} seats is the most one tracker keeps: drop one first.`;
    return;
  }
  const n = t.next++;
  const state = el("p", { class: "enc-seat-state", role: "status", "data-seat-state": "", text: "Making this seat's code…" });
  const roll = el("div", { class: "enc-seat-rolls" });
  const item = el("li", { class: "enc-seat", "data-seat": n }, el("h3", { text: `Seat ${n}` }), state, roll);
  /** @type {Seat} */
  const seat = { n, link: null, spare: null, state, item, roll, join: null, refused: 0, open: false };
  t.seats.push(seat);
  t.list.append(item);
  try {
    seat.link = await offer(t.tag, n);
  } catch (err) {
    say(seat, `${/** @type {Error} */ (err).message} No phone can join this seat.`);
    return;
  }
  if (t.lifetime.aborted || !t.seats.includes(seat)) return seat.link.pc.close();
  wire(t, seat, seat.link);
  seat.join = joinPart(seat, new URL("#join=" + seat.link.code, location.href).href, await t.qrModule, (code) => take(t, code, (said) => say(seat, said)));
  item.append(seat.join, el("div", { class: "calc-actions" }, button("Drop this seat", () => drop(t, seat), { "data-seat-drop": "" })));
  say(seat, "Waiting for a phone: scan this code with the player's phone camera.");
}

/** What joining a seat asks for: its code (a QR code and the address), and the phone's answer, typed or scanned;
 * folded away while the phone is connected (shown again when it leaves).
 * @param {Seat} seat @param {string} address @param {import("./print-address.js").LeanQr | null} qr @param {(code: string) => void} connectWith */
function joinPart(seat, address, qr, connectWith) {
  const n = seat.n;
  const answerBox = el("input", { type: "text", id: `enc-seat-${n}-answer`, "data-seat-answer": "", autocomplete: "off", spellcheck: "false", maxlength: MAX_CODE });
  const scan = Reader && typeof navigator.mediaDevices?.getUserMedia === "function"
    ? button("Scan the phone's code", () => scanInto(seat, connectWith), { "data-seat-scan": "" }) : null;
  return el("div", { class: "enc-seat-join", hidden: seat.open },
    ...(qr ? [el("div", { class: "enc-phone-qr", role: "img", "aria-label": `QR code for seat ${n}`, "data-seat-qr": "" }, qrSvg(qr, address, "enc-qr-code"))] : []),
    el("p", { class: "enc-phone-code" }, el("span", { text: "Or open on the phone: " }), el("code", { "data-seat-offer": "", text: address })),
    el("div", { class: "calc-field" }, el("label", { for: answerBox.id, text: "The phone's answer (the letters under its code)" }), answerBox),
    el("div", { class: "calc-actions" }, button("Connect", () => connectWith(answerBox.value.trim()), { "data-seat-connect": "" }), scan),
    ...(scan ? [] : [el("p", { class: "enc-note", text: "This browser cannot read a QR code in the page: scan the phone's code with this device's camera app (it hands the code to this tab), or type the letters." })]));
}

/** Watch one connection of a seat: its channel opening, its messages, its closing.
 * @param {Table} t @param {Seat} seat @param {import("./phone-link.js").Link} link */
function wire(t, seat, link) {
  const signal = t.lifetime;
  link.channel.addEventListener("open", () => {
    if (seat.link !== link) return;
    seat.open = true;
    if (seat.join) seat.join.hidden = true;
    say(seat, "Connected: this phone follows the fight.");
    send(link.channel, t.whole());
    void spareFor(t, seat);
  }, { signal });
  link.channel.addEventListener("message", heed(t, seat, link), { signal });
  link.channel.addEventListener("close", () => {
    if (seat.link !== link || !t.seats.includes(seat)) return;
    seat.open = false;
    if (seat.join) seat.join.hidden = false;
    say(seat, seat.spare ? "The phone left (a reload, or asleep). It shows a new code when it comes back: scan or type it here."
      : "The connection closed. Drop this seat and add another for the phone.");
  }, { signal });
  link.pc.addEventListener("connectionstatechange", () => {
    if (seat.link === link && link.pc.connectionState === "failed" && !seat.open) {
      say(seat, "The phone answered, but no connection was made: this device and the phone must be on the same network, and a guest Wi-Fi that keeps devices apart stops it.");
    }
  }, { signal });
  onPageEnd(signal, () => link.pc.close());
}

/** What a seat does with its phone's messages, each checked (phone-link.js inbox): a hello is answered with the
 * whole view, a roll waits for the GM, anything else is refused, counted and said.
 * @param {Table} t @param {Seat} seat @param {import("./phone-link.js").Link} link @returns {(event: MessageEvent) => void} */
function heed(t, seat, link) {
  const mail = inbox();
  let told = 0; // when the phone was last told why a message was refused (one reason a second at most)
  return (event) => {
    const got = mail.take(event.data);
    const type = "message" in got ? got.message.type : "";
    if (type === "hello") return void send(link.channel, t.whole()); // a phone that joined or missed a step
    const request = "message" in got && type === "roll" ? checkRoll(got.message) : null;
    if (request && typeof request !== "string") return waiting(t, seat, link, request);
    const why = "why" in got ? got.why : typeof request === "string" ? request : "a message of a type this tracker does not take";
    seat.refused += 1;
    if (performance.now() - told > 1000) {
      told = performance.now();
      send(link.channel, { type: "refused", why });
    }
    say(seat, `Connected, but ${plural(seat.refused, "message")} from this phone refused (the last: ${why}). Nothing it sent changed the fight; drop the seat if it goes on.`);
  };
}

/** A player's roll waits beside its seat for the GM (a newer one replaces it): accepted, it is the tracker's
 * own attack through its one run(); declined, nothing happens. The phone is told either way.
 * @param {Table} t @param {Seat} seat @param {import("./phone-link.js").Link} link @param {import("./encounter-roll.js").RollRequest} r */
function waiting(t, seat, link, r) {
  /** @param {boolean} accepted @param {string} said */
  const answer = (accepted, said) => {
    seat.roll.replaceChildren(el("p", { class: "enc-note", "data-seat-roll-said": "", text: `${accepted ? "Accepted" : "Not taken"}: ${said}` }));
    send(link.channel, { type: "roll-answer", accepted, said });
  };
  seat.roll.replaceChildren(requestRow(r, async () => {
    seat.roll.replaceChildren();
    const outcome = await act(t, r);
    answer(outcome.accepted, outcome.said);
  }, () => answer(false, "the GM declined it.")));
}

/** A player's attack as the tracker's own action, the names read against the fight as it stands.
 * @param {Tracker} t @param {import("./encounter-roll.js").RollRequest} r @returns {Promise<{accepted: boolean, said: string}>} */
async function act(t, r) {
  const now = t.state();
  if (now?.phase !== "combat") return { accepted: false, said: "the fight is not on." };
  const attacker = now.combatants.find((c) => c.name === r.as && c.side === "party");
  const target = now.combatants.find((c) => c.name === r.target && c.in_fight);
  if (!attacker || !target) return { accepted: false, said: `${!attacker ? r.as : r.target} is not in the fight.` };
  const result = await t.run({ do: "attack", attacker: attacker.id, target: target.id, dice: { d20: r.d20.length === 1 ? r.d20[0] : r.d20 } }, { roll: true });
  if (!result) return { accepted: false, said: "the tracker was busy: the GM accepts it again." };
  return result.ok ? { accepted: true, said: result.headline ?? "" } : { accepted: false, said: result.error ?? "" };
}

/** A spare offer for the phone's next connection, sent while the seat is open. @param {Table} t @param {Seat} seat */
async function spareFor(t, seat) {
  seat.spare?.pc.close();
  seat.spare = null;
  const spare = await offer(t.tag, seat.n).catch(() => null);
  if (!spare || t.lifetime.aborted || !t.seats.includes(seat)) return spare?.pc.close();
  seat.spare = spare;
  send(seat.link?.channel ?? null, { type: "spare", code: spare.code });
}

/** A phone's answer, typed, scanned or handed over: to its seat. `tell` says what happened.
 * @param {Table} t @param {string} code @param {(said: string) => void} tell */
async function take(t, code, tell) {
  const text = code.replace(/^.*#answer=/, "");
  let to;
  try {
    to = answerFor(text);
  } catch (err) {
    return tell(/** @type {Error} */ (err).message);
  }
  const seat = t.seats.find((s) => s.n === to.seat);
  if (to.tag !== t.tag || !seat) return tell("This answer is for a seat of another tracker (or one dropped, or from before this page was reloaded): the player scans a seat's code again.");
  const pending = seat.link && !seat.link.pc.remoteDescription ? seat.link : !seat.open && seat.spare ? seat.spare : null;
  if (!pending) return tell(`Seat ${seat.n} is connected already.`);
  try {
    await accept(pending.pc, text);
  } catch (err) {
    return tell(`The answer does not fit seat ${seat.n}'s code (${/** @type {Error} */ (err).message}): the player scans the seat's code again.`);
  }
  if (pending === seat.spare) {
    seat.link?.pc.close();
    seat.link = pending;
    seat.spare = null;
    wire(t, seat, pending);
  }
  say(seat, "Connecting to the phone…");
  tell(`Seat ${seat.n} is connecting.`);
}

/** @param {Table} t @param {Seat} seat */
function drop(t, seat) {
  send(seat.link?.channel ?? null, { type: "bye" });
  t.seats.splice(t.seats.indexOf(seat), 1);
  setTimeout(() => { seat.link?.pc.close(); seat.spare?.pc.close(); }, 200); // the bye goes out first
  seat.item.remove();
  t.note.textContent = `Seat ${seat.n} dropped: nothing more goes to its phone.`;
}

/** Read a phone's code with the camera, in the page (BarcodeDetector), and connect with it.
 * @param {Seat} seat @param {(code: string) => void} connectWith */
async function scanInto(seat, connectWith) {
  if (!Reader) return;
  const video = el("video", { class: "enc-scan", muted: true, playsinline: true, "aria-label": "The camera's picture" });
  let stream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" } });
  } catch {
    return say(seat, "The camera could not be opened here (not allowed, or this page is not on https): scan with the camera app, or type the letters.");
  }
  video.srcObject = stream;
  seat.item.append(video);
  await video.play().catch(() => {});
  const detector = new Reader({ formats: ["qr_code"] });
  const stop = () => { clearInterval(looking); stream.getTracks().forEach((track) => track.stop()); video.remove(); };
  const looking = setInterval(async () => {
    const found = await detector.detect(video).catch(() => []);
    const value = found[0]?.rawValue;
    if (!value) return;
    stop();
    connectWith(value);
  }, SCAN_EVERY);
  onPageEnd(pageSignal(), stop);
}

/** Answers from this device's camera app (#answer=<code>, encounter-join.js), each checked before it is read.
 * @param {Table} t */
function handOvers(t) {
  const handed = typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL) : null;
  handed?.addEventListener("message", (event) => {
    const data = event.data;
    if (!plain(data) || data.type !== "answer" || typeof data.code !== "string" || data.code.length > MAX_CODE) return;
    const code = data.code;
    try {
      if (answerFor(code).tag !== t.tag) return; // another tracker tab's seat: that tab answers
    } catch {
      return;
    }
    void take(t, code, (said) => handed.postMessage({ type: "answer-taken", code, said }));
  });
  onPageEnd(t.lifetime, () => handed?.close());
}
