"""Offline use: after one visit the rules, search, the calculators,
the Table log and the rules' previews work with the network gone, and a new
build replaces the old caches."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import socket
import subprocess
import threading
from pathlib import Path

import pytest
from playwright.sync_api import expect
from support import ROOT, storage
from support.helpers import BOOT, KEPT_SNAPSHOT, calculator_page, poll, wait_until_offline_ready, worker_data
from support.server import SiteHandler, serve

from calculators.runner import run
from rulebook.site import assets, offline
from rulebook.site.errors import SiteError

pytestmark = [pytest.mark.browser, pytest.mark.search_index]  # it searches offline


def test_the_worker_lists_exactly_this_build(site):
    data = worker_data(site)
    assert "tell-tale/combat/" in data["precache"] and "search/search_index.json" in data["precache"]
    assert "manifest.webmanifest" in data["precache"] and "rule-previews.json" in data["precache"]
    for url in data["precache"]:
        path, _, version = url.partition("?v=")
        file = site / (path + "index.html" if path.endswith("/") else path)
        assert file.is_file() or url == "./", url
        if version:  # a script or stylesheet, addressed by its content and served from the cache first
            assert hashlib.sha256(file.read_bytes()).hexdigest()[:10] == version, url
            assert url in data["immutable"]
    assert {"assets/page-start.js", "assets/rules.css", "assets/offline.js", "assets/calc-runtime.js"} <= {
        url.split("?v=")[0] for url in data["immutable"]}
    assert "search/search_index.json" not in data["immutable"]  # asked of the network first
    runtime = site / data["runtime"]
    # Every runtime file the browser may fetch, with the digest the worker checks.
    assert sorted(p.name for p in runtime.iterdir()) == sorted([*data["runtimeFiles"], "manifest.json"])
    for name, digest in data["runtimeFiles"].items():
        assert hashlib.sha256((runtime / name).read_bytes()).hexdigest() == digest, name
    # Cached ahead: all but a file fetched only where the one used instead is
    # missing (the plain wasm, 9.6 MB, beside its .zst).
    fallback = json.loads((runtime / "manifest.json").read_text())["fallback"]
    assert fallback and all(instead in data["runtimeFiles"] for instead in fallback.values())
    assert data["runtimeFill"] == sorted(set(data["runtimeFiles"]) - set(fallback))
    # ...which is kept too once a calculator has been used: the engine compiles it from the cache.
    assert data["runtimeCompiled"] == sorted(fallback)
    assert not [u for u in data["precache"] if u.startswith("pyodide/") or u.endswith(".map")]
    manifest = json.loads((site / "manifest.webmanifest").read_text())
    assert manifest["display"] == "standalone" and not manifest["start_url"].startswith(("/", "http"))
    assert all((site / icon["src"]).is_file() for icon in manifest["icons"])


def test_calculators_and_pages_work_offline_after_one_visit(browser, site, base_url):
    first = calculator_page(site, "tell_tale.resolve_attack")
    second = calculator_page(site, "talislanta.resolve_action")
    if not first or not second:
        pytest.skip("the calculators are not embedded in the pages yet")
    data = worker_data(site)
    context = browser.new_context(service_workers="allow")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base_url + first)
    page.wait_for_function("() => globalThis.__calcRuntime && globalThis.__calcRuntime.status === 'ready'", timeout=BOOT)
    wait_until_offline_ready(page, data)

    context.set_offline(True)
    page.reload()
    form = page.locator('form[data-calculator="tell_tale.resolve_attack"]')
    form.locator("[name=power]").fill("5")
    form.locator("[name=d20]").fill("17")
    form.locator("[name=d20]").press("Enter")  # typed: logged once the player is done with it (table-log.js's FormLog)
    form.locator('.calc-result[data-outcome="full"]').wait_for(timeout=BOOT)
    headline = form.locator(".calc-headline").text_content()
    page.wait_for_function("(key) => (JSON.parse(localStorage.getItem(key) || '[]')).length === 1", arg=storage.LOG, timeout=BOOT, polling=100)

    page.goto(base_url + second)  # a full navigation, answered by the worker
    form = page.locator('form[data-calculator="talislanta.resolve_action"]')
    form.locator("[name=rating]").fill("9")
    form.locator("[name=opposing_rating]").fill("7")
    form.locator("[name=d20]").fill("10")
    shown = run("talislanta.resolve_action", {"rating": "9", "opposing_rating": "7", "d20": "10"})["headline"]
    expect(form.locator(".calc-headline")).to_have_text(shown, timeout=BOOT)

    # Search works offline too: its index and worker come from the cache.
    page.goto(base_url)
    page.locator(".md-search__input").press_sequentially("attack")  # Material listens for keys
    page.locator(".md-search-result__item").first.wait_for(timeout=20_000)

    # The Table log shows the results logged offline: the one left shown when the page was left as well.
    page.goto(base_url + "table-log/")
    expect(page.locator(".log-headline")).to_have_text([shown, headline])

    # A rule's preview, from rule-previews.json in the cache.
    page.goto(base_url + "tell-tale/combat/")
    link = page.locator(".md-content a.term:visible").first
    target = link.get_attribute("href").split("#")[1]
    link.hover()
    preview = page.locator(".rule-preview")
    expect(preview.locator(".rule-preview-meta")).to_contain_text(target)
    expect(preview.locator(".rule-preview-text")).not_to_be_empty()
    assert not errors
    context.close()


def test_a_repeat_visit_starts_from_the_wasm_and_the_snapshot_kept_in_the_cache(browser, site, base_url):
    """After a first result the worker keeps the plain wasm beside its .zst,
    and the calculators' worker the snapshot unpacked: the next visit's
    runtime compiles that wasm from Cache Storage, unpacking nothing,
    fetches no wasm at all, and restores
    the snapshot kept, unpacking nothing. A kept snapshot cut short is
    forgotten: that visit unpacks the download, and keeps it whole again."""
    first = calculator_page(site, "tell_tale.resolve_attack")
    if not first:
        pytest.skip("the calculators are not embedded in the pages yet")
    data = worker_data(site)
    link = base_url + first + "?calc=tell_tale.resolve_attack&power=5&d20=17"
    runtime_cache = data["prefix"] + "runtime-" + data["runtimeDigest"]
    kept_size = """async ([name, file]) => {
        const kept = await (await caches.open(name)).match(new URL(file, location.href).href);
        return kept ? (await kept.arrayBuffer()).byteLength : 0;
    }"""
    context = browser.new_context(service_workers="allow")
    try:
        page = context.new_page()
        page.goto(link)
        expect(page.locator('.calc-result[data-outcome="full"]').first).to_be_visible(timeout=BOOT)
        wait_until_offline_ready(page, data, compiled=True)
        kept_file = data["runtime"] + KEPT_SNAPSHOT
        whole = page.evaluate(kept_size, [runtime_cache, base_url + kept_file])
        assert whole > 10_000_000, whole  # the runs of 31 MB of memory, unpacked
        page.close()

        page = context.new_page()
        workers = []
        page.on("worker", lambda worker: "calc-worker" in worker.url and workers.append(worker))
        page.goto(link)
        expect(page.locator('.calc-result[data-outcome="full"]').first).to_be_visible(timeout=BOOT)
        fetched = workers[0].evaluate("() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname.split('/').pop())")
        assert "pyodide.asm.mjs" in fetched, fetched  # the worker's own fetches are the ones listed
        assert not [name for name in fetched if name.startswith("pyodide.asm.wasm")], fetched
        stamps = page.evaluate("() => globalThis.__calcRuntime.timings")
        assert stamps.get("snapshotKept") is not None and stamps.get("snapshotDecoded") is None, stamps

        page.evaluate("""async ([name, file]) => {
            const cache = await caches.open(name);
            const kept = await cache.match(new URL(file, location.href).href);
            const bytes = new Uint8Array(await kept.arrayBuffer());
            await cache.put(new URL(file, location.href).href, new Response(bytes.subarray(0, bytes.length - 4096)));
        }""", [runtime_cache, base_url + kept_file])
        page.close()
        page = context.new_page()
        page.goto(link)
        expect(page.locator('.calc-result[data-outcome="full"]').first).to_be_visible(timeout=BOOT)
        stamps = page.evaluate("() => globalThis.__calcRuntime.timings")
        assert stamps.get("snapshotKept") is None and stamps.get("snapshotDecoded") is not None, stamps
        poll(page, f"async (arg) => ({kept_size})(arg).then((size) => size === {whole})", [runtime_cache, base_url + kept_file])
    finally:
        context.close()


def _visited_offline_ready(browser, deployed, data):
    """`deployed` served and visited once with its service worker, the pages and the runtime cached (the runtime
    without booting a calculator): the server, its address, the context and the page."""
    server, url = serve(deployed)
    context = browser.new_context(service_workers="allow")
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=BOOT)
    page.evaluate("() => navigator.serviceWorker.controller.postMessage({type: 'cache-runtime'})")
    wait_until_offline_ready(page, data)
    return server, url, context, page


def test_a_new_build_replaces_the_old_cache(browser, site, tmp_path):
    """Deploy a copy of the site, visit it, deploy a changed build: the new
    worker takes over, deletes the old pages cache, keeps the runtime cache
    (same runtime folder) and serves the new pages offline."""
    deployed = tmp_path / "site"
    shutil.copytree(site, deployed, ignore=shutil.ignore_patterns("pyodide"))
    (deployed / "pyodide").symlink_to(site / "pyodide", target_is_directory=True)
    old = worker_data(deployed)
    server, _url, context, page = _visited_offline_ready(browser, deployed, old)
    try:

        # The next build: one page changed; the finishing step writes a new worker.
        index = deployed / "index.html"
        index.write_text(index.read_text(encoding="utf-8").replace("</article>", "<p id=new-build>New build.</p></article>", 1), encoding="utf-8")
        versioned = {url.split("?")[0]: url for url in old["precache"] if "?v=" in url}
        offline.write_worker(deployed, old["runtime"], versioned)
        new = worker_data(deployed)
        assert new["digest"] != old["digest"] and new["runtimeDigest"] == old["runtimeDigest"]

        page.evaluate("() => navigator.serviceWorker.getRegistration().then((r) => r.update())")
        names = poll(
            page,
            """async (fresh) => { const k = await caches.keys(); return k.includes(fresh) && !k.some((n) => n.includes("-pages-") && n !== fresh) && k; }""",
            new["prefix"] + "pages-" + new["digest"],
        )
        assert sorted(names) == sorted([new["prefix"] + "pages-" + new["digest"], new["prefix"] + "runtime-" + new["runtimeDigest"]])

        context.set_offline(True)
        page.reload()
        expect(page.locator("#new-build")).to_have_count(1)
    finally:
        context.close()
        server.shutdown()
        server.server_close()


def test_a_returning_visit_is_answered_from_the_cache_and_the_next_one_is_the_new_build(browser, site, tmp_path):
    """Stale-while-revalidate, a build at a time: after a deploy, a returning
    visitor's page comes from the worker's cache at once, the old build whole,
    and no network asked first; the page asks for the worker's update, the
    new build's worker takes over, and the visit after is the new build."""
    deployed = tmp_path / "site"
    shutil.copytree(site, deployed, ignore=shutil.ignore_patterns("pyodide"))
    (deployed / "pyodide").symlink_to(site / "pyodide", target_is_directory=True)
    old = worker_data(deployed)
    server, url, context, page = _visited_offline_ready(browser, deployed, old)
    try:
        index = deployed / "index.html"
        index.write_text(index.read_text(encoding="utf-8").replace("</article>", "<p id=new-build>New build.</p></article>", 1), encoding="utf-8")
        versioned = {address.split("?")[0]: address for address in old["precache"] if "?v=" in address}
        offline.write_worker(deployed, old["runtime"], versioned)
        new = worker_data(deployed)

        page.goto(url)  # the returning visit, with no update asked for before it
        expect(page.locator("article")).to_be_visible(timeout=BOOT)
        expect(page.locator("#new-build")).to_have_count(0)  # the build the worker has, as it was

        fresh = new["prefix"] + "pages-" + new["digest"]
        poll(page, "async (fresh) => (await caches.keys()).includes(fresh) && !(await caches.keys()).some((k) => k.includes('-pages-') && k !== fresh)", fresh)
        wait_until_offline_ready(page, new)
        page.reload()
        expect(page.locator("#new-build")).to_have_count(1, timeout=BOOT)
    finally:
        context.close()
        server.shutdown()
        server.server_close()


