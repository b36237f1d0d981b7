/**
 * Turns the event log into timeline entries: one per event, except runs of artifact chunks,
 * which collapse into one entry (a long stream would otherwise bury the state changes). Each
 * entry keeps the seq range it covers, so the timeline as a whole still accounts for every seq.
 */
import type { TimelineEvent } from '@/lib/dashboard/wire';

export type TimelineEntry =
  | { kind: 'event'; key: string; event: TimelineEvent; at: string; sinceMs: number | null }
  | {
    kind: 'chunks';
    key: string;
    fromSeq: number;
    toSeq: number;
    count: number;
    artifactIds: string[];
    chars: number;
    at: string;
    lastAt: string;
    sinceMs: number | null;
    lastChunk: boolean;
  };

interface ArtifactInfo {
  artifactId: string;
  textLength: number;
  lastChunk: boolean;
}

function artifactInfo(payload: Extract<TimelineEvent, { type: 'artifact' }>['payload']): ArtifactInfo {
  if ('compacted' in payload) return { artifactId: payload.artifactId, textLength: payload.textLength, lastChunk: payload.lastChunk };
  const textLength = (payload.artifact.parts ?? []).reduce((n, part) => n + (part.kind === 'text' && typeof part.text === 'string' ? part.text.length : 0), 0);
  return { artifactId: payload.artifact.artifactId ?? '', textLength, lastChunk: Boolean(payload.lastChunk) };
}

export function timelineEntries(events: TimelineEvent[]): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  let previousAt: string | null = null;
  const since = (at: string) => (previousAt ? Date.parse(at) - Date.parse(previousAt) : null);
  for (const event of events) {
    const last = entries[entries.length - 1];
    if (event.type === 'artifact') {
      const info = artifactInfo(event.payload);
      if (last?.kind === 'chunks' && last.toSeq === event.seq - 1) {
        last.toSeq = event.seq;
        last.count += 1;
        last.chars += info.textLength;
        last.lastAt = event.at;
        last.lastChunk ||= info.lastChunk;
        if (!last.artifactIds.includes(info.artifactId)) last.artifactIds.push(info.artifactId);
      } else {
        entries.push({
          kind: 'chunks',
          key: `chunks-${event.seq}`,
          fromSeq: event.seq,
          toSeq: event.seq,
          count: 1,
          artifactIds: [info.artifactId],
          chars: info.textLength,
          at: event.at,
          lastAt: event.at,
          sinceMs: since(event.at),
          lastChunk: info.lastChunk,
        });
      }
    } else {
      entries.push({ kind: 'event', key: `event-${event.seq}`, event, at: event.at, sinceMs: since(event.at) });
    }
    previousAt = event.at;
  }
  return entries;
}
