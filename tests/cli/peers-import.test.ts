/**
 * `switchboard peers import --from hermes` — the real binary against a real
 * Switchboard, on a Hermes config file written from Hermes's documentation (`a2a_agents`: url,
 * auth {type: bearer, token}, timeout in seconds, headers, capabilities, tenant).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { runCli } from '../support/cli';

const OPERATOR = 'import-operator-token-0123456789';
const TOKEN = 'sk-researcher-secret-0123456789';
const NEW_TOKEN = 'sk-researcher-rotated-9876543210';

let app: AppServer;
let env: Record<string, string>;
let dir: string;

beforeAll(async () => {
  app = await startApp({ SWITCHBOARD_OPERATOR_TOKEN: OPERATOR });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-hermes-import-'));
  env = { SWITCHBOARD_URL: app.url, SWITCHBOARD_TOKEN: OPERATOR, HERMES_HOME: dir };
});
afterAll(async () => {
  await app?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A Hermes config as its docs show it: other sections around a2a_agents, which the import leaves alone. */
function hermesConfig(agents: string): string {
  return `model:\n  default: anthropic/claude-sonnet-4\nterminal:\n  backend: local\na2a_agents:\n${agents}`;
}

const researcher = (token: string, timeout: number) => `  researcher:
    url: "${app.url}/a2a/echo"
    auth: { type: bearer, token: "${token}" }
    timeout: ${timeout}
    headers: { X-Team: blue, Content-Type: text/plain }
    capabilities: [web_search, research]
`;
const coder = () => `  coder:\n    url: "${app.url}/a2a/slow"\n    tenant: coding\n`;

async function peer(name: string) {
  const res = await fetch(`${app.url}/api/peers/${name}`, { headers: { Authorization: `Bearer ${OPERATOR}` } });
  return res.status === 200 ? ((await res.json()) as { peer: Record<string, unknown> }).peer : null;
}

