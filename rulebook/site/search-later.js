// Material's search worker, started once the page no longer needs the cores.
// Written by the finishing step (rulebook/site/search_later.py) beside
// Material's own worker, whose file name it fills in; every page's Material
// config names this file as its search worker instead.
//
// Material hands its worker the search index as soon as the page loads, and
// the worker builds the lunr index from it at once: about half a second of
// CPU on a phone, on the cores that are restoring the calculators' Python at
// that moment. This worker keeps what Material sends, and starts Material's
// worker (the very same script, imported) and hands it the messages when a
// page says so on the channel CHANNEL (docs/assets/search-start.js: the first
// result drawn, the page idle, or the reader opening the search), or at the
// latest LATEST_MS after Material's first message. A page that spoke before
// this script ran is asked again then.
const WORKER = "MATERIAL-SEARCH-WORKER"; // beside this file
const CHANNEL = "SEARCH-START-CHANNEL";
const LATEST_MS = 8000;

/** @type {unknown[]} */
const held = [];
let started = false;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let latest;
const channel = new BroadcastChannel(CHANNEL);

function start() {
  if (started) return;
  started = true;
  clearTimeout(latest);
  channel.close();
  removeEventListener("message", hold);
  importScripts(WORKER);
  for (const data of held.splice(0)) dispatchEvent(new MessageEvent("message", { data }));
}

/** @param {MessageEvent} event */
function hold(event) {
  event.stopImmediatePropagation();
  held.push(event.data);
  if (latest === undefined) {
    latest = setTimeout(start, LATEST_MS);
    channel.postMessage("asking"); // a page that spoke before this worker listened says it again
  }
}

addEventListener("message", hold);
channel.onmessage = ({ data }) => { if (data === "start") start(); };
