import { describe, expect, it } from 'vitest';
import { accumulateArtifacts } from './artifacts';
import type { ArtifactChunk } from './types';

const text = (artifactId: string, t: string, append = true, extra: Partial<ArtifactChunk> = {}): ArtifactChunk => ({ artifact: { artifactId, parts: [{ kind: 'text', text: t }] }, append, ...extra });

describe('accumulateArtifacts', () => {
  it('joins consecutive appended text into one part, so clients that join parts add nothing', () => {
    const chunks = Array.from({ length: 40 }, (_, i) => text('r', `${i},`, i > 0));
    const [artifact] = accumulateArtifacts(chunks);
    expect(artifact.parts).toEqual([{ kind: 'text', text: Array.from({ length: 40 }, (_, i) => `${i},`).join('') }]);
  });

  it('keeps data parts and text with metadata apart', () => {
    const chunks: ArtifactChunk[] = [
      text('r', 'a', false),
      { artifact: { artifactId: 'r', parts: [{ kind: 'data', data: { n: 1 } }] }, append: true },
      text('r', 'b'),
      { artifact: { artifactId: 'r', parts: [{ kind: 'text', text: 'c', metadata: { lang: 'en' } }] }, append: true },
    ];
    expect(accumulateArtifacts(chunks)[0].parts).toHaveLength(4);
  });

  it('replaceAll drops every artifact accumulated before the chunk', () => {
    const result = accumulateArtifacts([text('streamed', 'ab', false), text('other', 'x', false), text('rendered', 'ab', false, { replaceAll: true })]);
    expect(result.map((a) => a.artifactId)).toEqual(['rendered']);
  });

  it('does not change the parts of chunks it read', () => {
    const first = text('r', 'a', false);
    accumulateArtifacts([first, text('r', 'b')]);
    expect(first.artifact.parts).toEqual([{ kind: 'text', text: 'a' }]);
  });
});