def test_after_a_deploy_that_changes_the_runtime_a_reload_offline_still_computes(browser, site, tmp_path):
    """A device that used the calculators, then a deploy with a new runtime folder: the new worker fetches the new
    runtime whole before it takes over, so the network gone and the page reloaded, a calculator still answers. The old
    runtime's cache goes only once the new one is whole."""
    old_folder = worker_data(site)["runtime"].strip("/").split("/")[-1]
    new_folder = old_folder[:-12] + "0123456789ab"  # another runtime digest, the same files
    deployed = tmp_path / "site"
    shutil.copytree(site, deployed, ignore=shutil.ignore_patterns("pyodide"))
    (deployed / "pyodide").mkdir()
    (deployed / "pyodide" / old_folder).symlink_to(site / "pyodide" / old_folder, target_is_directory=True)
    old = worker_data(deployed)
    server, url, context, page = _visited_offline_ready(browser, deployed, old)
    try:

        # The deploy: the runtime under a new folder (the old one gone from the host), every page pointing at it.
        (deployed / "pyodide" / new_folder).symlink_to(site / "pyodide" / old_folder, target_is_directory=True)
        (deployed / "pyodide" / old_folder).unlink()
        for html in deployed.rglob("*.html"):
            text = html.read_text(encoding="utf-8")
            if old_folder in text:
                html.write_text(text.replace(old_folder, new_folder), encoding="utf-8")
        versioned = {address.split("?")[0]: address for address in old["precache"] if "?v=" in address}
        offline.write_worker(deployed, f"pyodide/{new_folder}/", versioned)
        new = worker_data(deployed)
        assert new["runtimeDigest"] == new_folder and new["digest"] != old["digest"]

        page.evaluate("() => navigator.serviceWorker.getRegistration().then((r) => r.update())")
        poll(page, """async (digest) => { const r = await navigator.serviceWorker.getRegistration();
                                            return r?.active?.state === 'activated' && !r.installing && !r.waiting
                                              && (await caches.keys()).some((k) => k.includes('-pages-') && k.endsWith(digest)); }""",
             new["digest"])
        wait_until_offline_ready(page, new)
        names = page.evaluate("() => caches.keys()")
        assert sorted(names) == sorted([new["prefix"] + "pages-" + new["digest"], new["prefix"] + "runtime-" + new_folder])

        context.set_offline(True)
        page.goto(url + calculator_page(site, "tell_tale.resolve_attack") + "?calc=tell_tale.resolve_attack&power=5&d20=17")
        expect(page.locator('.calc-result[data-outcome="full"]').first).to_be_visible(timeout=BOOT)
    finally:
        context.close()
        server.shutdown()
        server.server_close()


