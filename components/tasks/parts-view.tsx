import { Pre } from '@/components/ui/pre';
import type { Part } from '@/lib/protocol/types';

type Block = { kind: 'text'; text: string } | { kind: 'data'; data: unknown } | { kind: 'file'; label: string };

/** Adjacent text parts (streamed chunks) are shown as one text: the artifact as a whole. */
function blocks(parts: readonly Part[]): Block[] {
  const out: Block[] = [];
  for (const part of parts) {
    const last = out[out.length - 1];
    if (part.kind === 'text') {
      if (last?.kind === 'text') last.text += part.text;
      else out.push({ kind: 'text', text: part.text });
    } else if (part.kind === 'data') {
      out.push({ kind: 'data', data: part.data });
    } else {
      const f = part.file ?? {};
      out.push({ kind: 'file', label: [f.name ?? 'file', f.mimeType, f.uri ?? (f.bytes ? `${f.bytes.length} base64 chars` : null)].filter(Boolean).join(' · ') });
    }
  }
  return out;
}

/**
 * Agent output, always as text nodes. React escapes them, so markup such as <script> shows as
 * the characters it is made of; file URIs are shown, never linked (a javascript: URI stays text).
 */
export function PartsView({ parts, testId }: { parts: readonly Part[]; testId?: string }) {
  return (
    <div className="space-y-2" data-testid={testId}>
      {blocks(parts).map((b, i) =>
        b.kind === 'text' ? (
          <Pre key={i} data-testid={testId ? `${testId}-text` : undefined}>
            {b.text}
          </Pre>
        ) : b.kind === 'data' ? (
          <Pre key={i}>{JSON.stringify(b.data, null, 2)}</Pre>
        ) : (
          <p key={i} className="text-sm break-all text-zinc-700 dark:text-zinc-300">
            {b.label}
          </p>
        ),
      )}
    </div>
  );
}
