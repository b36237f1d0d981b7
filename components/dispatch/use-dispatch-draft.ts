'use client';
/** The dispatch form's draft, pre-filled from the URL ("dispatch again" links put it there). */
import { useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { DISPATCH_MODES, type DispatchInput, type DispatchMode } from '@/lib/dashboard/peer-wire';

export interface DispatchDraft {
  target: 'peer' | 'url';
  peer: string;
  url: string;
  text: string;
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
  return {
    input: {
      ...(d.target === 'peer' ? { peer: d.peer } : { url: d.url.trim() }),
      text: d.text,
      mode: d.mode,
      ...(timeoutSeconds !== undefined ? { timeoutSeconds } : {}),
      ...(d.contextId.trim() ? { contextId: d.contextId.trim() } : {}),
      ...(d.taskId.trim() ? { taskId: d.taskId.trim() } : {}),
    },
  };
}
