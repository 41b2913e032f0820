// Lets Material's search worker start: it waits for this page's word
// (rulebook/site/search-later.js, put in by the finishing step), so that
// building the search index does not share the cores with the first thing
// the reader came for; on a calculator page the index's download waits for
// the same word (the head's script, overrides/main.html, listens for an
// event of the channel's name). Said once per page load: on a calculator
// page once its first result is shown (or none was asked for, or the start
// failed) and the browser is idle, the moment offline.js also waits for; on
// any other page at once; and whenever the reader opens the search
// (rule-search.js). The channel is the site's, not the tab's: a tab that
// has spoken also answers a worker of another tab that asks (then that one
// starts at once, as Material starts it).

import { calculatorSettled } from "./offline.js";

const CHANNEL = "table-rules-search-start"; // rulebook/site/search_later.py's CHANNEL
let said = false;

/** Tell the search worker to start, now and whenever one asks later (a worker
 * whose script ran after this page had spoken asks once it has the index). */
export function letSearchStart() {
  if (said) return;
  said = true;
  document.dispatchEvent(new Event(CHANNEL)); // the index's download, held on a calculator page (overrides/main.html)
  try {
    const channel = new BroadcastChannel(CHANNEL);
    channel.onmessage = ({ data }) => { if (data === "asking") channel.postMessage("start"); }; // never to another page's "start"
    channel.postMessage("start");
  } catch { /* no BroadcastChannel: the worker starts on its own a few seconds later */ }
}

calculatorSettled().then(letSearchStart);
