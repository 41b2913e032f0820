"""A content security policy on every page: declared in each
page's <meta http-equiv>, with the hashes of the site's own inline scripts
(no 'unsafe-inline' for scripts), and written to _headers for hosts that send
it as a header; and the site does everything it does under it: the
calculator boots, computes, searches and works offline with not one
violation, whether the policy comes from the page or from the host."""

from __future__ import annotations

import base64
import hashlib
import html
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect
from support.helpers import BOOT, calculator_page, wait_until_offline_ready, worker_data
from support.server import SiteHandler, serve

from rulebook.site import built, csp

META = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">')


def metas(page: str) -> list[str]:
    """The policies a page's <meta>s declare, as the browser reads the attribute."""
    return [html.unescape(policy) for policy in META.findall(page)]


def site_policy(site: Path) -> str:
    text = (site / "_headers").read_text(encoding="utf-8")
    return re.search(r"^  Content-Security-Policy: (.+)$", text, re.M).group(1)


def directives(policy: str) -> dict[str, list[str]]:
    return {name: values for name, *values in (part.split() for part in policy.split(";"))}


def page_policy(site: Path) -> str:
    """The <meta> policy: the header's without what a <meta> cannot carry."""
    return "; ".join(part for part in site_policy(site).split("; ") if part.split()[0] not in csp.HEADER_ONLY)


def site_pages(site: Path) -> list[Path]:
    """The site's own pages (not the runtime, nor the r/<id>/ short links,
    which are plain redirects with a stricter policy of their own)."""
    return [p for p in sorted(site.rglob("*.html")) if p.relative_to(site).parts[0] not in ("pyodide", "r")]


def test_the_policy_allows_only_this_site_and_hashed_inline_scripts(site):
    policy = directives(site_policy(site))
    scripts = policy["script-src"]
    assert scripts[:2] == ["'self'", "'wasm-unsafe-eval'"]
    assert all(s.startswith("'sha256-") for s in scripts[2:]) and scripts[2:]
    assert "'unsafe-inline'" not in scripts and "'unsafe-eval'" not in " ".join(v for values in policy.values() for v in values)
    assert policy["object-src"] == ["'none'"] and policy["base-uri"] == ["'self'"]
    assert policy["default-src"] == ["'self'"] and policy["worker-src"] == ["'self'"]
    assert policy["connect-src"] == ["'self'", "data:"]  # the snapshot decoder's wasm is a data: URL


def test_the_header_alone_says_no_other_site_may_frame_the_pages(site):
    """`frame-ancestors` in the header (against clickjacking); a
    <meta> cannot carry it (the browser ignores it there and warns)."""
    assert directives(site_policy(site))["frame-ancestors"] == ["'self'"]
    page = (site / "index.html").read_text(encoding="utf-8")
    assert metas(page) == [page_policy(site)] and "frame-ancestors" not in metas(page)[0]


def test_every_page_declares_the_policy_with_each_of_its_inline_scripts_hashed(site):
    policy = page_policy(site)
    allowed = set(directives(policy)["script-src"])
    pages = site_pages(site)
    assert len(pages) > 20 and site / "404.html" in pages
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert metas(text) == [policy], page  # one policy, the same everywhere (instant navigation keeps the first)
        assert text.index("Content-Security-Policy") < text.index("<script"), page  # before any script
        for script in built.inline_scripts(text):
            digest = "'sha256-" + base64.b64encode(hashlib.sha256(script.encode()).digest()).decode() + "'"
            assert digest in allowed, (page, script[:80])
    assert "/sw.js\n  Cache-Control: no-cache" in (site / "_headers").read_text()


class PolicyHandler(SiteHandler):
    """A host that sends the policy from _headers with every file, workers included."""

    def end_headers(self):
        self.send_header("Content-Security-Policy", site_policy(Path(self.directory)))
        super().end_headers()


RECORD = """
globalThis.__violations = [];
addEventListener("securitypolicyviolation", (e) => __violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
"""


