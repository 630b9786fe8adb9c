// Test data for memlint/model/globs.py: how Claude Code matches a rule's `paths:` against a file.
//
//   (cd /tmp/x && npm install ignore@7.0.16)   # only for the comparison printed on stderr
//   NODE_PATH=/tmp/x/node_modules node tests/fidelity/gen_ignore.js > tests/fidelity/ignore_table.json
//
// Claude Code 2.1.332 matches with `<ignore>().add(globs).ignores(relativePath)` (default options:
// case-insensitive). Its bundle carries no version string for this library, and its code is not the
// code of any npm `ignore` release (ignore 7.0.16, the newest before 2.1.332, is a different
// implementation), so the table is made with the matcher taken from the CLI itself: this script reads
// the CLI's single-file binary from the oracle's cache (CC_BINARY, default
// ~/.cache/cc-oracle/2.1.332/package/claude), cuts out the library's ~2,800 characters of JavaScript
// and runs them. Patterns that do not compile are dropped, as Claude Code drops them. Nothing of the
// CLI is checked in: only the (patterns, path, matches) triples. stderr prints how often npm `ignore`
// (when installed) agrees.
"use strict";
const fs = require("fs");
const path = require("path");
const os = require("os");

const binary = process.env.CC_BINARY || path.join(os.homedir(), ".cache/cc-oracle/2.1.332/package/claude");
const text = fs.readFileSync(binary).toString("latin1");
const start = text.indexOf("var ed=/(\\*+(?=.))");
const endMarker = "function Wi(e){return e}";
const end = text.indexOf(endMarker, start);
if (start < 0 || end < 0) throw new Error("ignore matcher not found in " + binary);
const cc = new Function(text.slice(start, end + endMarker.length) + "\nreturn {P3, Ti};")();

function usable(pattern) { // Claude Code's R6t: a pattern that fails to compile is dropped
  try { cc.P3().add([pattern]).test("probe"); return true; } catch (e) { return false; }
}
function ccMatches(patterns, p) {
  return cc.P3().add(patterns.filter(usable)).ignores(p);
}

const single = [
  "*.md", "*.MD", "*.PY", "*.py", "src/**", "src/**/*.ts", "**/*.test.js", "/root.md", "root.md", "docs/",
  "docs", "a/**/b", "*.{js,ts}", "{1..3}.md", "[!a]*.md", "[^a]*.md", "[a-c].md", "[z-a].md", "[[:alpha:]]*.md",
  "[[:digit:]].md", "\\#hash.md", "#hash.md", "\\!bang.md", "foo\\ bar.md", "foo bar.md", "file?.md", "**",
  "*", ".env*", ".*", "src/*.ts", "*/x.md", "a/b/", "a//b", "trailing\\ ", "trailing ", "ext@(a|b)",
  "+(a|b).md", "!(a).md", "src/**/", "**/node_modules/**", "***.md", "a/*/c", "[", "[abc", "a]b", "\\\\",
  "\\*.md", "*.[jt]s", "Docs/**", "**/guide/*.md", "docs/**/x.md", "x.md/", "/src/", "src", "**/src",
  "a\\b.md", "\\a.md", "(x).md", "a+b.md", "^a.md", "$a.md", "a|b.md", "a{2}.md", "a.b", "*.md*",
  "?.md", "??.md", "*?", "/**", "**/", "/*.md", "*/", "src/**/**/*.ts", "**/**", "a/**", "[a-]*.md",
  "[\\]]*.md", "[]a].md", "[!]a].md", "\\[a].md", "[a-z0-9]*.md", "[.]env", "*.m[!d]",
];
const multi = [
  ["src/**", "!src/keep.ts"], ["*.md", "!README.md"], ["!*.md"], ["docs/**", "!docs/guide/**"],
  ["*.ts", "!*.test.ts", "src/x.test.ts"], ["*.md", "!*.MD"], ["[", "*.md"],
];
const paths = [
  "a.md", "A.MD", "README.md", "a.py", "b.PY", "src/x.ts", "src/keep.ts", "src/a/b/c.ts", "src/x.test.ts",
  "src/x.test.js", "lib/src/x.ts", "root.md", "docs/root.md", "docs/guide/x.md", "Docs/x.md", "docs",
  "a/b", "a/x/b", "a/x/y/b/c", "a/c", "a/x/c", ".env", ".env.local", ".hidden/x.md", "#hash.md", "!bang.md",
  "foo bar.md", "file1.md", "b.md", "1.md", "{1..3}.md", "x.js", "y.ts", "node_modules/p/index.js",
  "deep/node_modules/x", "ext@(a|b)", "trailing ", "c.md", "z.md", "a]b", "\\", "*.md", "x.md/y", "(x).md",
  "a+b.md", "a|b.md", "a.b", "a.md.bak", "-.md", "].md", "[a].md", "x.mdx", "src", "a.mx",
];
const cases = [];
for (const p of single) for (const f of paths) cases.push({ patterns: [p], path: f, matches: ccMatches([p], f) });
for (const ps of multi) for (const f of paths) cases.push({ patterns: ps, path: f, matches: ccMatches(ps, f) });
const sources = single.map((p) => ({ pattern: p, usable: usable(p), regex: usable(p) ? cc.Ti(p.replace(/^!?(\\(?=[!#]))?/, "")) : null }));

let npm = null;
try { npm = require("ignore"); } catch (e) { /* comparison skipped */ }
if (npm) {
  let same = 0;
  for (const c of cases) {
    let got;
    try { got = npm().add(c.patterns.filter(usable)).ignores(c.path); } catch (e) { got = "error"; }
    if (got === c.matches) same++;
  }
  process.stderr.write(`npm ignore@${require("ignore/package.json").version} agrees on ${same}/${cases.length}\n`);
}
process.stdout.write(JSON.stringify({
  source: "Claude Code 2.1.332's bundled `ignore` matcher, default options (case-insensitive)",
  regexes: sources, cases,
}, null, 0).replace(/\},\{/g, "},\n{") + "\n");
