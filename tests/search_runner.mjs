// Material's own search worker, under Node, over the built site's index:
// the same lunr, the same query handling and the same ranking the reader's
// browser runs, without a browser.
// Usage: node search_runner.mjs SITE_DIR < queries.json  (a JSON list of strings)
// Prints one JSON line: {query: [[location, ...], ...]}, the result groups
// (one a page) in the order Material lists them, each group's locations in
// the order the worker gives them.
import { readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import vm from "node:vm";

const site = resolve(process.argv[2]);
const workers = join(site, "assets", "javascripts", "workers");
const script = readdirSync(workers).find((name) => /^search\.[0-9a-f]+\.min\.js$/.test(name));
if (!script) throw new Error(`no search worker in ${workers}`);
const index = JSON.parse(readFileSync(join(site, "search", "search_index.json"), "utf8"));
const queries = JSON.parse(readFileSync(0, "utf8"));

// A Web Worker's global scope: the worker listens for messages and posts its answers.
let onMessage = null;
let answer = null;
const scope = {
  console,
  addEventListener: (type, listener) => { if (type === "message") onMessage = listener; },
  postMessage: (message) => answer(message),
  importScripts: () => { throw new Error("the index asks for a language besides English: load its lunr files here"); },
};
scope.self = scope;
vm.createContext(scope);
vm.runInContext(readFileSync(join(workers, script), "utf8"), scope, { filename: script });
if (!onMessage) throw new Error(`${script} set no message listener: Material's worker changed`);

function ask(message) {
  return new Promise((done) => {
    answer = done;
    onMessage({ data: message });
  });
}

// What Material's page sends (bundle: {type: 0, data: {config, docs, options}}, then {type: 2, data: the box's value}).
const ready = await ask({ type: 0, data: { config: index.config, docs: index.docs, options: { suggest: false } } });
if (ready.type !== 1) throw new Error(`the worker answered the setup with ${JSON.stringify(ready)}`);
const out = {};
for (const query of queries) {
  const result = await ask({ type: 2, data: query });
  if (result.type !== 3) throw new Error(`the worker answered ${JSON.stringify(query)} with ${JSON.stringify(result).slice(0, 200)}`);
  out[query] = result.data.items.map((group) => group.map((doc) => doc.location));
}
process.stdout.write(JSON.stringify(out) + "\n");
