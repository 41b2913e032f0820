// The functions of each page script and how many lines each spans, as
// TypeScript's parser reads them, for tests/test_scripts.py. Reads one JSON
// object {name: text} on stdin; prints {name: [[function, lines], ...]}, a
// function named by its declaration, its variable or its property, else by
// the line it starts on.
import ts from "typescript";
import { readFileSync } from "node:fs";

const K = ts.SyntaxKind;
const FUNCTIONS = new Set([K.FunctionDeclaration, K.FunctionExpression, K.ArrowFunction, K.MethodDeclaration]);

const found = {};
for (const [name, text] of Object.entries(JSON.parse(readFileSync(0, "utf8")))) {
  const source = ts.createSourceFile(name, text, ts.ScriptTarget.ESNext, true, ts.ScriptKind.JS);
  const line = (at) => source.getLineAndCharacterOfPosition(at).line + 1;
  const out = [];
  const visit = (node) => {
    if (FUNCTIONS.has(node.kind)) {
      const parent = node.parent;
      const named = node.name ?? ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) ? parent.name : null);
      const start = line(node.getStart(source));
      out.push([named ? named.getText(source) : `line ${start}`, line(node.end) - start + 1]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  found[name] = out;
}
process.stdout.write(JSON.stringify(found));
