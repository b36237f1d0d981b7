#!/usr/bin/env node
/**
 * Writes the index at the top of docs/decisions.md: one line per entry with its number, title
 * and status. An entry's status is its own marker line (`*Superseded by N.*`,
 * `*Partly superseded by N: …*`, `*Extended by N.*`), else "active". Run it after appending or
 * marking an entry; tests/docs/decisions-index.test.ts fails while the index is stale.
 *   node scripts/decisions-index.mjs          rewrite the index
 *   node scripts/decisions-index.mjs --check  exit 1 if it is stale
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const DECISIONS = fileURLToPath(new URL('../docs/decisions.md', import.meta.url));
const START = '<!-- index: written by scripts/decisions-index.mjs -->';
const END = '<!-- end of index -->';
const STATUS = /^\s*\*((?:Partly superseded|Superseded|Extended) by \d+[^*]*?)\.?\*\s*$/m;

/** Every entry: its number, title (the bold text) and status. */
export function entriesOf(text) {
  const body = text.includes(END) ? text.slice(text.indexOf(END) + END.length) : text;
  return body.split(/\n(?=\d+\. \*\*)/).slice(1).map((chunk) => {
    const m = /^(\d+)\. \*\*([\s\S]+?)\*\*/.exec(chunk);
    const status = STATUS.exec(chunk);
    return { number: Number(m[1]), title: m[2].replace(/\s+/g, ' ').replace(/\.$/, ''), status: status ? status[1].replace(/\s+/g, ' ') : 'active' };
  });
}

export function withIndex(text) {
  const lines = entriesOf(text).map((e) => `- ${e.number}. ${e.title} — ${e.status}`);
  const index = `${START}\n## Index\n\n${lines.join('\n')}\n${END}`;
  if (text.includes(START)) return text.slice(0, text.indexOf(START)) + index + text.slice(text.indexOf(END) + END.length);
  const first = text.search(/\n\d+\. \*\*/);
  return `${text.slice(0, first)}\n${index}\n\n## Entries\n${text.slice(first)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = readFileSync(DECISIONS, 'utf8');
  const next = withIndex(text);
  if (process.argv.includes('--check')) {
    if (next !== text) {
      console.error('docs/decisions.md: the index is stale; run node scripts/decisions-index.mjs');
      process.exit(1);
    }
  } else writeFileSync(DECISIONS, next);
}
