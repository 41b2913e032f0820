"""Whether V8 keeps pyodide.asm.wasm's compiled code for the next visit: the
events Chromium traces when it serializes a module's code (written) and when
a compile finds it (used, or refused), counted over a first visit and two
repeat visits with the service worker in charge (the repeats compile the
plain wasm from Cache Storage, the one source Chromium keeps code for besides
its HTTP cache). Chromium 150 (2026-12-07) traced none but the streamed
compiles, also with V8's caching thresholds at their lowest
(--wasm-caching-threshold=1 --wasm-caching-timeout-ms=0) and, apart, in a
profile kept on disk: V8's wasm code cache is not what makes a repeat visit
fast here.
"""

from __future__ import annotations

import json
from collections import Counter

# blink's v8_wasm_response_extensions.cc: TRACE_EVENT_INSTANT in "disabled-by-default-devtools.timeline".
EVENTS = {
    "v8.wasm.compiledModule": "to write",
    "v8.wasm.cachedModule": "written",
    "v8.wasm.moduleCacheHit": "used",
    "v8.wasm.moduleCacheInvalid": "refused",
    "v8.wasm.streamFromResponseCallback": "streamed compiles",
}


def count(trace: bytes) -> Counter:
    """The EVENTS found in a Chromium trace (Browser.stop_tracing's bytes), by what they mean."""
    data = json.loads(trace)
    events = data["traceEvents"] if isinstance(data, dict) else data
    return Counter(EVENTS[event["name"]] for event in events if event.get("name") in EVENTS)


def wasm_code_cache(browser, url: str, server) -> Counter:
    """EVENTS over a first visit to `url` and two repeat visits (visits.worker_repeat_ms)."""
    from benchmarks import visits  # here, so that count() loads without a browser (tests/test_bench_code_cache.py)

    browser.start_tracing(categories=["disabled-by-default-devtools.timeline"])
    try:
        visits.worker_repeat_ms(browser, url, server, repeats=2)
    finally:
        trace = browser.stop_tracing()
    return count(trace)
