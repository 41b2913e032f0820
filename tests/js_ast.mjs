// The syntax tree of each script, as TypeScript's parser reads it, for
// tests/test_scripts.py (which checks that a shipped script is the same
// code as esbuild's readable print of its source). Reads one JSON object
// {name: text} on stdin; prints {name: {tree, comments, errors}}: `tree`,
// every node in order as its kind and, for a name or a literal, its value
// (a string's cooked text, a number's value), leaving out the parentheses
// around an expression (a minified script drops those it needs not) and
// JSDoc; `comments`, between how many tokens (and after the last) the text
// holds a comment; `errors`, the parser's complaints.
import ts from "typescript";
import { readFileSync } from "node:fs";

const K = ts.SyntaxKind;
const isJSDoc = (kind) => kind >= K.FirstJSDocNode && kind <= K.LastJSDocNode;
const VALUED = new Set([K.Identifier, K.PrivateIdentifier, K.StringLiteral, K.NoSubstitutionTemplateLiteral, K.TemplateHead,
  K.TemplateMiddle, K.TemplateTail, K.RegularExpressionLiteral, K.BigIntLiteral]);

function treeOf(source) {
  const tree = [];
  const visit = (node) => {
    if (isJSDoc(node.kind)) return;
    if (node.kind === K.ParenthesizedExpression) return visit(node.expression);
    if (VALUED.has(node.kind)) tree.push([node.kind, node.text]);
    else if (node.kind === K.NumericLiteral) tree.push([node.kind, Number(node.text)]);
    else tree.push(node.kind);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return tree;
}

function commentsOf(source, text) {
  let comments = 0;
  let end = 0; // where the last token ended: what lies between two tokens is space or comments
  const visit = (node) => {
    if (isJSDoc(node.kind)) return;
    const children = node.getChildren(source);
    if (children.length === 0 && node.kind !== K.SyntaxList) {
      if (text.slice(end, node.getStart(source)).trim()) comments += 1;
      end = node.end;
    }
    children.forEach(visit);
  };
  visit(source);
  return comments;
}

const found = {};
for (const [name, text] of Object.entries(JSON.parse(readFileSync(0, "utf8")))) {
  const source = ts.createSourceFile(name, text, ts.ScriptTarget.ESNext, true, ts.ScriptKind.JS);
  found[name] = { tree: treeOf(source), comments: commentsOf(source, text),
    errors: source.parseDiagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, " ")) };
}
process.stdout.write(JSON.stringify(found));
