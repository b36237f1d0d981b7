/** The relay's artifact mirror: chunks passed on unchanged, held for the end, compared whole after a resume. */
import { describe, expect, it } from 'vitest';
import { ArtifactMirror } from './mirror';
import { applyPeerCard } from './card';
import type { AgentTurn, ServedAgent } from '../../agent-runner';
import type { ArtifactChunk } from '../../protocol/types';

const text = (artifactId: string, ...texts: string[]) => ({ artifactId, parts: texts.map((t) => ({ kind: 'text' as const, text: t })) });

/** A turn that records its writes: one entry per write, with the chunks it held. */
function recordingTurn(writes: ArtifactChunk[][]): AgentTurn {
  return {
    emit: { artifact: async (chunk: ArtifactChunk) => void writes.push([chunk]), artifacts: async (chunks: ArtifactChunk[]) => void writes.push([...chunks]), progress: async () => undefined },
  } as unknown as AgentTurn;
}

describe('ArtifactMirror', () => {
  it('passes chunks that came together on unchanged, in one write, and reports nothing when the peer has the same artifacts', async () => {
    const writes: ArtifactChunk[][] = [];
    const mirror = new ArtifactMirror([]);
    await mirror.pass(recordingTurn(writes), [{ artifact: text('a', 'one ') }, { artifact: text('a', 'two'), append: true }]);
    await mirror.pass(recordingTurn(writes), []);
    expect(writes.map((w) => w.map((c) => c.append ?? false))).toEqual([[false, true]]);
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

  it('holds the chunks that came with the end: counted as mirrored, handed over once (with the outcome, or written before it)', async () => {
    const writes: ArtifactChunk[][] = [];
    const mirror = new ArtifactMirror([]);
    mirror.hold({ artifact: text('a', 'whole') });
    expect(mirror.differences([text('a', 'whole')])).toEqual([]);
    expect(mirror.takeHeld()).toEqual([{ artifact: text('a', 'whole') }]);
    expect(mirror.takeHeld()).toEqual([]);
    mirror.hold({ artifact: text('a', ' more'), append: true });
    await mirror.release(recordingTurn(writes));
    await mirror.release(recordingTurn(writes));
    expect(writes).toEqual([[{ artifact: text('a', ' more'), append: true }]]);
  });
});

describe('ArtifactMirror of a fresh turn (whole)', () => {
  it('passes and holds chunks unchanged without keeping a copy of its own (nothing to compare at the end)', async () => {
    const writes: ArtifactChunk[][] = [];
    const mirror = new ArtifactMirror([], true);
    await mirror.pass(recordingTurn(writes), [{ artifact: text('a', 'one ') }, { artifact: text('a', 'two'), append: true }]);
    mirror.hold({ artifact: text('a', ' three'), append: true });
    expect(writes).toEqual([[{ artifact: text('a', 'one ') }, { artifact: text('a', 'two'), append: true }]]);
    expect(mirror.takeHeld()).toEqual([{ artifact: text('a', ' three'), append: true }]);
    // Nothing was accumulated: every artifact would count as different (a whole mirror is never compared).
    expect(mirror.differences([text('a', 'one ', 'two', ' three')])).toHaveLength(1);
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
