"""The connection codes the players' phones join a fight with (docs/assets/phone-code.js), run under Node:
an offer or answer read from a browser's SDP, packed, read back and written as an SDP again; every broken
code refused with a sentence; the sizes a QR code has to hold."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.node

FINGERPRINT = ":".join(f"{b:02X}" for b in range(0xA0, 0xC0))
# A data channel's offer as desktop Chromium writes it: an mDNS name for its address, a TCP candidate
# (never used on a LAN without servers, so left out), and the lines a data channel does not need.
CHROMIUM_OFFER = "\r\n".join([
    "v=0", "o=- 4611731400430051336 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0", "a=extmap-allow-mixed",
    "a=msid-semantic: WMS", "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0",
    "a=candidate:3431374727 1 udp 2113937151 0f3c4c1e-5a2b-4c3d-9e8f-123456789abc.local 54321 typ host generation 0 network-cost 999",
    "a=candidate:1100223344 1 udp 2113939711 fd00::1:2 40001 typ host generation 0 network-cost 999",
    "a=candidate:842163049 1 tcp 1518280447 192.168.1.20 9 typ host tcptype active generation 0",
    "a=candidate:842163050 1 udp 2113937151 192.168.1.20 50000 typ host generation 0",
    "a=ice-ufrag:Ab+9", "a=ice-pwd:abcdefghijklmnopqrstuv/+", "a=ice-options:trickle",
    f"a=fingerprint:sha-256 {FINGERPRINT}", "a=setup:actpass", "a=mid:0", "a=sctp-port:5000", "a=max-message-size:262144", ""])


def call(*calls):
    node = shutil.which("node")
    assert node, "Node.js is needed (make setup installs the npm packages)"
    run = subprocess.run([node, "tests/phone_code_runner.mjs"], cwd=ROOT, input=json.dumps(calls), capture_output=True,
                         text=True, timeout=60, check=True)
    return json.loads(run.stdout)


def ok(*one):
    [answer] = oks(list(one))
    return answer


def oks(*calls):
    """The values of calls that do not depend on each other, in one Node run (each run starts Node anew)."""
    answers = call(*calls)
    for answer in answers:
        assert "ok" in answer, answer
    return [answer["ok"] for answer in answers]


def test_an_offer_keeps_what_the_connection_needs_and_nothing_else():
    offer = ok("fromSdp", CHROMIUM_OFFER, "offer", 0xBEEF, 7)
    assert offer["ufrag"] == "Ab+9" and offer["pwd"] == "abcdefghijklmnopqrstuv/+" and offer["setup"] == "actpass"
    assert offer["fingerprint"] == list(range(0xA0, 0xC0))
    assert offer["candidates"] == [{"address": "0f3c4c1e-5a2b-4c3d-9e8f-123456789abc.local", "port": 54321},
                                   {"address": "fd00::1:2", "port": 40001}, {"address": "192.168.1.20", "port": 50000}]
    code, sdp = oks(["encode", offer], ["toSdp", offer])
    assert code.isalnum() and code == code.upper()
    same = {**offer, "candidates": [offer["candidates"][0], {"address": "fd00:0:0:0:0:0:1:2", "port": 40001}, offer["candidates"][2]]}
    decoded, typed = oks(["decode", code], ["decode", code.lower()])
    assert decoded == same  # an IPv6 address comes back written out in full
    assert typed == same  # typed by hand in either case
    for line in ["m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "a=ice-ufrag:Ab+9", f"a=fingerprint:sha-256 {FINGERPRINT}",
                 "a=setup:actpass", "a=mid:0", "a=sctp-port:5000",
                 "a=candidate:1 1 udp 2122260223 0f3c4c1e-5a2b-4c3d-9e8f-123456789abc.local 54321 typ host",
                 "a=candidate:3 1 udp 2122259711 192.168.1.20 50000 typ host"]:
        assert line in sdp.split("\r\n")
    assert "tcp" not in sdp


def test_a_chromium_offer_with_one_mdns_address_is_short():
    """One mDNS address, as desktop Chromium offers on one network: 86 bytes, 138 characters."""
    one = CHROMIUM_OFFER.replace("a=candidate:1100223344", "x=").replace("a=candidate:842163050", "x=")
    code = ok("encode", ok("fromSdp", one, "offer", 1, 1))
    assert len(code) == 138  # (4 + 5 + 25 + 32 + 1 + 19) bytes * 8 / 5, rounded up


@pytest.mark.parametrize("data", [[], [0], [255, 0, 1], list(range(256))])
def test_base32_round_trips(data):
    text = ok("base32", data)
    assert set(text) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
    assert ok("unbase32", text) == data


def test_every_broken_code_is_refused_in_words():
    good = ok("encode", ok("fromSdp", CHROMIUM_OFFER, "offer", 5, 2))
    raw = ok("unbase32", good)

    fp_end = 4 + 5 + 25 + 32
    with_version_2, bad_role, short_ufrag, no_candidates, unknown_type, no_port = oks(*(["base32", data] for data in (
        [0x20 | (raw[0] & 0x0F), *raw[1:]],
        [raw[0] | 3, *raw[1:]],
        [*raw[:4], 2, *raw[9:]],  # a user fragment of 2 characters
        [*raw[:fp_end], 0],
        [*raw[:fp_end], 1, 9, 1, 2, 3, 4, 0, 80],
        [*raw[:fp_end], 1, 4, 1, 2, 3, 4, 0, 0],
    )))
    cases = {
        "": "it is empty",
        "A" * 401: "it is 401 characters long",
        good[:-1] + "1": "characters other than",
        good[:-3] + "<b>": "characters other than",
        with_version_2: "version 2",
        bad_role: "DTLS role is unknown",
        good[:60]: "cut short",
        good + good: "more after its end",
        short_ufrag: "user fragment",
        no_candidates: "names 0 addresses",
        unknown_type: "unknown type",
        no_port: "has no port",
    }
    answers = call(*(["decode", c] for c in cases))
    for (bad, why), answer in zip(cases.items(), answers, strict=True):
        assert "error" in answer, (bad, answer)
        assert answer["error"].startswith("This is not a connection code of this site: "), answer
        assert why in answer["error"], (bad, answer["error"])


def test_an_sdp_without_what_a_code_needs_is_refused_in_words():
    no_fingerprint = CHROMIUM_OFFER.replace("a=fingerprint:sha-256", "a=fingerprint:sha-1")
    no_udp = "\r\n".join(line for line in CHROMIUM_OFFER.split("\r\n") if " udp " not in line)
    answers = call(["fromSdp", no_fingerprint, "offer", 1, 1], ["fromSdp", no_udp, "offer", 1, 1])
    assert "SHA-256 certificate fingerprint" in answers[0]["error"]
    assert "no local network address" in answers[1]["error"]