def test_an_unknown_address_offline_shows_the_sites_404_page(browser, site, base_url):
    data = worker_data(site)
    context = browser.new_context(service_workers="allow")
    try:
        page = context.new_page()
        page.goto(base_url)
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=BOOT)
        poll(page, "async ([name, n]) => (await caches.has(name)) && (await (await caches.open(name)).keys()).length === n",
             [data["prefix"] + "pages-" + data["digest"], len(data["precache"])])
        context.set_offline(True)
        response = page.goto(base_url + "no/such/page/?calc=x#y")
        assert response.status == 404
        expect(page.locator(".md-content h1")).to_have_text("404 - Not found")
        expect(page.locator(".md-header__title")).to_be_visible()  # the site's own page, styled, not the browser's
        assert page.evaluate("() => getComputedStyle(document.querySelector('.md-header')).position") == "sticky"  # Material's stylesheet, from the cache
    finally:
        context.close()


class SwappedScript(SiteHandler):
    """A host that, while `swapping` is set, answers the service worker's
    fetch of this build's house-rules.js?v=… with another build's file, as a
    deployment under way or a proxy's old copy would. The page's own
    request for the script (a module, not a fetch) gets the real file."""

    swapping: threading.Event  # each test's own class sets these (see below)
    swapped: list[str]  # the addresses answered wrongly
    OTHER = b"// Another build's house-rules.js.\nexport const LOG_CAP = 1;\n"

    def send_head(self):
        if self.swapping.is_set() and self.path.startswith("/assets/house-rules.js?v=") and self.headers.get("Sec-Fetch-Dest") == "empty":
            self.swapped.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "text/javascript")
            self.send_header("Content-Length", str(len(self.OTHER)))
            self.end_headers()
            return io.BytesIO(self.OTHER)
        return super().send_head()


