/** Agent extensions and input modes in the config file: defaults, and the entries that are refused by key. */
import { afterAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadFileConfig } from './file-config';
import { GENERATION_EXTENSION_URI, TIMING_EXTENSION_URI } from '../protocol/extensions';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-config-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function load(extensions: unknown, extra: Record<string, unknown> = {}) {
  const file = path.join(dir, `${crypto.randomUUID()}.json`);
  fs.writeFileSync(file, JSON.stringify({ agents: [{ slug: 'x', name: 'X', extensions, ...extra, launcher: { type: 'process', command: ['true'] } }] }));
  return loadFileConfig(file);
}

/** The agent was left out, and the first issue names its key (`key`: exact, or a pattern) and says `message`. */
function expectRefused(config: ReturnType<typeof load>, key: string | RegExp, message: string) {
  expect(config.agents).toEqual([]);
  if (typeof key === 'string') expect(config.issues[0].key).toBe(key);
  else expect(config.issues[0].key).toMatch(key);
  expect(config.issues[0].message).toContain(message);
}

describe('agent extensions', () => {
  it('are optional, and required defaults to false', () => {
    const config = load([{ uri: 'urn:example:a' }, { uri: 'urn:example:b', required: true }]);
    expect(config.issues).toEqual([]);
    expect(config.agents[0].extensions).toEqual([
      { uri: 'urn:example:a', required: false },
      { uri: 'urn:example:b', required: true },
    ]);
  });

  it("refuses a repeated uri, Switchboard's own extensions, an unknown key, naming the key", () => {
    for (const [extensions, message] of [
      [[{ uri: 'urn:example:a' }, { uri: 'urn:example:a' }], 'each extension uri at most once'],
      [[{ uri: TIMING_EXTENSION_URI }], "are Switchboard's own"],
      [[{ uri: GENERATION_EXTENSION_URI }], "are Switchboard's own"],
      [[{ uri: 'urn:example:a', mandatory: true }], 'mandatory'],
    ] as const) {
      expectRefused(load(extensions), /^extensions/, message);
    }
  });
});

describe('agent input modes', () => {
  it('are optional, and normalised to lowercase', () => {
    expect(load([]).agents[0].inputModes).toBeUndefined();
    expect(load([], { inputModes: [' Text/Plain', 'image/*', '*/*'] }).agents[0].inputModes).toEqual(['text/plain', 'image/*', '*/*']);
  });

  it('refuses what is not a media type, and an empty list, naming the key', () => {
    for (const [inputModes, message] of [
      [['text'], 'expected a media type'],
      [['text/plain; charset=utf-8'], 'expected a media type'],
      [['*/plain'], 'expected a media type'],
      [[], 'at least one'],
    ] as const) {
      expectRefused(load([], { inputModes }), /^inputModes/, message);
    }
  });
});

describe('agent extended skills', () => {
  it('are optional; a skill id that is already public, or an empty list, is refused naming the key', () => {
    expect(load([]).agents[0].extendedSkills).toBeUndefined();
    const ok = load([], { skills: [{ id: 'a', name: 'A' }], extendedSkills: [{ id: 'b', name: 'B' }] });
    expect(ok.agents[0].extendedSkills).toEqual([{ id: 'b', name: 'B', description: '', tags: [] }]);
    for (const [extra, key, message] of [
      [{ skills: [{ id: 'a', name: 'A' }], extendedSkills: [{ id: 'a', name: 'A again' }] }, 'extendedSkills.0.id', 'already a public skill'],
      [{ extendedSkills: [] }, 'extendedSkills', 'at least one'],
    ] as const) {
      expectRefused(load([], extra), key, message);
    }
  });
});
