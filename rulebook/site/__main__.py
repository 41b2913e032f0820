"""`python -m rulebook.site finish SITE`: finish a site a generator built (see rulebook/site/__init__.py).

The site's name and address come from mkdocs.yml (the address from $SITE_URL
when set, as mkdocs.yml says), unless given. A fault is one sentence on
stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

from ..config import read_config
from . import ROOT, Build, SiteError, finish


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rulebook.site", description="Finish a built site: runtime, data files, "
                                     "content security policy, short links, service worker.")
    sub = parser.add_subparsers(dest="command", required=True)
    one = sub.add_parser("finish", help="finish the site in SITE")
    one.add_argument("site", type=Path, help="the folder the generator wrote (site/)")
    one.add_argument("--docs", type=Path, default=ROOT / "docs", help="the Markdown sources (default: docs/)")
    one.add_argument("--config", type=Path, default=ROOT / "mkdocs.yml", help="where the site's name and address are (default: mkdocs.yml)")
    one.add_argument("--site-url", help="the address the site is deployed to")
    one.add_argument("--site-name", help="the site's name")
    one.add_argument("--no-calculators", action="store_true", help="a site without calculators: no runtime, no service worker")
    args = parser.parse_args(argv)
    try:
        config = read_config(args.config)
    except (OSError, yaml.YAMLError) as err:
        print(f"The site's settings in {args.config} cannot be read: {err}", file=sys.stderr)
        return 2
    name = args.site_name or config.get("site_name")
    if not name:
        print(f"The site has no name: give --site-name, or site_name in {args.config}.", file=sys.stderr)
        return 2
    try:
        finish(Build(site=args.site, docs=args.docs, site_url=args.site_url or str(config.get("site_url") or "/"),
                     site_name=str(name), calculators=not args.no_calculators, say=print))
    except SiteError as err:
        print(err, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