@pytest.mark.browser
@pytest.mark.search_index
@pytest.mark.parametrize("delivery", ["meta", "header"])
def test_no_violation_while_the_calculator_boots_computes_searches_and_works_offline(browser, site, delivery):
    attack = calculator_page(site, "tell_tale.resolve_attack")
    keywords = calculator_page(site, "tell_tale.first_strike")
    server, url = serve(site, PolicyHandler if delivery == "header" else SiteHandler)
    ctx = browser.new_context(service_workers="allow")
    ctx.add_init_script(RECORD)
    page = ctx.new_page()
    # A violation inside a worker is not an event of the page, and Chromium
    # does not pass its report on: there it shows as a failure the worker
    # logs (a snapshot that cannot be unpacked, a file that cannot be
    # fetched), so every error and warning counts.
    complaints = []
    page.on("console", lambda m: m.type in ("error", "warning") and complaints.append(m.text))
    violations = lambda: page.evaluate("() => globalThis.__violations")  # noqa: E731
    try:
        # Boots and computes (a share link), and the head's early start ran.
        page.goto(f"{url}{attack}?calc=tell_tale.resolve_attack&power=5&d20=20&crit_d4=3")
        page.locator('[data-outcome="critical"]').wait_for(timeout=BOOT)
        assert page.evaluate("() => globalThis.__calcRuntime.how") == "snapshot"

        # Searches (Material's search worker).
        page.locator(".md-search__input").press_sequentially("attack")
        page.locator(".md-search-result__item").first.wait_for(timeout=20_000)
        page.keyboard.press("Escape")

        # A page swapped in by instant navigation runs its inline scripts under the first page's policy.
        page.evaluate("url => { const a = document.createElement('a'); a.href = url; document.querySelector('.md-content').append(a); a.click(); }", url + keywords)
        form = page.locator('form[data-calculator="tell_tale.first_strike"]')
        form.wait_for()
        form.locator("input").first.fill("3")
        form.locator("[data-outcome], [role=alert]:not(:empty)").first.wait_for(timeout=BOOT)
        assert violations() == [], violations()

        # Offline: the cached pages, scripts and runtime, under the same policy.
        wait_until_offline_ready(page, worker_data(site))
        ctx.set_offline(True)
        page.goto(f"{url}{attack}?calc=tell_tale.resolve_attack&power=5&d20=17")
        page.locator('[data-outcome="full"]').wait_for(timeout=BOOT)
        assert violations() == [] and complaints == [], (violations(), complaints)
        page.goto(url + "no/such/page/")  # (its 404 status is logged: no complaint)
        expect(page.locator(".md-content h1")).to_have_text("404 - Not found")
        assert violations() == [], violations()
    finally:
        ctx.close()
        server.shutdown()
        server.server_close()


@pytest.mark.browser
def test_another_site_cannot_show_a_page_in_a_frame_but_the_site_itself_can(browser, site, tmp_path):
    """Sent as a header, the policy keeps the pages out of another site's
    frames (another port is another site)."""
    server, url = serve(site, PolicyHandler)
    (tmp_path / "framer.html").write_text(f'<iframe src="{url}tell-tale/combat/"></iframe>', encoding="utf-8")
    other, other_url = serve(tmp_path)
    context = browser.new_context()
    page = context.new_page()
    try:
        with page.expect_console_message(lambda m: "frame-ancestors" in m.text, timeout=10_000):
            page.goto(other_url + "framer.html")  # "load": the frame has loaded, or failed
        framed = page.frames[1]
        assert framed.url != url + "tell-tale/combat/", "another site framed the page"
        expect(framed.locator(".md-header"), "another site framed the page").to_have_count(0)
        page.goto(url)
        page.evaluate("u => { const f = document.createElement('iframe'); f.id = 'own'; f.src = u; document.body.append(f); }", url + "tell-tale/combat/")
        expect(page.frame_locator("#own").locator(".md-header")).to_have_count(1)
    finally:
        context.close()
        for s in (server, other):
            s.shutdown()
            s.server_close()


def test_the_readme_gives_the_policy_the_build_writes(site):
    """README, Deploying: the header for a host, and the nginx and Apache
    snippets, carry the very policy of a build at the root of its host."""
    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    if not re.search(r"<loc>https?://[^/<]+/</loc>", sitemap):
        pytest.skip("this build's SITE_URL has a path: its policy differs from the README's by design")
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    policy = site_policy(site)
    assert f"Content-Security-Policy: {policy}\n" in readme
    assert f'set $csp "{policy}";' in readme
    assert f'Header always set Content-Security-Policy "{policy}"' in readme
