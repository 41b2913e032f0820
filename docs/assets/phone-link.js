// A data channel between two devices on one network, with no server: the
// browser's own WebRTC with no STUN or TURN server (iceServers: []), one
// negotiated channel (id 0, so neither side waits for the other to open it),
// and the offer and answer carried as the short codes of phone-code.js. Each
// side waits for its candidates to be gathered (at most GATHER_MS) before it
// writes its code, since the codes are the only signalling there is.
//
// Every message that arrives is checked here before anything reads it: its
// size before JSON.parse, how often messages come (a token bucket), that it is
// a JSON object with a known `type`. What fails is counted and refused, never
// parsed further.

import { decode, encode, fromSdp, toSdp } from "./phone-code.js";

export const GATHER_MS = 2500; // loopback and a home Wi-Fi gather in under 100 ms; a slow interface is left out
export const MAX_MESSAGE = 64 * 1024; // characters: a players' view of 24 combatants is under 8 KB
export const RATE = 20; // messages a second a peer may send, on average
export const BURST = 40; // and at once
const CHANNEL = { negotiated: true, id: 0, ordered: true };

/** A connection made from one side: its peer connection, its channel and its code.
 * @typedef {{pc: RTCPeerConnection, channel: RTCDataChannel, code: string}} Link */

/** Whether this browser has WebRTC at all. */
export const hasRtc = () => typeof RTCPeerConnection === "function";

/** Wait until the connection has gathered its candidates, or GATHER_MS.
 * @param {RTCPeerConnection} pc @returns {Promise<void>} */
function gathered(pc) {
  return new Promise((resolve) => {
    if (pc.iceGatheringState === "complete") return resolve();
    const done = () => { if (pc.iceGatheringState === "complete") { clearTimeout(timer); resolve(); } };
    const timer = setTimeout(resolve, GATHER_MS);
    pc.addEventListener("icegatheringstatechange", done);
  });
}

/** A new connection with its channel: no ICE servers, so only this device's own addresses are offered. */
function newPeer() {
  const pc = new RTCPeerConnection({ iceServers: [] });
  return { pc, channel: pc.createDataChannel("table", CHANNEL) };
}

/** The GM's side: an offer for seat `seat` of the table tagged `tag`.
 * @param {number} tag @param {number} seat @returns {Promise<Link>} */
export async function offer(tag, seat) {
  const { pc, channel } = newPeer();
  await pc.setLocalDescription(await pc.createOffer());
  await gathered(pc);
  try {
    return { pc, channel, code: encode(fromSdp(/** @type {RTCSessionDescription} */ (pc.localDescription).sdp, "offer", tag, seat)) };
  } catch (err) {
    pc.close();
    throw err;
  }
}

/** A player's side: the answer to an offer's code (refused in words if the code is not an offer).
 * @param {string} code @returns {Promise<Link & {tag: number, seat: number}>} */
export async function answer(code) {
  const theirs = decode(code);
  if (theirs.kind !== "offer") throw new Error("This code is a player's answer, not the GM's offer: scan it on the GM's device.");
  const { pc, channel } = newPeer();
  try {
    await pc.setRemoteDescription({ type: "offer", sdp: toSdp(theirs) });
    await pc.setLocalDescription(await pc.createAnswer());
    await gathered(pc);
    const sdp = /** @type {RTCSessionDescription} */ (pc.localDescription).sdp;
    return { pc, channel, code: encode(fromSdp(sdp, "answer", theirs.tag, theirs.seat)), tag: theirs.tag, seat: theirs.seat };
  } catch (err) {
    pc.close();
    throw err;
  }
}

/** The table tag and seat an answer's code is for (refused in words if it is not an answer).
 * @param {string} code @returns {{tag: number, seat: number}} */
export function answerFor(code) {
  const theirs = decode(code);
  if (theirs.kind !== "answer") throw new Error("This code is the GM's offer, not a player's answer: scan it with the player's phone.");
  return { tag: theirs.tag, seat: theirs.seat };
}

/** The GM's side takes a player's answer. @param {RTCPeerConnection} pc @param {string} code */
export async function accept(pc, code) {
  await pc.setRemoteDescription({ type: "answer", sdp: toSdp(decode(code)) });
}

/** Checks what one peer sends: `take(data)` gives the message as a plain object with a string `type`, or a
 * sentence saying why it was refused. `refused` counts the refusals. `rate` and `burst` (a phone takes the GM's
 * views at a higher rate than the GM takes a phone's messages: a GM may tap Undo ten times in a second).
 * @param {{rate?: number, burst?: number, now?: () => number}} [options] */
export function inbox({ rate = RATE, burst = BURST, now = () => performance.now() } = {}) {
  let tokens = burst, at = now();
  const box = {
    refused: 0,
    /** @param {unknown} data @returns {{message: Record<string, unknown> & {type: string}} | {why: string}} */
    take(data) {
      const t = now();
      tokens = Math.min(burst, tokens + ((t - at) / 1000) * rate);
      at = t;
      const why = tokens < 1 ? `more than ${rate} messages a second`
        : typeof data !== "string" ? "not text"
        : data.length > MAX_MESSAGE ? `${data.length} characters, more than ${MAX_MESSAGE}`
        : null;
      tokens = Math.max(0, tokens - 1);
      if (why) return box.refuse(why);
      let message;
      try {
        message = JSON.parse(/** @type {string} */ (data));
      } catch {
        return box.refuse("not JSON");
      }
      if (message === null || typeof message !== "object" || Array.isArray(message) || typeof message.type !== "string" || message.type.length > 20) {
        return box.refuse("not a message of this page");
      }
      return { message };
    },
    /** @param {string} why */
    refuse(why) {
      box.refused += 1;
      return { why };
    },
  };
  return box;
}

/** Send `message` as JSON if the channel is open; false if it is not.
 * @param {RTCDataChannel | null} channel @param {object} message */
export function send(channel, message) {
  if (channel?.readyState !== "open") return false;
  try {
    channel.send(JSON.stringify(message));
    return true;
  } catch {
    return false; // closed between the check and the send
  }
}
