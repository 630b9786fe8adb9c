// Test data for memlint/model/frontmatter.py: what Claude Code makes of a memory file's frontmatter.
//
//   (cd /tmp/x && npm install bun@1.4.5)
//   /tmp/x/node_modules/.bin/bun tests/fidelity/gen_frontmatter.js > tests/fidelity/frontmatter_table.json
//
// Claude Code 2.1.332 parses frontmatter with Bun's own YAML parser (`Bun.YAML.parse`; the CLI is a Bun
// 1.4.6 single-file executable; 1.4.6 is not on npm, so the newest published Bun, 1.4.5, runs this). The
// steps around the parser are the bundle's (function `qd` and its helpers, rewritten here): the block
// is `^---\s*\n([\s\S]*?)---\s*\n?`; the YAML is parsed; when that throws, it is parsed again after
// double-quoting `key: value` lines whose value holds a YAML special character and turning leading
// tabs into two spaces each; when that throws too the frontmatter is empty. A result that is not a
// mapping counts as empty.
"use strict";
if (typeof Bun === "undefined") throw new Error("run this with bun");
const BLOCK = /^---\s*\n([\s\S]*?)---\s*\n?/;
const SPECIAL = /[{}[\]*&#!|>%@`]|: /;

function quoteValues(text) {
  return text.split("\n").map((line) => {
    const m = line.match(/^([a-zA-Z_-]+):\s+(\S.*)$/);
    if (!m) return line;
    const [, key, value] = m;
    if ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'"))) return line;
    if (value.startsWith("[") && value.endsWith("]")) {
      try { if (Array.isArray(Bun.YAML.parse(value))) return line; } catch (e) { /* quote it */ }
    }
    if (SPECIAL.test(value)) return `${key}: "${value.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
    return line;
  }).join("\n");
}

function encode(value, seen = new Set()) { // JSON cannot hold every YAML value: tag the odd ones
  if (typeof value === "number" && !Number.isFinite(value)) return { $number: String(value) };
  if (typeof value === "bigint") return { $number: String(value) };
  if (value instanceof Date) return { $date: value.toISOString() };
  if (value && typeof value === "object") {
    if (seen.has(value)) return { $cycle: true };
    const inner = new Set(seen).add(value);
    if (Array.isArray(value)) return value.map((v) => encode(v, inner));
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, encode(v, inner)]));
  }
  return value;
}

function claudeCode(text) {
  const m = text.indexOf("---", 3) < 0 ? null : text.match(BLOCK);
  if (!m) return { block: false };
  const raw = m[1] || "";
  let value, retried = false, error = null;
  try { value = Bun.YAML.parse(raw); } catch (e) {
    try { value = Bun.YAML.parse(quoteValues(raw).replace(/^\t+/gm, (t) => "  ".repeat(t.length))); retried = true; }
    catch (e2) { error = String(e2.message || e2); }
  }
  const mapping = value !== null && typeof value === "object" && !Array.isArray(value);
  return { block: true, body_offset: m[0].length, data: error === null && mapping ? encode(value) : {}, retried, failed: error !== null };
}

const fm = (yaml, body = "Body\n") => `---\n${yaml}\n---\n${body}`;
const texts = [
  fm("description: off"), fm("description: on"), fm("description: yes"), fm("description: no"),
  fm("description: y"), fm("description: n"), fm("flag: true"), fm("flag: True"), fm("flag: TRUE"),
  fm("value: null"), fm("value: ~"), fm("value:"), fm("value: Null"), fm("n: 010"), fm("n: 0o10"), fm("n: 0x1F"),
  fm("n: 1_000"), fm("n: 1e3"), fm("n: .5"), fm("n: +12"), fm("n: .inf"), fm("n: -.Inf"), fm("n: .nan"),
  fm("n: 12:30:00"), fm("d: 2024-01-02"), fm("d: 2024-01-02T10:00:00Z"), fm("paths: *.md"), fm("paths: src/*.md"),
  fm("paths: **/*.ts"), fm("paths: \"*.md\""), fm("paths: ['*.md', '*.ts']"), fm("paths: [src/**, lib/**]"),
  fm("paths:\n  - src/**\n  - '*.md'"), fm("paths: src/{a,b}/*.ts"), fm("paths: {a: 1}"), fm("key: value # comment"),
  fm("key: value#not-comment"), fm("key: 'single ''quoted'''"), fm('key: "esc \\t \\u00e9 \\x41"'),
  fm("key:\tvalue"), fm("\tkey: value"), fm("key: value\n\tother: x"), fm("a: 1\na: 2"), fm("a: &x 1\nb: *x"),
  fm("base: &b {x: 1}\nmerged:\n  <<: *b\n  y: 2"), fm("a: [1, 2, [3, 4]]"), fm("a: {b: {c: d}}"),
  fm("a: |\n  line1\n  line2"), fm("a: >\n  folded\n  text"), fm("a: |-\n  keep\n"), fm("- a\n- b"), fm("just a string"),
  fm("# only a comment"), fm(""), fm("a: b: c"), fm("description: Use: colons here"), fm("name: @scope/pkg"),
  fm("name: `tick`"), fm("name: %percent"), fm("name: !tag value"), fm("name: !!str 123"), fm("name: !!int '7'"),
  fm("a: 'unterminated"), fm("a: [unclosed"), fm("a:\n b: 1\n  c: 2"), fm("? complex\n: value"),
  fm("a: 1\n---\nb: 2"), fm("a: x---y"), "\ufeff---\na: 1\n---\nBody\n", "---\r\na: 1\r\n---\r\nBody\r\n",
  "---\na: 1\r\n---\nBody\n", "---   \na: 1\n---   \nBody", "---\na: 1\n---", "---\n---\nBody", "--- \n\n\na: 1\n---\n",
  "Body\n---\na: 1\n---\n", "---\na: 1\n", fm("a: \"multi\n  line\""), fm("a: plain\n  continued"),
  fm("big: 12345678901234567890"), fm("v: 1.0"), fm("v: 1.10"), fm("v: 0.1.2"), fm("k: 'x' # c"),
  fm("a: &a [*a]"), fm("a: &a\n  - *a"),
  fm("l0: &l0 [x, x, x, x, x, x, x, x, x]\nl1: &l1 [*l0, *l0, *l0, *l0, *l0, *l0, *l0, *l0, *l0]\nl2: &l2 [*l1, *l1, *l1, *l1, *l1, *l1, *l1, *l1, *l1]\nl3: [*l2, *l2, *l2, *l2, *l2, *l2, *l2, *l2, *l2]"),
  fm("globs: src/**\nalwaysApply: true"), fm("paths: ''"), fm("paths: []"), fm("paths: [\"**\"]"),
  fm("type: user\nname: x\ndescription: a: b"), fm("description: >-\n  hook text\n  more"),
];
const cases = texts.map((text) => ({ text, ...claudeCode(text) }));
process.stdout.write(JSON.stringify({ bun: Bun.version, cases }).replace(/\},\{"text"/g, '},\n{"text"') + "\n");
