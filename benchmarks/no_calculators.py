"""The bench's comparison site, the same pages built without the calculator
hooks (build_without_calculator_hooks, row 2 of `make bench`), and the
```calculator fence's format there (no_form): the plain page's site draws no
form, so there a fence renders nothing."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CALCULATOR_HOOKS = ("finish",)  # run below, without the runtime


def no_form(source, language, class_name, options, md, **kwargs) -> str:
    return ""


def build_without_calculator_hooks(out: Path) -> str | None:
    """Build the site without the calculators: no runtime, no service worker
    (it exists to keep the runtime offline: the finishing step runs with
    --no-calculators), no forms, no trackers; the
    ```calculator fences render nothing (benchmarks/no_calculators.py), the
    {{ calculator-index }} lines stay as text, and the {{ tracker }} lines
    are taken out of a copy of docs/ (a tracker starts the runtime). The plain
    page is the same Markdown either way. The error, if it failed."""
    docs = out.parent / "docs-no-calculators"
    shutil.rmtree(docs, ignore_errors=True)
    shutil.copytree(ROOT / "docs", docs)
    for page in docs.rglob("*.md"):
        text = page.read_text()
        if "{{ tracker " in text:
            page.write_text(re.sub(r"^\{\{ tracker [^}\n]*\}\}\n", "", text, flags=re.M))
    config = (ROOT / "mkdocs.yml").read_text()
    extension = "\n  - rulebook.extension "
    if extension not in config:
        return (f"mkdocs.yml no longer names{extension.strip()} as a bare list item: "
                "update build_without_calculator_hooks")
    config = config.replace(extension, f"\n  - rulebook.extension:\n      docs: {docs}\n    ", 1)
    config = re.sub(rf"^  - hooks/({'|'.join(CALCULATOR_HOOKS)})\.py.*\n", "", config, flags=re.M)
    fence = "!!python/name:rulebook.extension.calculator_fence"
    if fence not in config:
        return f"mkdocs.yml no longer names {fence}: update build_without_calculator_hooks"
    config = config.replace(fence, "!!python/name:benchmarks.no_calculators.no_form")
    config = config.replace("hooks/", str(ROOT / "hooks") + "/")
    config = config.replace("custom_dir: overrides", f"custom_dir: {ROOT / 'overrides'}")
    config = f"docs_dir: {docs}\nstrict: false\n" + config.replace("strict: true\n", "")
    cfg = out.parent / "mkdocs-no-calculators.yml"
    cfg.write_text(config)
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(cfg), "-d", str(out)],
                          env=env, cwd=ROOT, capture_output=True, text=True)
    if done.returncode:  # the pages with a calculator fence need its hook: report, measure the rest
        errors = [line for line in done.stderr.splitlines() if line.startswith("ERROR")]
        return errors[0] if errors else done.stderr.strip().splitlines()[-1]
    done = subprocess.run([sys.executable, "-m", "rulebook.site", "finish", str(out), "--no-calculators"],
                          env=env, cwd=ROOT, capture_output=True, text=True)
    return done.stderr.strip() or "the finishing step failed" if done.returncode else None

