import { describe, expect, it } from 'vitest';
import { hermesPeerEntries, HermesConfigError } from './hermes-peers';

const entries = (agents: string, env: Record<string, string> = {}) => hermesPeerEntries(`a2a_agents:\n${agents}`, 'config.yaml', env);

describe('Hermes a2a_agents as peer entries', () => {
  it('maps url, bearer auth (also from ${VAR}), timeout and headers; lists what Switchboard does not use', () => {
    const [entry] = entries('  r:\n    url: http://h:9999\n    auth: {type: bearer, token: "${TOK}"}\n    timeout: 330\n    headers: {X-A: 1, Accept: x}\n    capabilities: ["*"]\n    retries: 3\n', { TOK: 'secret' });
    expect(entry.peer).toEqual({ name: 'r', url: 'http://h:9999', auth: { type: 'bearer', token: 'secret' }, headers: { 'X-A': '1' }, timeoutSeconds: 330, notes: 'imported from Hermes config.yaml (a2a_agents.r)' });
    expect(entry.ignored).toEqual([
      'headers.Accept (the client sets it itself, as Hermes does)',
      expect.stringMatching(/^capabilities /),
      'retries (not a Switchboard peer setting)',
    ]);
  });

  it('timeout 0 leaves the default and says so; a bad timeout or a missing url refuses the entry', () => {
    const [zero, bad, nourl] = entries('  a:\n    url: http://a\n    timeout: 0\n  b:\n    url: http://b\n    timeout: "soon"\n  c:\n    auth: {type: bearer, token: t}\n');
    expect(zero.peer?.timeoutSeconds).toBeNull();
    expect(zero.ignored).toEqual([expect.stringMatching(/^timeout 0 /)]);
    expect(bad.refusal).toBe('timeout: expected seconds from 0 to 86400, got "soon"');
    expect(nourl.refusal).toBe("url: expected the peer's base URL");
  });

  it('a file that is not YAML or has no a2a_agents mapping is refused as a whole', () => {
    expect(() => hermesPeerEntries('a: [', 'c.yaml')).toThrow(HermesConfigError);
    expect(() => hermesPeerEntries('a2a_agents: [1]', 'c.yaml')).toThrow(/a2a_agents must be a mapping/);
  });
});
