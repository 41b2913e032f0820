// The site's service worker: the rules, their search and the calculators keep
// working with the network gone, and a visitor never runs files of two
// builds together. rulebook/site/offline.py fills in OFFLINE (the exact file list,
// versions and digests of this build) and writes this file to the site root,
// so its scope covers every page.
//
// - Install: precache the pages, assets, search index and rules.json of this
//   build (a few MB) in "<prefix>pages-<build digest>", a few files at a
//   time, each retried after a failure; only what the cache lacks. Scripts and
//   stylesheets are precached under the address the pages use, which carries
//   a digest of their content (assets/page-start.js?v=…): a page of a new build
//   asks for new addresses, so it can never get an old build's script. Each
//   is kept only if its content has that digest (checked like the runtime's
//   files, below); one that does not is left out and fetched when asked for.
// - The Pyodide runtime (pyodide/<version>-<digest>/) is cached on first use,
//   not at install: a reader who never opens a calculator page should not pay
//   for it on a phone plan. The first request for any runtime file (or a
//   message from a page that has a calculator) caches the whole folder in the
//   background, so every boot path (snapshot or fresh) works offline
//   afterwards. A file the cache has is answered as it is, and nothing else
//   is done: a page that starts its calculator from the cache shares the
//   cores with no check of the folder (the page's message, once its first
//   result is shown, fills what is missing, then keeps the plain wasm
//   beside its .zst: see keepCompiled; and answers on the message's port,
//   so that the page's calculators' worker keeps the snapshot there too,
//   unpacked, as snapshot.bin: runtime/sparse-snapshot.mjs). Each file is
//   checked against its
//   sha256 from the build before
//   it is cached or handed out: a damaged or cut-short download is refused
//   (502) and fetched afresh next time, never kept. Served cache-first from
//   "<prefix>runtime-<folder>", which survives page-only deployments, and
//   dropped when a page says the runtime did not start ("drop-runtime").
//   A device that kept another build's runtime uses the calculators: the
//   install fetches this build's runtime whole before the worker takes over
//   (an install cut short fails, and the worker in charge, its pages and its
//   runtime stay), so a reload offline after a deploy that changed the
//   runtime finds one that works with the pages it has.
// - Activate: delete this site's caches of other builds, claim open pages;
//   another build's runtime only once this build's is whole.
// - Everything precached (pages, assets, search index, rules.json, images):
//   this build's cache first, the network only for what it lacks; offline,
//   an address the cache does not know gets the site's 404 page. A file in
//   the cache is this build's exactly (fetched past the HTTP cache at
//   install, into a cache named by the digest of every file), so what can
//   be newer is the build, not the file: each page asked for also asks for
//   this worker's update (stale-while-revalidate, a whole build at a time).
//   A new build's worker installs in the background, takes over, and the
//   next page is the new build's, with its own scripts: the page shown from
//   the cache runs the scripts of its own build, never a mix. A repeat
//   visit waits on no network (make bench, row 8).
/* global OFFLINE */

const PREFIX = OFFLINE.prefix;
const PAGES_CACHE = `${PREFIX}pages-${OFFLINE.digest}`;
const RUNTIME_CACHE = `${PREFIX}runtime-${OFFLINE.runtimeDigest}`;
const PRECACHE_AT_ONCE = 6;
const scope = new URL("./", self.location.href);
const url = (path) => new URL(path, scope).href;
const immutable = new Set(OFFLINE.immutable.map(url));
const precached = new Set(OFFLINE.precache.map(url));
const runtimeBase = url(OFFLINE.runtime);
const runtimeFiles = new Map(Object.entries(OFFLINE.runtimeFiles).map(([name, sha256]) => [runtimeBase + name, sha256]));
const aheadFiles = OFFLINE.runtimeFill.map((name) => runtimeBase + name); // cached in the background (fillRuntime)
const compiledFiles = OFFLINE.runtimeCompiled.map((name) => runtimeBase + name); // then these (keepCompiled)
const notFound = OFFLINE.notFound && url(OFFLINE.notFound);
const inFlight = new Map(); // runtime URL -> Promise<Response | null>, so no file is fetched twice at once
let runtimeFill = null;
let updating = null; // this worker's update check under way, so pages asked for at once share one

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    await precache();
    if (await otherRuntimes().then((names) => names.length)) await fillRuntime(true);
    await self.skipWaiting();
  })());
});

