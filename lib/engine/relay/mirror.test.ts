/** The relay's artifact check at the end of a turn: what differs from the peer's is replaced whole. */
import { describe, expect, it } from 'vitest';
import { ArtifactMirror } from './mirror';
import { applyPeerCard } from './card';
import type { AgentTurn, ServedAgent } from '../agent';
import type { ArtifactChunk } from '../../protocol/types';

const text = (artifactId: string, ...texts: string[]) => ({ artifactId, parts: texts.map((t) => ({ kind: 'text' as const, text: t })) });

function recordingTurn(into: ArtifactChunk[]): AgentTurn {
  return { emit: { artifact: async (chunk: ArtifactChunk) => void into.push(chunk), progress: async () => undefined } } as unknown as AgentTurn;
}

describe('ArtifactMirror', () => {
  it('passes chunks on unchanged and reports nothing when the peer has the same artifacts', async () => {
    const sent: ArtifactChunk[] = [];
    const mirror = new ArtifactMirror([]);
    await mirror.pass(recordingTurn(sent), { artifact: text('a', 'one ') });
    await mirror.pass(recordingTurn(sent), { artifact: text('a', 'two'), append: true });
    expect(sent.map((c) => c.append ?? false)).toEqual([false, true]);
    expect(mirror.differences([text('a', 'one ', 'two')])).toEqual([]);
  });

  it('replaces, whole, an artifact that misses chunks and one never mirrored', async () => {
    const mirror = new ArtifactMirror([text('a', 'one ')]);
    const peer = [text('a', 'one ', 'two'), text('b', 'new')];
    expect(mirror.differences(peer)).toEqual([
      { artifact: peer[0], append: false, lastChunk: true },
      { artifact: peer[1], append: false, lastChunk: true },
    ]);
  });
});

describe('applyPeerCard', () => {
  const agent = (): ServedAgent =>
    ({ slug: 'r', name: 'r', description: 'r', skills: [], runner: { runTurn: async () => ({ state: 'completed' }) }, cardDefaults: { name: true, description: false, skills: true } }) as ServedAgent;

  it('fills only the facts the config left open, bounded', () => {
    const served = agent();
    applyPeerCard(served, { name: 'Peer', description: 'theirs', skills: [{ id: 's', name: 'Skill', tags: ['x'] }, 'junk', ...Array.from({ length: 40 }, (_, i) => ({ id: `k${i}`, name: `K${i}` }))] });
    expect(served.name).toBe('Peer');
    expect(served.description).toBe('r');
    expect(served.skills[0]).toEqual({ id: 's', name: 'Skill', description: 'Skill', tags: ['x'] });
    expect(served.skills.length).toBeLessThanOrEqual(32);
  });
});
