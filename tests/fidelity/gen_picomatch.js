// Test data for memlint/model/globs.py: how Claude Code matches `claudeMdExcludes` against a file.
//
//   (cd /tmp/x && npm install picomatch@4.0.7)   # only for the comparison printed on stderr
//   NODE_PATH=/tmp/x/node_modules node tests/fidelity/gen_picomatch.js > tests/fidelity/picomatch_table.json
//
// Claude Code 2.1.332 calls `<picomatch>(patterns, {dot: true})(absolutePath)`. The glob library in its
// bundle has no version string and is not the code of any npm picomatch release (a rewrite with
// "dialects"; picomatch 4.0.7 is the newest before 2.1.332), so the table is made with the matcher taken
// from the CLI: this script reads the CLI's single-file binary from the oracle's cache (CC_BINARY,
// default ~/.cache/cc-oracle/2.1.332/package/claude), cuts out the library (~16,000 characters of
// JavaScript, from its regex-escaping helpers to its matcher class) and runs it. Nothing of the CLI is
// checked in: only the (patterns, path, matches) triples. stderr prints how often npm picomatch agrees.
"use strict";
const fs = require("fs");
const path = require("path");
const os = require("os");

const binary = process.env.CC_BINARY || path.join(os.homedir(), ".cache/cc-oracle/2.1.332/package/claude");
const text = fs.readFileSync(binary).toString("latin1");
const anchor = text.indexOf("var hU=3,cQe=Object.assign(gU");
const start = text.lastIndexOf("var jM=/[$()*+\\-.?[\\]^{|}]/", anchor);
const end = text.indexOf('import{domainToASCII as NT}from"url"', anchor);
if (anchor < 0 || start < 0 || end < 0) throw new Error("glob matcher not found in " + binary);
const cc = new Function("ec", "Et", text.slice(start, end) + "\nreturn {cQe};")(path.win32, path.sep).cQe;

function ccMatches(patterns, p) {
  try { return cc(patterns, { dot: true })(p); } catch (e) { return false; }
}