def test_a_script_that_is_not_this_builds_is_not_kept_offline(browser, site):
    """What arrives at install under this build's versioned address is
    kept only if it matches: the worker checks the digest the address carries, as
    it does the runtime's files: a mismatch is left out, fetched from the
    network when a page asks for it, and kept once it matches."""
    data = worker_data(site)
    table = next(u for u in data["precache"] if u.startswith("assets/house-rules.js?v="))
    pages = data["prefix"] + "pages-" + data["digest"]
    handler = type("Swapped", (SwappedScript,), {"swapping": threading.Event(), "swapped": []})
    handler.swapping.set()
    server, url = serve(site, handler)
    context = browser.new_context(service_workers="allow")
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=BOOT)  # installed and in charge
        assert handler.swapped, "the worker did not fetch house-rules.js while installing"
        kept = poll(page, """async ([name, n]) => { const c = await caches.open(name); const k = await c.keys(); return k.length >= n - 1 && k.map((r) => r.url); }""",
                    [pages, len(data["precache"])])
        assert url + table not in kept, "another build's house-rules.js is kept under this build's address"
        assert len(kept) == len(data["precache"]) - 1  # everything else is there

        # The host serves this build's file again: asked for by a page, it is checked and kept.
        handler.swapping.clear()
        page.reload()
        page.locator(".md-header").wait_for()
        body = poll(page, "async ([name, u]) => { const r = await (await caches.open(name)).match(u); return r && r.text(); }", [pages, url + table])
        assert body == (site / "assets" / "house-rules.js").read_text(encoding="utf-8")
    finally:
        context.close()
        server.shutdown()
        server.server_close()


