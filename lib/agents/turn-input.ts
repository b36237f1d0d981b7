/**
 * Reads a built-in agent's knobs from the message: metadata wins, else the text
 * (e.g. "work 3s chunks 20 size 100", "steps 5 budget 3").
 */
import type { AgentTurn } from '../engine/agent';
import { textOf } from '../protocol/types';

export function turnText(turn: AgentTurn): string {
  return textOf(turn.message.parts);
}

function metaNumber(turn: AgentTurn, key: string): number | undefined {
  const value = turn.message.metadata?.[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };

export function durationMs(turn: AgentTurn, fallbackMs: number): number {
  const seconds = metaNumber(turn, 'durationSeconds');
  if (seconds !== undefined) return seconds * 1000;
  const match = /(\d+(?:\.\d+)?)\s*(ms|s|m)\b/i.exec(turnText(turn));
  return match ? Number(match[1]) * UNIT_MS[match[2].toLowerCase()] : fallbackMs;
}

export function namedNumber(turn: AgentTurn, key: string, fallback: number): number {
  const fromMeta = metaNumber(turn, key);
  if (fromMeta !== undefined) return fromMeta;
  const match = new RegExp(`\\b${key}\\s*[:=]?\\s*(\\d+)`, 'i').exec(turnText(turn));
  return match ? Number(match[1]) : fallback;
}
