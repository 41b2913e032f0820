// The players' view's stream (docs/assets/players-view.js) run between one GM feed and one follower: stdin
// {views: [view, ...], drop: [i, ...], forged: {i: message}}, each view sent in turn as the feed makes its message;
// message i is lost when i is in `drop`, and replaced by `forged[i]` when there is one (a hostile peer). A follower
// that asks for the whole view gets it at once. stdout, for each view: {sent: the message's length in characters or
// null when nothing changed, whole: the whole view's message's length, drawn: the view the follower drew from the
// message or null, asked: whether it asked, held: the view it drew after the answer, if any}.
import { readFileSync } from "node:fs";
import { viewFeed, viewFollower } from "../docs/assets/players-view.js";

const { views, drop = [], forged = {} } = JSON.parse(readFileSync(0, "utf8"));
const feed = viewFeed("test");
let asked = false, clock = 0;
const follower = viewFollower(() => { asked = true; }, () => (clock += 5000));
const out = [];
let held = null;
views.forEach((view, i) => {
  const message = feed.next(view);
  const whole = JSON.stringify(feed.whole(view)).length;
  asked = false;
  const sent = forged[i] ?? message;
  const drawn = sent && !drop.includes(i) ? follower.take(sent) : null;
  const wasAsked = asked;
  if (drawn) held = drawn;
  if (asked) held = follower.take(feed.whole(view)) ?? held;
  out.push({ sent: message && JSON.stringify(message).length, whole, drawn, asked: wasAsked, held });
});
process.stdout.write(JSON.stringify(out));
