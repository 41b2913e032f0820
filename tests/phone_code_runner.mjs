// Runs docs/assets/phone-code.js under Node for tests/test_phone_code.py: reads a JSON list of calls on
// stdin ([name, ...args]; a fingerprint travels as a list of numbers) and writes a JSON list of answers,
// each {ok: value} or {error: message}.
import { decode, encode, fromBase32, fromSdp, toBase32, toSdp } from "../docs/assets/phone-code.js";

const plainConnection = (/** @type {any} */ c) => ({ ...c, fingerprint: [...c.fingerprint] });
const withBytes = (/** @type {any} */ c) => ({ ...c, fingerprint: new Uint8Array(c.fingerprint) });
const CALLS = {
  fromSdp: (/** @type {any[]} */ [sdp, kind, tag, seat]) => plainConnection(fromSdp(sdp, kind, tag, seat)),
  encode: (/** @type {any[]} */ [c]) => encode(withBytes(c)),
  decode: (/** @type {any[]} */ [code]) => plainConnection(decode(code)),
  toSdp: (/** @type {any[]} */ [c]) => toSdp(withBytes(c)),
  base32: (/** @type {any[]} */ [bytes]) => toBase32(new Uint8Array(bytes)),
  unbase32: (/** @type {any[]} */ [text]) => { const b = fromBase32(text); return b && [...b]; },
};
let input = "";
for await (const chunk of process.stdin) input += chunk;
const out = JSON.parse(input).map((/** @type {[keyof typeof CALLS, ...any[]]} */ [name, ...args]) => {
  try {
    return { ok: CALLS[name](args) };
  } catch (err) {
    return { error: String(/** @type {Error} */ (err).message) };
  }
});
process.stdout.write(JSON.stringify(out));
