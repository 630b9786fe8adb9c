// Test data for memlint/model/sanitise.py (C08), from node's own Unicode tables:
//   node tests/fidelity/gen_sanitise.js > tests/fidelity/sanitise_ranges.json
// default_ignorable: the ranges of /\p{Default_Ignorable_Code_Point}/u;
// removed: the ranges Claude Code 2.1.332's MEMORY.md sanitiser removes (its regex, with the
// ZWNJ/ZWJ/VS15/VS16 exceptions); unicode: node's Unicode version (Cn depends on it).
"use strict";
const di = /\p{Default_Ignorable_Code_Point}/u;
const removed = /(?![\u200C\u200D\uFE0E\uFE0F])[\0-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Default_Ignorable_Code_Point}]/u;
function ranges(re) {
  const out = [];
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    const ch = cp >= 0xd800 && cp <= 0xdfff ? String.fromCharCode(cp) : String.fromCodePoint(cp);
    if (!re.test(ch)) continue;
    const last = out[out.length - 1];
    if (last && last[1] === cp - 1) last[1] = cp; else out.push([cp, cp]);
  }
  return out;
}
process.stdout.write(JSON.stringify({
  node: process.version, unicode: process.versions.unicode,
  default_ignorable: ranges(di), removed: ranges(removed),
}) + "\n");