const T = "/home/dev/proj";
const single = [
  "**/CLAUDE.md", "**/a/CLAUDE.md", `${T}/CLAUDE.md`, `${T}/a/CLAUDE.md`, "**/*.md", "*.md", "**", "*",
  `${T}/**`, `${T}/*/CLAUDE.md`, "**/{a,b}/CLAUDE.md", "**/{1..3}/CLAUDE.md", "**/{a..c}/*.md",
  "**/[!a]/CLAUDE.md", "**/[^a]/CLAUDE.md", "**/[a-c]/CLAUDE.md", "**/[[:alpha:]]/CLAUDE.md",
  "**/[[:digit:]]/CLAUDE.md", "**/@(a|b)/CLAUDE.md", "**/!(a)/CLAUDE.md", "**/+(a)/CLAUDE.md",
  "**/*(a)/CLAUDE.md", "**/?(a)/CLAUDE.md", "**/.claude/rules/**", "**/.claude/**", "**/.*/**",
  "**/.hidden/CLAUDE.md", "**/CLAUDE.local.md", "**/*.local.md", "**/claude.md", "**/CLAUDE.MD",
  "!**/b/CLAUDE.md", "!**/CLAUDE.md", "**/a\\*b/CLAUDE.md", "**/a\\[b]/CLAUDE.md", "**/a b/CLAUDE.md",
  "**/?/CLAUDE.md", "**/??/CLAUDE.md", "**/a/**/CLAUDE.md", "**/a/**", "a/**", "**/a/*", "**/rules/*.md",
  "**/rules/**/*.md", "/home/**/CLAUDE.md", "/home/*/proj/CLAUDE.md", "**/proj/**", "**/proj/*",
  `${T}/{a,b}/**`, `${T}/{a,b/c}/CLAUDE.md`, "**/{a,}/CLAUDE.md", "**/{,a}CLAUDE.md", "**/x{a,b{c,d}}/*",
  "**/*.{md,txt}", "**/CLAUDE.{md,local.md}", "**/[ab]*/CLAUDE.md", "**/a?c/**", "**/a*c/**", "**/(a)/CLAUDE.md",
  "**/a|b/CLAUDE.md", "**/a+b/CLAUDE.md", "**/a\\/b", "**/CLAUDE.md/", "/**/CLAUDE.md", "**//CLAUDE.md",
  "***/CLAUDE.md", "**/a/***", "**/.git/**", "**/node_modules/**", "**/{01..3}/CLAUDE.md", "**/{3..1}/CLAUDE.md",
  "**/{a..c..2}/CLAUDE.md", "**/[z-a]/CLAUDE.md", "**/[/CLAUDE.md", "**/a]/CLAUDE.md", "**/#/CLAUDE.md",
  "**/$/CLAUDE.md", "**/a.b/CLAUDE.md", "**/a^b/CLAUDE.md", "*/**", "/**", "**/*/", `${T}`, `${T}/`,
  // second batch, written after the first passed (a check that the emulation generalises)
  `${T}/[ab]/CLAUDE.md`, `${T}/[!b]*/CLAUDE.md`, `${T}/*[a]/CLAUDE.md`, "**/a*/CLAUDE.md", "**/*b/CLAUDE.md",
  "**/*.local.*", "**/.claude/*", "**/.claude/rules/*", "**/rules/**", "**/{.claude,a}/**", "**/@(a|.claude)/**",
  "**/!(a|b)/CLAUDE.md", "**/!(*.md)", "**/+(a|b)/CLAUDE.md", "**/a/!(CLAUDE.md)", "**/[a-b][b-c]/CLAUDE.md",
  "**/[[:upper:]]/CLAUDE.md", "**/[[:lower:][:digit:]]/CLAUDE.md", "**/[^[:alpha:]]/CLAUDE.md",
  "**/{a,b,c}/CLAUDE.md", "**/{a,{b,c}}/CLAUDE.md", "**/{x,a}*/CLAUDE.md", "/home/{dev,x}/**", "/home/dev/*",
  "/home/dev/**/CLAUDE.local.md", "/*/*/proj/**", "**/proj/*/CLAUDE.md", "**/proj/**/CLAUDE.md", "**/???/CLAUDE.md",
  "**/?b/CLAUDE.md", "**/a?/CLAUDE.md", "**/*/*/CLAUDE.md", "*/CLAUDE.md", "**/\\*b/CLAUDE.md", "**/a\ b/CLAUDE.md",
  "**/[a\]]/CLAUDE.md", "**/[\\]/CLAUDE.md", "**/a/**/b/**", "**/**", "**/**/**/CLAUDE.md", "!!**/a/CLAUDE.md",
  "!(**/a/CLAUDE.md)", "**/{a..b}{b..c}/CLAUDE.md", "**/{0..9}/CLAUDE.md", "**/CLAUDE*", "**/CLAUDE.?d",
];
const multi = [
  ["**/CLAUDE.md", "!**/b/CLAUDE.md"], ["**/a/**", "**/b/**"], ["!**/a/**", "!**/b/**"],
];
const paths = [
  `${T}/CLAUDE.md`, `${T}/a/CLAUDE.md`, `${T}/b/CLAUDE.md`, `${T}/c/CLAUDE.md`, `${T}/ab/CLAUDE.md`,
  `${T}/abc/CLAUDE.md`, `${T}/a/b/CLAUDE.md`, `${T}/b/c/CLAUDE.md`, `${T}/aa/CLAUDE.md`, `${T}/1/CLAUDE.md`,
  `${T}/2/CLAUDE.md`, `${T}/01/CLAUDE.md`, `${T}/.hidden/CLAUDE.md`, `${T}/.claude/CLAUDE.md`,
  `${T}/.claude/rules/x.md`, `${T}/.claude/rules/sub/y.md`, `${T}/CLAUDE.local.md`, `${T}/a/CLAUDE.local.md`,
  `${T}/claude.md`, `${T}/A/CLAUDE.md`, `${T}/a*b/CLAUDE.md`, `${T}/a[b]/CLAUDE.md`, `${T}/ab]/CLAUDE.md`,
  `${T}/a b/CLAUDE.md`, `${T}/(a)/CLAUDE.md`, `${T}/a|b/CLAUDE.md`, `${T}/a+b/CLAUDE.md`, `${T}/#/CLAUDE.md`,
  `${T}/$/CLAUDE.md`, `${T}/a.b/CLAUDE.md`, `${T}/a^b/CLAUDE.md`, `${T}/xac/f.md`, `${T}/xbd/f.md`,
  `${T}/notes.txt`, `${T}/node_modules/p/CLAUDE.md`, `${T}/.git/CLAUDE.md`, `${T}/aCLAUDE.md`,
  "/home/dev/CLAUDE.md", "/home/dev/.claude/CLAUDE.md", "/CLAUDE.md", `${T}`, `${T}/`, `${T}/a/`, `${T}/z/CLAUDE.md`,
];
const cases = [];
for (const p of single) for (const f of paths) cases.push({ patterns: [p], path: f, matches: ccMatches([p], f) });
for (const ps of multi) for (const f of paths) cases.push({ patterns: ps, path: f, matches: ccMatches(ps, f) });

let npm = null;
try { npm = require("picomatch"); } catch (e) { /* comparison skipped */ }
if (npm) {
  let same = 0;
  for (const c of cases) {
    let got;
    try { got = npm(c.patterns, { dot: true })(c.path); } catch (e) { got = false; }
    if (got === c.matches) same++;
  }
  process.stderr.write(`npm picomatch@${require("picomatch/package.json").version} agrees on ${same}/${cases.length}\n`);
}
const regexes = single.map((p) => { try { return { pattern: p, regex: cc.makeRe(p, { dot: true }).source }; } catch (e) { return { pattern: p, regex: null }; } });
process.stdout.write(JSON.stringify({
  source: "Claude Code 2.1.332's bundled picomatch-style matcher, {dot: true}",
  regexes, cases,
}).replace(/\},\{/g, "},\n{") + "\n");