class FailingInstall(SiteHandler):
    """A host that, once `failing` is set, serves a changed sw.js each time
    (a comment more: the same build, its pages and cache name) and drops
    every other connection unanswered, as a phone's network that goes while
    the new worker installs."""

    failing: threading.Event  # each test's own class sets these (see below)
    served: list[str]  # the changed workers served
    dropped: list[str]  # the addresses dropped

    def send_head(self):
        if not self.failing.is_set():
            return super().send_head()
        if self.path.split("?")[0] == "/sw.js":
            self.served.append(self.path)
            body = (Path(self.directory) / "sw.js").read_bytes() + f"\n// The same build, its worker changed ({len(self.served)}).\n".encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/javascript")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            return io.BytesIO(body)
        self.dropped.append(self.path)
        self.close_connection = True
        self.connection.shutdown(socket.SHUT_RDWR)
        return None


def test_an_install_of_the_same_build_keeps_its_cache_and_fetches_only_what_it_lacks(browser, site):
    """The deploy test's offline reload failed now and then (net::ERR_FAILED, 4 runs in 10 under load): after the
    deploy, Chromium installed the same worker again on each update check, and each install began by emptying the
    cache the worker in charge answers from, then fetched all of it again, or failed offline and left nothing.
    A worker whose script changed but not its build does the same. Such an install fetches only what the cache
    lacks, and one that fails half-way leaves the cache as it was."""
    data = worker_data(site)
    pages, whole = data["prefix"] + "pages-" + data["digest"], len(data["precache"])
    handler = type("Failing", (FailingInstall,), {"failing": threading.Event(), "served": [], "dropped": []})
    server, url = serve(site, handler)
    context = browser.new_context(service_workers="allow")
    count = "async (name) => (await caches.has(name)) && (await (await caches.open(name)).keys()).length"
    update = """async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        try { await registration.update(); } catch {}  // the install's failure is not the update's
        for (let i = 0; i < 600 && (registration.installing || registration.waiting); i++) await new Promise((r) => setTimeout(r, 100));
        return registration.active.scriptURL && !registration.installing && !registration.waiting;
      }"""
    try:
        page = context.new_page()
        page.goto(url + "tell-tale/glossary/")  # a rule page with no calculator: the runtime is not asked for
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=BOOT)
        poll(page, f"async (name) => (await ({count})(name)) === {whole}", pages)
        handler.failing.set()

        # The cache whole: the changed worker installs with every connection but its own dropped, so it fetched
        # nothing (any fetch would have failed the install), and takes over.
        page.evaluate("async () => { window.__before = (await navigator.serviceWorker.getRegistration()).active; }")
        assert page.evaluate(update)
        assert handler.served, "no changed worker was asked for"
        assert page.evaluate("async () => (await navigator.serviceWorker.getRegistration()).active !== window.__before"), "the install failed"
        assert page.evaluate(count, pages) == whole

        # Three files gone from it: the next install asks for those three, fails, and leaves the rest in place.
        lost = ["tell-tale/keywords/", "search/search_index.json", next(u for u in data["precache"] if u.startswith("assets/house-rules.js?v="))]
        page.evaluate("async ([name, lost]) => { const c = await caches.open(name); for (const u of lost) await c.delete(new URL(u, location.origin + '/').href); }",
                      [pages, lost])
        page.evaluate("async () => { window.__before = (await navigator.serviceWorker.getRegistration()).active; }")
        asked = len(handler.served)
        assert page.evaluate(update)
        assert len(handler.served) > asked, "no changed worker was asked for"
        assert page.evaluate("async () => (await navigator.serviceWorker.getRegistration()).active === window.__before"), "an install that lacked files took over"
        assert set(lost) <= {path.lstrip("/") for path in handler.dropped}  # each tried
        assert page.evaluate(count, pages) == whole - 3

        page.reload()  # the network still drops everything: the page comes from the cache
        expect(page.locator(".md-content h1").first).not_to_have_text("")
        assert page.evaluate("() => getComputedStyle(document.querySelector('.md-header')).position") == "sticky"
    finally:
        context.close()
        server.shutdown()
        server.server_close()


