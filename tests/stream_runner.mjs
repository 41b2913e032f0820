// The page's applyChanges (docs/assets/tracker-stream.js) run on what Python
// answered: stdin {start: state, steps: [changes, ...]}, each step applied to
// the state the one before made, or {pairs: [[state, changes], ...]}, each on
// its own; stdout the state after each, as JSON ([state, ...]).
// tests/test_stream_page.py compares them with Python's states.
import { readFileSync } from "node:fs";
import { applyChanges } from "../docs/assets/tracker-stream.js";

/** @param {object} state @param {import("../docs/assets/tracker-stream.js").Change[]} changes */
function applied(state, changes) {
  const before = JSON.stringify(state);
  const after = applyChanges(state, changes);
  if (JSON.stringify(state) !== before) throw new Error("applyChanges changed the state it was given");
  return after;
}

const { start, steps, pairs } = JSON.parse(readFileSync(0, "utf8"));
const states = [];
if (pairs) {
  for (const [state, changes] of pairs) states.push(applied(state, changes));
} else {
  let state = start;
  for (const changes of steps) states.push((state = applied(state, changes)));
}
process.stdout.write(JSON.stringify(states));
