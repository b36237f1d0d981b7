/**
 * Reads a built-in agent's knobs from the message: metadata wins, else the text
 * (e.g. "work 3s chunks 20 size 100", "steps 5 budget 3").
 *
 * The text is read in one linear pass over a bounded prefix (KNOB_TEXT_PREFIX characters), never
 * with a backtracking regex over the whole body: 60,000 digits once froze the event loop for
 * seconds.
 */
import type { AgentTurn } from '../agent-runner';
import { textOf } from '../protocol/types';

/** Knobs are read only from the start of the text. */
export const KNOB_TEXT_PREFIX = 1024;

export function turnText(turn: AgentTurn): string {
  return textOf(turn.message.parts);
}

function metaNumber(turn: AgentTurn, key: string): number | undefined {
  const value = turn.message.metadata?.[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

type Token = { kind: 'word' | 'number' | 'sep'; text: string };

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isLetter = (c: number) => (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;

/** Words, numbers (with an optional fraction) and `:` / `=`, from the first KNOB_TEXT_PREFIX characters. */
export function knobTokens(text: string): Token[] {
  const s = text.slice(0, KNOB_TEXT_PREFIX);
  const tokens: Token[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    const start = i;
    if (isLetter(c)) {
      while (i < s.length && isLetter(s.charCodeAt(i))) i++;
      tokens.push({ kind: 'word', text: s.slice(start, i).toLowerCase() });
    } else if (isDigit(c)) {
      while (i < s.length && isDigit(s.charCodeAt(i))) i++;
      if (s[i] === '.' && isDigit(s.charCodeAt(i + 1))) for (i++; i < s.length && isDigit(s.charCodeAt(i)); i++);
      tokens.push({ kind: 'number', text: s.slice(start, i) });
    } else {
      if (c === 0x3a || c === 0x3d) tokens.push({ kind: 'sep', text: s[i] });
      i++;
    }
  }
  return tokens;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };

/** `5s`, `1.5 m`, `200ms`: the first number followed by a unit word. */
export function durationMs(turn: AgentTurn, fallbackMs: number): number {
  const seconds = metaNumber(turn, 'durationSeconds');
  if (seconds !== undefined) return seconds * 1000;
  const tokens = knobTokens(turnText(turn));
  for (let i = 0; i + 1 < tokens.length; i++) {
    const unit = tokens[i + 1];
    if (tokens[i].kind === 'number' && unit.kind === 'word' && Object.hasOwn(UNIT_MS, unit.text)) return Number(tokens[i].text) * UNIT_MS[unit.text];
  }
  return fallbackMs;
}

/** `chunks 20`, `chunks: 20`, `chunks=20`: the number (truncated to whole) after the first mention of the key. */
export function namedNumber(turn: AgentTurn, key: string, fallback: number): number {
  const fromMeta = metaNumber(turn, key);
  if (fromMeta !== undefined) return fromMeta;
  const tokens = knobTokens(turnText(turn));
  const name = key.toLowerCase();
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i].kind !== 'word' || tokens[i].text !== name) continue;
    const next = tokens[i + 1]?.kind === 'sep' ? tokens[i + 2] : tokens[i + 1];
    if (next?.kind === 'number') return Math.trunc(Number(next.text));
  }
  return fallback;
}
