// A WebRTC offer or answer as a code short enough for a QR code scanned at
// arm's length: only what a data channel between two devices on one network
// needs (the ICE user fragment and password, the DTLS certificate's SHA-256
// fingerprint, the DTLS role and the host candidates), packed as bytes and
// written in base32 (A-Z, 2-7), which a QR code holds in its alphanumeric
// mode at 5.5 bits a character where base64 would need byte mode at 8.
// Decoding checks every value and rebuilds a minimal data-channel SDP that
// Chromium, Firefox and WebKit accept. Nothing here touches the page: Node
// runs it in the tests (tests/phone_code_runner.mjs).
//
// The bytes, in order:
//   1  version (high 4 bits, 1), kind (bit 3: 0 offer, 1 answer), DTLS setup (bits 0-1: actpass, active, passive)
//   2  the table's tag (which GM tab made the offer), big-endian
//   1  the seat number
//   1+n  the ICE user fragment (ASCII), 1+n the ICE password (ASCII)
//   32 the certificate's SHA-256 fingerprint
//   1  the number of candidates, then each: its address type (4: IPv4, 6: IPv6, 16: an mDNS name, a UUID
//      followed by ".local"), the address's 4, 16 or 16 bytes, and the UDP port (2 bytes)

export const VERSION = 1;
export const KINDS = /** @type {const} */ (["offer", "answer"]);
const SETUPS = ["actpass", "active", "passive"];
export const MAX_CANDIDATES = 6; // more lengthen the code; a phone on one Wi-Fi has one or two
const ICE_CHAR = /^[A-Za-z0-9+/]+$/; // RFC 8839's ice-char
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.local$/;
const B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
export const MAX_CODE = 400; // characters: a code longer than any this module writes is refused unread

/** One host candidate: its address (IPv4, IPv6 or an mDNS name) and UDP port.
 * @typedef {{address: string, port: number}} Candidate */
/** What a code carries.
 * @typedef {{kind: "offer" | "answer", setup: string, tag: number, seat: number, ufrag: string, pwd: string,
 *   fingerprint: Uint8Array, candidates: Candidate[]}} Connection */

/** Base32 (RFC 4648's alphabet, no padding) of `bytes`. @param {Uint8Array} bytes */
export function toBase32(bytes) {
  let out = "", bits = 0, value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += B32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= 0xff;
  }
  if (bits > 0) out += B32[(value << (5 - bits)) & 31];
  return out;
}

/** The bytes of a base32 text (either case), or null if it is not base32. @param {string} text */
export function fromBase32(text) {
  const out = [];
  let bits = 0, value = 0;
  for (const ch of text.toUpperCase()) {
    const v = B32.indexOf(ch);
    if (v < 0) return null;
    value = ((value << 5) | v) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return new Uint8Array(out);
}

/** The address's bytes and type, or null for an address this code does not carry.
 * @param {string} address @returns {[number, number[]] | null} */
function addressBytes(address) {
  const v4 = address.match(/^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/);
  if (v4) {
    const parts = v4.slice(1).map(Number);
    return parts.every((p) => p <= 255) ? [4, parts] : null;
  }
  if (UUID.test(address)) return [16, (address.slice(0, 36).replaceAll("-", "").match(/../g) ?? []).map((h) => parseInt(h, 16))];
  if (address.includes(":") && /^[0-9a-fA-F:]+$/.test(address)) {
    const [head, tail = null, extra] = address.split("::");
    if (extra !== undefined) return null;
    const front = head ? head.split(":") : [];
    const back = tail ? tail.split(":") : [];
    const missing = 8 - front.length - back.length;
    if (missing < 0 || (tail === null && missing !== 0) || [...front, ...back].some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) return null;
    const groups = [...front, ...Array(tail === null ? 0 : missing).fill("0"), ...back].map((g) => parseInt(g, 16));
    return [6, groups.flatMap((g) => [g >> 8, g & 0xff])];
  }
  return null;
}

/** The address written back from its type and bytes. @param {number} type @param {Uint8Array} b */
function addressText(type, b) {
  if (type === 4) return [...b].join(".");
  const hex = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  if (type === 16) return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}.local`;
  return (hex.match(/.{4}/g) ?? []).map((g) => g.replace(/^0+(?=.)/, "")).join(":");
}

/** What a data channel's local description holds, read from its SDP: refused in words when something is
 * missing (no fingerprint, no UDP host candidate).
 * @param {string} sdp @param {"offer" | "answer"} kind @param {number} tag @param {number} seat
 * @returns {Connection} */
export function fromSdp(sdp, kind, tag, seat) {
  const lines = sdp.split(/\r?\n/);
  /** @param {string} name */
  const value = (name) => lines.find((l) => l.startsWith(`a=${name}:`))?.slice(name.length + 3).trim() ?? "";
  const fingerprint = lines.find((l) => l.toLowerCase().startsWith("a=fingerprint:sha-256 "))?.slice(22).trim() ?? "";
  /** @type {Candidate[]} */
  const candidates = [];
  for (const line of lines) {
    const parts = line.startsWith("a=candidate:") ? line.slice(12).trim().split(/\s+/) : [];
    if (parts.length < 8 || parts[2].toLowerCase() !== "udp" || parts[6] !== "typ" || parts[7] !== "host" || parts[1] !== "1") continue;
    const candidate = { address: parts[4], port: Number(parts[5]) };
    if (addressBytes(candidate.address) && Number.isInteger(candidate.port) && candidate.port > 0 && candidate.port < 65536
      && !candidates.some((c) => c.address === candidate.address && c.port === candidate.port)) candidates.push(candidate);
  }
  const bytes = fingerprint.split(":").map((h) => parseInt(h, 16));
  if (bytes.length !== 32 || bytes.some((b) => !(b >= 0 && b <= 255))) throw new Error("This browser's connection has no SHA-256 certificate fingerprint, which the code needs.");
  if (!candidates.length) throw new Error("This browser found no local network address to offer (no UDP host candidate): is the device on a network?");
  return { kind, setup: value("setup"), tag, seat, ufrag: value("ice-ufrag"), pwd: value("ice-pwd"), fingerprint: new Uint8Array(bytes), candidates: candidates.slice(0, MAX_CANDIDATES) };
}

/** A connection as its code (base32). @param {Connection} c @returns {string} */
export function encode(c) {
  const setup = SETUPS.indexOf(c.setup);
  const kind = KINDS.indexOf(c.kind);
  if (setup < 0 || kind < 0) throw new Error(`A connection's DTLS role is one of ${SETUPS.join(", ")}; got ${c.setup}.`);
  for (const [name, v, lo, hi] of /** @type {const} */ ([["user fragment", c.ufrag, 4, 32], ["password", c.pwd, 22, 64]])) {
    if (v.length < lo || v.length > hi || !ICE_CHAR.test(v)) throw new Error(`The connection's ICE ${name} is not one this code carries.`);
  }
  const out = [(VERSION << 4) | (kind << 3) | setup, (c.tag >> 8) & 0xff, c.tag & 0xff, c.seat & 0xff,
    c.ufrag.length, ...[...c.ufrag].map((ch) => ch.charCodeAt(0)), c.pwd.length, ...[...c.pwd].map((ch) => ch.charCodeAt(0)),
    ...c.fingerprint, Math.min(c.candidates.length, MAX_CANDIDATES)];
  for (const { address, port } of c.candidates.slice(0, MAX_CANDIDATES)) {
    const bytes = addressBytes(address);
    if (!bytes) throw new Error(`The candidate address ${address} is not one this code carries.`);
    out.push(bytes[0], ...bytes[1], port >> 8, port & 0xff);
  }
  return toBase32(new Uint8Array(out));
}

