// The tokens of each script, as TypeScript's parser reads them, for
// tests/test_scripts.py (which checks that a shipped script without its
// comments is the same code). Reads one JSON object {name: text} on stdin;
// prints {name: {tokens: [[kind, text], ...], comments, errors}}: every
// token in order (JSDoc is a comment here, not code), between how many
// tokens (and after the last) it holds comments, and the parser's complaints.
import ts from "typescript";
import { readFileSync } from "node:fs";

const isJSDoc = (kind) => kind >= ts.SyntaxKind.FirstJSDocNode && kind <= ts.SyntaxKind.LastJSDocNode;

const found = {};
for (const [name, text] of Object.entries(JSON.parse(readFileSync(0, "utf8")))) {
  const source = ts.createSourceFile(name, text, ts.ScriptTarget.ESNext, true, ts.ScriptKind.JS);
  const tokens = [];
  let comments = 0;
  let end = 0; // where the last token ended: what lies between two tokens is space or comments
  const visit = (node) => {
    if (isJSDoc(node.kind)) return;
    const children = node.getChildren(source);
    if (children.length === 0 && node.kind !== ts.SyntaxKind.SyntaxList) {
      if (text.slice(end, node.getStart(source)).trim()) comments += 1;
      end = node.end;
      if (node.kind !== ts.SyntaxKind.EndOfFileToken) tokens.push([node.kind, node.getText(source)]);
    }
    children.forEach(visit);
  };
  visit(source);
  found[name] = { tokens, comments, errors: source.parseDiagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, " ")) };
}
process.stdout.write(JSON.stringify(found));