// A few files at a time, each tried again after a failure: the precache is
// hundreds of small files (a page per rule link), and one refused
// connection must not fail the whole install, as it would with addAll.
//
// Into this build's cache as it stands, never emptied first, and only what
// it lacks. The worker in charge may be of this very build and answer from
// that cache: a worker whose own script changed keeps the pages' cache name,
// and Chromium was seen to install the same worker again on each update
// check after a deploy, its script unchanged to the byte. Such an install
// once emptied the cache and, cut short offline, left the site with no page
// at all; online it fetched every page again on each navigation. What is
// there is this build's: the cache's name carries the build's digest.
async function precache() {
  const cache = await caches.open(PAGES_CACHE);
  const have = new Set((await cache.keys()).map((request) => request.url));
  const todo = OFFLINE.precache.map(url).filter((address) => !have.has(address));
  const fetchNext = async () => {
    while (todo.length) await precacheOne(cache, todo.shift());
  };
  await Promise.all(Array.from({ length: PRECACHE_AT_ONCE }, fetchNext));
}

// A script or stylesheet whose address carries its digest (?v=…) is kept
// only if what arrived has that digest: another build's file (a deployment
// under way, a proxy's old copy) is left out, not kept under this build's
// address, and fetched from the network when a page asks for it.
async function precacheOne(cache, address, tries = 3) {
  for (let attempt = 1; ; attempt++) {
    try {
      // "reload" skips the HTTP cache: the precache must be this build's files.
      const response = await fetch(new Request(address, { cache: "reload" }));
      if (!response.ok) throw new Error(`${address} answered ${response.status}`);
      const checked = await thisBuilds(address, response);
      if (checked) return await cache.put(address, checked);
      if (attempt === tries) return undefined; // not this build's: the install goes on without it
    } catch (err) {
      if (attempt === tries) throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, 300 * attempt));
  }
}

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const keep = new Set([PAGES_CACHE, RUNTIME_CACHE]);
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && !keep.has(name) && !name.startsWith(`${PREFIX}runtime-`)) await caches.delete(name);
    }
    if (await runtimeWhole()) await dropOtherRuntimes();
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  const type = event.data && event.data.type;
  // The page's port hears "runtime-kept" once this build's runtime cache is whole, the plain wasm in it:
  // its calculators' worker then keeps the snapshot there unpacked (runtime/sparse-snapshot.mjs).
  if (type === "cache-runtime") event.waitUntil(fillRuntime().then(keepCompiled).then((whole) => whole && event.ports[0]?.postMessage({ type: "runtime-kept" })));
  else if (type === "drop-runtime") event.waitUntil(dropRuntime());
  else if (type === "skip-waiting") event.waitUntil(self.skipWaiting()); // see offline.js
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(scope.href)) return;
  const address = new URL(request.url);
  const bare = address.origin + address.pathname;
  if (bare.startsWith(runtimeBase)) {
    event.respondWith(runtimeFile(bare, event));
  } else if (request.mode === "navigate" || isPage(address)) {
    event.respondWith(page(request, pageKey(address), request.mode === "navigate"));
    event.waitUntil(revalidate());
  } else if (precached.has(request.url)) {
    event.respondWith(cacheFirst(request));
  }
  // Anything else (another build's versioned file, say) goes to the network
  // as if there were no service worker: never a cached file of this build.
});

// ---------------------------------------------------------------- strategies

function isPage(address) {
  return address.pathname.endsWith("/") || address.pathname.endsWith(".html");
}

function pageKey(address) {
  // Pages are precached as their folder URL, e.g. tell-tale/combat/.
  return address.origin + address.pathname.replace(/index\.html$/, "");
}

async function fromCache(key) {
  return (await caches.open(PAGES_CACHE)).match(key, { ignoreSearch: true });
}

async function page(request, key, navigation) {
  const cached = await fromCache(key);
  if (cached) return cached;
  try {
    return await fetch(request);
  } catch (err) {
    // Offline, at an address this build does not have: the site's own 404 page.
    const missing = navigation && notFound && (await fromCache(notFound));
    if (!missing) throw err;
    return new Response(missing.body, { status: 404, statusText: "Not Found", headers: missing.headers });
  }
}

// The network's answer to "is there a newer build?": this worker's own
// update check (sw.js, whose list of digests changes with any file). A new
// worker found installs in the background and takes over (skipWaiting).
function revalidate() {
  updating ??= self.registration.update().catch(() => {}).finally(() => { updating = null; });
  return updating;
}

async function cacheFirst(request) {
  const cache = await caches.open(PAGES_CACHE);
  const cached = await cache.match(request.url);
  if (cached) return cached;
  // Left out at install (it did not match its digest): from the network,
  // kept once it does. A file with no digest is not kept: the host may have
  // a newer build's by now.
  const response = await fetch(request);
  if (response.status === 200 && digestOf(request.url)) {
    const checked = await thisBuilds(request.url, response.clone());
    if (checked) await cache.put(request.url, checked);
  }
  return response;
}

