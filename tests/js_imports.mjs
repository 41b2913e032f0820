// The relative imports of each script named on the command line, as
// TypeScript's parser reads them: static imports and exports `from` a
// module, and import() calls. JSON on stdout: {file: [specifier, ...]}.
// tests/test_offline.py compares rulebook/site/assets.py's with these.
import ts from "typescript";
import { readFileSync } from "node:fs";

const found = {};
for (const file of process.argv.slice(2)) {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ESNext, true, ts.ScriptKind.JS);
  const specs = [];
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      specs.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      specs.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  found[file] = specs.filter((s) => s.startsWith("./") || s.startsWith("../"));
}
process.stdout.write(JSON.stringify(found));
