"""The browser's entry point: JSON in, JSON out.

The Web Worker (runtime/calc-worker.mjs) calls `compute` with a
calculator's name, its parameters as a JSON object of strings, and the
seed (or None). It answers the JSON of `runner.run`: never an exception
for bad input, always `ok` and either the result or the error sentence
and the field at fault.
"""

from __future__ import annotations

import json

from .runner import link, run, track_json

__all__ = ["LINK", "TRACK", "compute"]

# A name starting with this asks for one step of a tracker (runner.track_json)
# with the parameters {"state": JSON text, "action": JSON text}, or
# {"version": the session's, "action": JSON text} for a step from the state
# the worker holds: the worker's messages stay the same for forms and trackers.
TRACK = "track:"
# And this, what a share link of a tracker carries for the state in the
# parameters' "state" (runner.link): the forms a link may take, fullest first.
LINK = "link:"


def compute(name: str, params_json: str, seed: object = None, state: object = None) -> str:
    """Run calculator `name` on the parameters in `params_json`; the answer as JSON.

    A tracker's state may come as `state`, its text beside the parameters
    (as the worker sends it), instead of as the parameters' "state"."""
    try:
        params = json.loads(params_json)
    except (TypeError, ValueError, RecursionError):  # deep nesting too: an answer, never an exception
        params = None
    if not isinstance(params, dict):
        return json.dumps({"ok": False, "error": "The calculator's settings did not arrive as a JSON object.",
                           "field": None})
    if name.startswith(TRACK):
        return track_json(name[len(TRACK):], params.get("state") if state is None else state, params.get("action"),
                          seed,
                          params.get("version"))
    if name.startswith(LINK):
        return json.dumps(link(name[len(LINK):], params.get("state") if state is None else state))
    return json.dumps(run(name, params, seed))