// ---------------------------------------------------------------- the runtime

async function runtimeFile(bare, event) {
  const cache = await caches.open(RUNTIME_CACHE);
  const cached = await cache.match(bare);
  if (cached) return cached;
  event.waitUntil(fillRuntime()); // the first use: the rest of the folder follows in the background
  const refused = await fetchRuntime(cache, bare);
  return refused ? refused.clone() : (await cache.match(bare)) || fetch(bare);
}

// Fetches one runtime file into the cache. Resolves to null when it is
// stored, or to the response to give instead when it was not a whole, good
// answer: an error or a 206 as it came (it must not stick), a file whose
// digest is not the build's as a 502.
function fetchRuntime(cache, bare) {
  if (!inFlight.has(bare)) {
    const job = (async () => {
      const response = await fetch(bare, { cache: "no-cache" });
      if (response.status !== 200) return response;
      const checked = await thisBuilds(bare, response);
      if (!checked) return new Response(null, { status: 502, statusText: "Bad Gateway (the file that arrived is not this build's)" });
      await cache.put(bare, checked);
      return null;
    })().finally(() => inFlight.delete(bare));
    inFlight.set(bare, job);
  }
  return inFlight.get(bare);
}

// ---------------------------------------------------------------- digests

// The sha256 (hex) a file of this build has, or its start: a runtime file's
// whole digest from the runtime's manifest.json, or the first hex digits a
// versioned address carries (assets/page-start.js?v=<sha256 of the file, first
// 10 hex digits>, rulebook/site/assets.py). Null for a file with no digest.
function digestOf(address) {
  const runtime = runtimeFiles.get(address);
  if (runtime) return runtime;
  const version = new URL(address).searchParams.get("v");
  return immutable.has(address) && version && /^[0-9a-f]{8,64}$/.test(version) ? version : null;
}

// The response to keep for `address` (as it came, or a copy of its checked
// body), or null when the file that arrived does not have the digest this
// build recorded for it.
async function thisBuilds(address, response) {
  const want = digestOf(address);
  if (!want) return response;
  const body = await response.arrayBuffer();
  if (!(await sha256(body)).startsWith(want)) {
    console.warn(`${new URL(address).pathname.split("/").pop()} did not match this build's digest: not cached`);
    return null;
  }
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

// Fills this build's runtime cache, one file at a time in the background,
// skipping what is cached or on its way; once it is whole, other builds'
// runtimes go. `strict` (the install): rejects when it is not whole.
function fillRuntime(strict = false) {
  runtimeFill ??= (async () => {
    const cache = await caches.open(RUNTIME_CACHE);
    for (const file of aheadFiles) {
      if (await cache.match(file)) continue;
      try {
        await fetchRuntime(cache, file);
      } catch {
        runtimeFill = null; // offline half-way: try again on the next use
        return false;
      }
    }
    // A file that was refused is fetched again on the next use.
    if (!(await runtimeWhole())) {
      runtimeFill = null;
      return false;
    }
    // While installing, the worker in charge still answers from its own runtime: the activation drops it then.
    if (self.serviceWorker?.state === "activated") await dropOtherRuntimes();
    return true;
  })();
  return runtimeFill.then((whole) => {
    if (strict && !whole) throw new Error("this build's runtime could not be fetched whole");
  });
}

// Once the folder is whole and a page's calculator has shown its first
// result (the page's message): the plain wasm too, which the runtime
// compiles from this cache where it finds it, so that a repeat visit skips
// the unpacking. (It does not skip the compile: Chromium 150 was not seen
// to keep V8's compiled code for it, benchmarks/code_cache.py.)
// 3.5 MB more once, after the result; a failure only means the next visit
// unpacks the .zst again. Resolves to whether the runtime cache is whole.
async function keepCompiled() {
  if (!(await runtimeWhole())) return false;
  const cache = await caches.open(RUNTIME_CACHE);
  for (const file of compiledFiles) {
    if (!(await cache.match(file))) await fetchRuntime(cache, file).catch(() => null);
  }
  return true;
}

async function runtimeWhole() {
  const cache = await caches.open(RUNTIME_CACHE);
  const have = new Set((await cache.keys()).map((request) => request.url));
  return aheadFiles.every((file) => have.has(file));
}

async function otherRuntimes() {
  return (await caches.keys()).filter((name) => name.startsWith(`${PREFIX}runtime-`) && name !== RUNTIME_CACHE);
}

async function dropOtherRuntimes() {
  for (const name of await otherRuntimes()) await caches.delete(name);
}

async function dropRuntime() {
  runtimeFill = null;
  await caches.delete(RUNTIME_CACHE);
}
