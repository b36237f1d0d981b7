import type { Artifact, ArtifactChunk } from './types';

/**
 * Accumulates artifact chunks by artifactId (design §1 rule 6), in order:
 * append:true concatenates parts onto the artifact with the same id (or starts it),
 * otherwise the chunk replaces any artifact with that id. Used on the server for stored
 * tasks and on the client when following a peer, so both sides agree.
 */
export function accumulateArtifacts(chunks: Iterable<ArtifactChunk>, into: Artifact[] = []): Artifact[] {
  const byId = new Map<string, Artifact>(into.map((a) => [a.artifactId, a]));
  const order = into.map((a) => a.artifactId);
  for (const chunk of chunks) {
    const incoming = chunk.artifact;
    const existing = byId.get(incoming.artifactId);
    if (chunk.append && existing) {
      existing.parts.push(...incoming.parts);
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
