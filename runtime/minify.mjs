// The site's copies of our scripts and stylesheets, as esbuild writes them:
// comments left out, names and syntax as written (no renaming of what a
// reader sees, no rewriting, no bundling). Reads one JSON object
// {name: text} on stdin (a name ending in .css is a stylesheet, any other
// an ES module) and prints {name: text} with its whitespace minified too:
// every byte of a page script, a stylesheet or the worker's modules comes
// before a page's first result. `--readable` prints esbuild's own lines
// instead (tests/test_scripts.py compares the two; there a comment inside an
// expression stays).
// A text esbuild cannot read fails the run, naming it. rulebook/site/assets.py
// and runtime/build.py run it through runtime/build.py `minify`.
import { transformSync } from "esbuild";
import { readFileSync } from "node:fs";

const readable = process.argv.includes("--readable");
const out = {};
for (const [name, text] of Object.entries(JSON.parse(readFileSync(0, "utf8")))) {
  try {
    const loader = name.endsWith(".css") ? "css" : "js";
    out[name] = transformSync(text, { loader, minifyWhitespace: !readable, legalComments: "none", charset: "utf8", sourcefile: name })
      .code;
  } catch (err) {
    process.stderr.write(`${name} cannot be read: ${err.message}\n`);
    process.exit(1);
  }
}
process.stdout.write(JSON.stringify(out));
