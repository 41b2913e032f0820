"""make bench's count of V8's wasm code cache events (benchmarks/code_cache.py),
read from a Chromium trace. No browser."""

from __future__ import annotations

import json

from support import load_module

code_cache = load_module("benchmarks/code_cache.py")


def test_the_events_are_counted_by_what_they_mean_and_nothing_else():
    names = ["v8.wasm.streamFromResponseCallback", "v8.wasm.compiledModule", "v8.wasm.cachedModule",
             "v8.wasm.streamFromResponseCallback", "v8.wasm.moduleCacheHit", "v8.wasm.compileConsume", "FunctionCall"]
    trace = json.dumps({"traceEvents": [{"name": name, "ts": i} for i, name in enumerate(names)]}).encode()
    counted = code_cache.count(trace)
    assert counted == {"streamed compiles": 2, "to write": 1, "written": 1, "used": 1}
    assert counted["refused"] == 0  # a row the trace never reached reads 0


def test_a_trace_given_as_a_bare_list_of_events_is_read_too():
    assert code_cache.count(json.dumps([{"name": "v8.wasm.moduleCacheInvalid"}]).encode()) == {"refused": 1}
