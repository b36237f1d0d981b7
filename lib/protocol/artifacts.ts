import type { Artifact, ArtifactChunk, Part } from './types';

const plainText = (part: Part | undefined): part is Extract<Part, { kind: 'text' }> =>
  part?.kind === 'text' && typeof part.text === 'string' && part.metadata === undefined;

/**
 * Appends parts, joining consecutive plain text into one part: a peer streaming 40
 * chunks stores one text, not 40 parts a client would join with separators. Parts with metadata
 * and non-text parts stay apart. New part objects only: chunks may share theirs with the log.
 */
function appendParts(parts: Part[], incoming: Part[]): void {
  for (const part of incoming) {
    const last = parts[parts.length - 1];
    if (plainText(last) && plainText(part)) parts[parts.length - 1] = { kind: 'text', text: last.text + part.text };
    else parts.push(part);
  }
}

/**
 * Accumulates artifact chunks by artifactId, in order:
 * append:true concatenates parts onto the artifact with the same id (or starts it),
 * otherwise the chunk replaces any artifact with that id; `replaceAll` first drops every artifact
 * accumulated before it (a peer's final task replacing what it streamed). Used on the server for
 * stored tasks and on the client when following a peer, so both sides agree.
 */
export function accumulateArtifacts(chunks: Iterable<ArtifactChunk>, into: Artifact[] = []): Artifact[] {
  const byId = new Map<string, Artifact>(into.map((a) => [a.artifactId, a]));
  let order = into.map((a) => a.artifactId);
  for (const chunk of chunks) {
    const incoming = chunk.artifact;
    if (chunk.replaceAll) {
      byId.clear();
      order = [];
    }
    const existing = byId.get(incoming.artifactId);
    if (chunk.append && existing) {
      appendParts(existing.parts, incoming.parts);
      if (incoming.name !== undefined) existing.name = incoming.name;
      if (incoming.description !== undefined) existing.description = incoming.description;
      if (incoming.metadata) existing.metadata = { ...existing.metadata, ...incoming.metadata };
      continue;
    }
    if (!existing) order.push(incoming.artifactId);
    byId.set(incoming.artifactId, { ...incoming, parts: [...incoming.parts] });
  }
  return order.map((id) => byId.get(id)!);
}

/** Parts as they are stored: consecutive plain text joined, so a peer's 40 parts equal our one. */
export function joinedParts(parts: Part[]): Part[] {
  const out: Part[] = [];
  appendParts(out, parts);
  return out;
}

/** Artifacts' content in order, without their ids: a re-render under new ids is the same result. */
export function artifactContent(artifacts: Artifact[]): string {
  return JSON.stringify(artifacts.map((a) => joinedParts(a.parts)));
}
