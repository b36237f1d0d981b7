'use client';
/** The dispatch form's draft, pre-filled from the URL ("dispatch again" links put it there). */
import { useSearchParams } from 'next/navigation';
import { useState } from 'react';
import type { DispatchInput } from '@/lib/dashboard/peer-wire';
import { DISPATCH_MODES, type DispatchMode } from '@/lib/protocol/dispatch-modes';

export interface DispatchDraft {
  target: 'peer' | 'url';
  peer: string;
  url: string;
  text: string;
  /** A data part as JSON text (an answer that is not text, e.g. a tool approval); empty: none. */
  data: string;
  mode: DispatchMode;
  timeoutSeconds: string;
  contextId: string;
  taskId: string;
}

export function useDispatchDraft() {
  const params = useSearchParams();
  return useState<DispatchDraft>(() => {
    const mode = params.get('mode');
    return {
      target: params.get('url') && !params.get('peer') ? 'url' : 'peer',
      peer: params.get('peer') ?? '',
      url: params.get('url') ?? '',
      text: params.get('text') ?? '',
      data: '',
      mode: (DISPATCH_MODES as readonly string[]).includes(mode ?? '') ? (mode as DispatchMode) : 'blocking',
      timeoutSeconds: params.get('timeout') ?? '',
      contextId: params.get('contextId') ?? '',
      taskId: params.get('taskId') ?? '',
    };
  });
}

/**
 * The request body. Only "is it a number at all" is checked here; ranges and everything else
 * are the server's to validate (one source of truth), and its 400 names the field.
 */
export function toDispatchInput(d: DispatchDraft): { input: DispatchInput } | { field: string; message: string } {
  const timeout = d.timeoutSeconds.trim();
  const timeoutSeconds = timeout ? Number(timeout) : undefined;
  if (timeoutSeconds !== undefined && !Number.isFinite(timeoutSeconds)) {
    return { field: 'timeoutSeconds', message: 'timeoutSeconds: enter a number of seconds, e.g. 600 or 0.5' };
  }
  const data = parseData(d.data);
  if (data === 'invalid') return { field: 'data', message: 'data: enter a JSON object, e.g. {"callId": "c1", "outcome": "proceed_once"}' };
  return {
    input: {
      ...(d.target === 'peer' ? { peer: d.peer } : { url: d.url.trim() }),
      ...(d.text || !data ? { text: d.text } : {}),
      ...(data ? { data } : {}),
      mode: d.mode,
      ...(timeoutSeconds !== undefined ? { timeoutSeconds } : {}),
      ...(d.contextId.trim() ? { contextId: d.contextId.trim() } : {}),
      ...(d.taskId.trim() ? { taskId: d.taskId.trim() } : {}),
    },
  };
}

/** The data field: empty is none; anything else must be a JSON object (the server bounds its size). */
function parseData(raw: string): Record<string, unknown> | null | 'invalid' {
  if (!raw.trim()) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : 'invalid';
  } catch {
    return 'invalid';
  }
}