def test_the_build_refuses_a_script_whose_address_carries_another_digest(tmp_path):
    """rulebook/site/offline.py checks what the worker will: else a file would never be kept offline."""
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "x.js").write_bytes(b"export const x = 1;\r\n")
    good = hashlib.sha256(b"export const x = 1;\r\n").hexdigest()[:10]
    offline.check_versions(tmp_path, ["assets/x.js"], [f"assets/x.js?v={good}"])
    with pytest.raises(SiteError, match=r"assets/x\.js: the site's copy does not have the digest"):
        offline.check_versions(tmp_path, ["assets/x.js"], ["assets/x.js?v=0123456789"])


@pytest.mark.node
def test_the_imports_versioned_are_those_the_code_makes():
    """rulebook/site/assets.py finds imports with a pattern, comments left out: JSDoc names other
    modules' types as `import("./x.js").T`, and counting those made a cycle (house-rules.js and the form's
    module each name the other's types). Here every page script's imports, as TypeScript's parser reads
    them, must be exactly the ones the finishing step versions."""
    scripts = sorted((ROOT / "docs").rglob("*.js"))
    node = shutil.which("node")
    assert node, "Node.js is needed (make setup installs the npm packages)"
    parsed = json.loads(subprocess.run([node, "tests/js_imports.mjs", *map(str, scripts)], cwd=ROOT, capture_output=True, text=True,
                                       check=True, timeout=120).stdout)
    for script in scripts:
        hooked = [m["spec"] for m in assets.imports(script.read_text(encoding="utf-8"))]
        assert hooked == parsed[str(script)], script.name
    assert any("import(" in s.read_text(encoding="utf-8") and "@typedef" in s.read_text(encoding="utf-8") for s in scripts)
    tricky = 'import { a } from "./a.js";\n/** @type {import("./b.js").B} */\n// from "./c.js"\nconst u = "http://x//y"; // import("./d.js")\nimport("./e.js");\n'
    assert [m["spec"] for m in assets.imports(tricky)] == ["./a.js", "./e.js"]


def test_a_digest_is_of_the_file_as_served(tmp_path):
    """rulebook/site/assets.py hashes the bytes the site serves (as esbuild wrote them, imports versioned),
    the very file the worker checks."""
    (tmp_path / "x.js").write_bytes(b"export const x = 1;\r\n")
    (tmp_path / "y.js").write_bytes(b'import { x } from "./x.js";\r\nexport const y = x;\r\n')
    found = assets.versioned(tmp_path)
    x_built = found.contents["x.js"].encode()
    x_digest = hashlib.sha256(x_built).hexdigest()[:10]
    assert found.urls["x.js"] == f"x.js?v={x_digest}"
    y_built = found.contents["y.js"].encode()
    assert f'"./x.js?v={x_digest}"'.encode() in y_built
    assert found.urls["y.js"] == f"y.js?v={hashlib.sha256(y_built).hexdigest()[:10]}"


def test_stylesheets_reach_the_site_without_their_comments(site):
    """A stylesheet's comments are left out of the site's copy (they explain the rules to whoever edits docs/;
    every byte of a stylesheet comes before a calculator's first result), never the inside of a string, and the
    copy is what its address's digest is of."""
    from runtime.build import minify

    shipped = minify({"a.css": 'a { content: "/* kept */"; } /* gone\n over lines */\nb { x: \'//\'; }\n'})["a.css"]
    assert '"/* kept */"' in shipped and "gone" not in shipped and "//" in shipped
    sheets = sorted((ROOT / "docs").rglob("*.css"))
    assert sheets
    for sheet in sheets:
        rel = sheet.relative_to(ROOT / "docs").as_posix()
        source, shipped = sheet.read_text(encoding="utf-8"), (site / rel).read_text(encoding="utf-8")
        assert shipped == minify({rel: source})[rel]
        if "/*" in source:
            assert len(shipped) < len(source), rel