describe('switchboard peers import --from hermes', () => {
  it('dry-run changes nothing; import creates; a re-run changes nothing; a new token and timeout update; no secret is printed', async () => {
    // The default path: $HERMES_HOME/config.yaml (else ~/.hermes/config.yaml).
    fs.writeFileSync(path.join(dir, 'config.yaml'), hermesConfig(researcher(TOKEN, 900) + coder()));
    const outputs: string[] = [];
    const run = async (args: string[]) => {
      const result = await runCli(['peers', 'import', '--from', 'hermes', ...args], env);
      outputs.push(result.stdout, result.stderr);
      return result;
    };

    const dry = await run(['--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^would create researcher$/m);
    expect(dry.stdout).toMatch(/^would create coder$/m);
    expect(await peer('researcher')).toBeNull();

    const first = await run([]);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^created researcher$/m);
    // Fields Switchboard does not use are listed, not dropped silently.
    expect(first.stdout).toMatch(/^ {2}not used: capabilities /m);
    expect(first.stdout).toMatch(/^ {2}not used: headers\.Content-Type /m);
    expect(first.stdout).toMatch(/^ {2}not used: tenant /m);
    const stored = await peer('researcher');
    expect(stored).toMatchObject({ url: `${app.url}/a2a/echo`, timeoutSeconds: 900, auth: { type: 'bearer', configured: true }, headerNames: ['X-Team'] });
    expect(stored!.notes).toMatch(/imported from Hermes .*config\.yaml \(a2a_agents\.researcher\)/);
    expect(JSON.stringify(stored)).not.toContain(TOKEN);

    const again = await run([]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^unchanged researcher$/m);
    expect(again.stdout).toMatch(/^unchanged coder$/m);
    expect(again.stdout).toMatch(/^nothing changed/m);

    fs.writeFileSync(path.join(dir, 'config.yaml'), hermesConfig(researcher(NEW_TOKEN, 1200) + coder()));
    const planned = await run(['--dry-run', '--json']);
    const plan = JSON.parse(planned.stdout);
    expect(plan).toMatchObject({ dryRun: true, changed: 1 });
    expect(plan.peers).toEqual([
      expect.objectContaining({ key: 'researcher', action: 'updated', changes: ['auth.token', 'timeoutSeconds'] }),
      expect.objectContaining({ key: 'coder', action: 'unchanged', changes: [] }),
    ]);
    expect((await peer('researcher'))!.timeoutSeconds).toBe(900);
    const applied = await run([]);
    expect(applied.stdout).toMatch(/^updated researcher \(auth\.token, timeoutSeconds\)$/m);
    expect((await run([])).stdout).toMatch(/^nothing changed/m);

    for (const text of outputs) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(NEW_TOKEN);
    }
  });

  it('the imported token and headers are what the peer receives (sealed on the server, sent on use)', async () => {
    const seen: http.IncomingHttpHeaders[] = [];
    const peerServer = http.createServer((req, res) => {
      seen.push(req.headers);
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ name: 'Recorder', description: 'records', url: `http://127.0.0.1:${(peerServer.address() as AddressInfo).port}/`, version: '1', protocolVersion: '0.3.0', capabilities: {}, defaultInputModes: ['text'], defaultOutputModes: ['text'], skills: [] }));
    });
    await new Promise<void>((resolve) => peerServer.listen(0, '127.0.0.1', resolve));
    try {
      const file = path.join(dir, 'recorder.yaml');
      const url = `http://127.0.0.1:${(peerServer.address() as AddressInfo).port}`;
      fs.writeFileSync(file, hermesConfig(`  recorder:\n    url: "${url}"\n    auth: { type: bearer, token: "\${HERMES_RECORDER_TOKEN}" }\n    headers: { X-Team: blue }\n`));
      const imported = await runCli(['peers', 'import', '--from', 'hermes', file], { ...env, HERMES_RECORDER_TOKEN: TOKEN });
      expect(imported.code).toBe(0);
      expect(imported.stdout + imported.stderr).not.toContain(TOKEN);
      await runCli(['peers', 'test', 'recorder'], env);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen[0]).toMatchObject({ authorization: `Bearer ${TOKEN}`, 'x-team': 'blue' });
    } finally {
      peerServer.close();
    }
  });

  it('names each entry that cannot be imported with its key and reason, imports the rest, and exits 1', async () => {
    const file = path.join(dir, 'mixed.yaml');
    fs.writeFileSync(
      file,
      hermesConfig(`  writer:
    url: "${app.url}/a2a/echo-two"
  basic-auth:
    url: "${app.url}/a2a/echo"
    auth: { type: basic, token: "x" }
  not-http:
    url: "ftp://example.com/agent"
  self:
    url: "${app.url}/a2a/echo-three"
  env-token:
    url: "${app.url}/a2a/echo-four"
    auth: { type: bearer, token: "\${HERMES_IMPORT_TEST_UNSET}" }
`),
    );
    const run = await runCli(['peers', 'import', '--from', 'hermes', file, '--json'], env);
    expect(run.code).toBe(1);
    const doc = JSON.parse(run.stdout);
    const byKey = Object.fromEntries(doc.peers.map((p: { key: string }) => [p.key, p]));
    expect(byKey.writer).toMatchObject({ action: 'created' });
    expect(byKey['basic-auth']).toMatchObject({ action: 'refused', error: expect.stringMatching(/^auth\.type: "basic" is not supported/) });
    expect(byKey['not-http']).toMatchObject({ action: 'refused', error: expect.stringMatching(/^url: /) });
    expect(byKey.self).toMatchObject({ action: 'refused', error: expect.stringMatching(/is built in/) });
    expect(byKey['env-token']).toMatchObject({ action: 'refused', error: 'auth.token: environment variable HERMES_IMPORT_TEST_UNSET is not set' });
    expect(await peer('writer')).not.toBeNull();

    const human = await runCli(['peers', 'import', '--from', 'hermes', file], env);
    expect(human.stdout).toMatch(/^not imported basic-auth: auth\.type: "basic" is not supported/m);
  });

  it('a missing file or one without a2a_agents exits 2 naming the file; an unknown --from exits 2', async () => {
    const missing = await runCli(['peers', 'import', '--from', 'hermes', path.join(dir, 'nope.yaml')], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope\.yaml: cannot read it \(ENOENT\)/);
    const empty = path.join(dir, 'no-agents.yaml');
    fs.writeFileSync(empty, 'model:\n  default: x\n');
    const none = await runCli(['peers', 'import', '--from', 'hermes', empty, '--json'], env);
    expect(none.code).toBe(2);
    expect(JSON.parse(none.stdout).error.message).toMatch(/has no a2a_agents section/);
    expect((await runCli(['peers', 'import', '--from', 'openclaw', empty], env)).code).toBe(2);
  });
});