/** A code read back, every value checked; refused with a sentence that says what is wrong.
 * @param {string} code @returns {Connection} */
export function decode(code) {
  const refuse = (/** @type {string} */ why) => { throw new Error(`This is not a connection code of this site: ${why}.`); };
  if (typeof code !== "string" || !code.trim()) refuse("it is empty");
  if (code.length > MAX_CODE) refuse(`it is ${code.length} characters long, and a code is at most ${MAX_CODE}`);
  const b = fromBase32(code.trim().replace(/=+$/, ""));
  if (!b) return refuse("it holds characters other than the letters A to Z and the digits 2 to 7");
  let at = 0;
  const take = (/** @type {number} */ n) => {
    if (at + n > b.length) refuse("it is cut short (was all of it copied?)");
    at += n;
    return b.subarray(at - n, at);
  };
  const [head] = take(1);
  if (head >> 4 !== VERSION) refuse(`it is of version ${head >> 4}, and this page reads version ${VERSION}`);
  if ((head & 3) === 3 || (head & 4)) refuse("its DTLS role is unknown");
  const kind = KINDS[(head >> 3) & 1];
  const [hi, lo, seat] = take(3);
  const ascii = (/** @type {string} */ name, /** @type {number} */ min, /** @type {number} */ max) => {
    const [n] = take(1);
    const text = String.fromCharCode(...take(n));
    if (n < min || n > max || !ICE_CHAR.test(text)) refuse(`its ICE ${name} is not one a browser makes`);
    return text;
  };
  const ufrag = ascii("user fragment", 4, 32);
  const pwd = ascii("password", 22, 64);
  const fingerprint = new Uint8Array(take(32));
  const [count] = take(1);
  if (count < 1 || count > MAX_CANDIDATES) refuse(`it names ${count} addresses, and a code names 1 to ${MAX_CANDIDATES}`);
  /** @type {Candidate[]} */
  const candidates = [];
  for (let i = 0; i < count; i++) {
    const [type] = take(1);
    if (type !== 4 && type !== 6 && type !== 16) refuse(`address ${i + 1} is of an unknown type`);
    const address = addressText(type, take(type === 4 ? 4 : 16));
    const [p1, p2] = take(2);
    const port = (p1 << 8) | p2;
    if (port === 0) refuse(`address ${i + 1} has no port`);
    candidates.push({ address, port });
  }
  if (at !== b.length) refuse("it has more after its end (two codes pasted together?)");
  return { kind, setup: SETUPS[head & 3], tag: (hi << 8) | lo, seat, ufrag, pwd, fingerprint, candidates };
}

/** A minimal SDP for a data channel from a decoded connection, for setRemoteDescription.
 * @param {Connection} c @returns {string} */
export function toSdp(c) {
  const hex = [...c.fingerprint].map((x) => x.toString(16).toUpperCase().padStart(2, "0")).join(":");
  return [
    "v=0", `o=- ${1000 + c.tag * 256 + c.seat} 2 IN IP4 127.0.0.1`, "s=-", "t=0 0", "a=group:BUNDLE 0",
    "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0",
    ...c.candidates.map(({ address, port }, i) => `a=candidate:${i + 1} 1 udp ${2122260223 - i * 256} ${address} ${port} typ host`),
    `a=ice-ufrag:${c.ufrag}`, `a=ice-pwd:${c.pwd}`, `a=fingerprint:sha-256 ${hex}`, `a=setup:${c.setup}`,
    "a=mid:0", "a=sctp-port:5000", "a=max-message-size:262144", "",
  ].join("\r\n");
}
