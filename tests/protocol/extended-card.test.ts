/**
 * The authenticated extended card: an agent whose config names `extendedSkills`
 * declares it on its card (v1.0 `capabilities.extendedAgentCard`, v0.3
 * `supportsAuthenticatedExtendedCard`) and serves it over v1.0 JSON-RPC `GetExtendedAgentCard`,
 * HTTP+JSON `GET /extendedAgentCard`, gRPC and v0.3 `agent/getAuthenticatedExtendedCard`: the
 * public skills plus the extended ones, signed like every card. Once API keys exist only a
 * caller with one gets it (401 without); in open mode every caller does (decision 206). An agent
 * without extended skills refuses as each version says.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import canonicalize from 'canonicalize';
import { createLocalJWKSet, flattenedVerify, type JSONWebKeySet } from 'jose';
import { credentials, makeGenericClientConstructor, Metadata, type ServiceError } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startApp, type AppServer } from '../support/app-server';
import { rpc, waitFor } from '../support/a2a-clients';
import { A2A_GRPC_SERVICE } from '../../lib/client/grpc-wire';

type Card = Record<string, unknown> & { skills: { id: string }[]; signatures?: { protected: string; signature: string }[] };

let app: AppServer;
let grpcPort: number;
let key = '';

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-extended-'));
  const config = path.join(dir, 'switchboard.json');
  const worker = path.resolve('examples/rpc-worker/worker.mjs');
  fs.writeFileSync(
    config,
    JSON.stringify({
      agents: [
        {
          slug: 'vault',
          name: 'Vault',
          skills: [{ id: 'public-skill', name: 'Public' }],
          extendedSkills: [{ id: 'members-only', name: 'Members only', description: 'Seen by authenticated callers', tags: ['private'] }],
          launcher: { type: 'rpc', command: [process.execPath, worker] },
        },
      ],
    }),
  );
  grpcPort = await freePort();
  app = await startApp({ SWITCHBOARD_CONFIG: config, SWITCHBOARD_GRPC_PORT: String(grpcPort) });
});
afterAll(async () => app?.stop());

const skillIds = (card: Card) => card.skills.map((s) => s.id);
const V1 = { 'A2A-Version': '1.0' };

async function verifySignature(card: Card): Promise<void> {
  const jwks = (await (await fetch(`${app.url}/.well-known/jwks.json`)).json()) as JSONWebKeySet;
  const { signatures, ...unsigned } = card;
  expect(signatures?.length).toBe(1);
  const payload = Buffer.from(canonicalize(unsigned)!).toString('base64url');
  await flattenedVerify({ ...signatures![0], payload }, createLocalJWKSet(jwks));
}

// Asynchronous: a spawnSync blocked this process for longer than the server keeps an idle
// connection on a loaded machine, and the next request went out on the socket it had closed
// (execFile rejects, with the script's stderr, when it does not exit 0).
async function createKey(name: string): Promise<string> {
  const out = await promisify(execFile)(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/keys.ts', 'create', name], { env: { ...process.env, ...app.env }, encoding: 'utf8' });
  return /\b(sb_[A-Za-z0-9_-]+)/.exec(out.stdout)![1];
}

/** GetExtendedAgentCard over gRPC, tenant "vault", as ProtoJSON (the service's JSON codec). */
function grpcExtendedCard(metadata: Record<string, string>): Promise<Card> {
  const Client = makeGenericClientConstructor(A2A_GRPC_SERVICE, 'A2AService');
  const client = new Client(`127.0.0.1:${grpcPort}`, credentials.createInsecure());
  const md = new Metadata();
  for (const [k, v] of Object.entries(metadata)) md.set(k, v);
  return new Promise<Card>((resolve, reject) => {
    (client as unknown as Record<string, (req: unknown, md: Metadata, cb: (err: ServiceError | null, res: Card) => void) => void>).getExtendedAgentCard({ tenant: 'vault' }, md, (err, res) => {
      client.close();
      if (err) reject(err);
      else resolve(res);
    });
  });
}

async function allBindings(headers: Record<string, string>) {
  const v10 = await rpc(`${app.url}/a2a/vault`, 'GetExtendedAgentCard', {}, { ...V1, ...headers });
  const v03 = await rpc(`${app.url}/a2a/vault`, 'agent/getAuthenticatedExtendedCard', {}, headers);
  const rest = await fetch(`${app.url}/a2a/vault/extendedAgentCard`, { headers: { ...V1, ...headers } });
  return { v10, v03, rest };
}

describe('the extended card', () => {
  it('the public cards declare it and list only the public skills', async () => {
    const dual = (await (await fetch(`${app.url}/a2a/vault/.well-known/agent-card.json`)).json()) as Card;
    expect(dual.supportsAuthenticatedExtendedCard).toBe(true);
    expect(dual.capabilities).toMatchObject({ extendedAgentCard: true });
    expect(skillIds(dual)).toEqual(['public-skill']);
    const v1 = (await (await fetch(`${app.url}/a2a/vault/.well-known/agent-card.json`, { headers: V1 })).json()) as Card;
    expect(v1.capabilities).toMatchObject({ extendedAgentCard: true });
    expect(v1).not.toHaveProperty('supportsAuthenticatedExtendedCard');
    expect(skillIds(v1)).toEqual(['public-skill']);
    // An agent without extendedSkills declares nothing.
    const echo = (await (await fetch(`${app.url}/a2a/echo/.well-known/agent-card.json`)).json()) as Card;
    expect(echo).not.toHaveProperty('supportsAuthenticatedExtendedCard');
    expect(echo.capabilities).not.toHaveProperty('extendedAgentCard');
  });

  it('open mode: every caller gets it on every binding, signed, in its version', async () => {
    const { v10, v03, rest } = await allBindings({});
    expect(v10.body.result.capabilities.extendedAgentCard).toBe(true);
    expect(skillIds(v10.body.result)).toEqual(['public-skill', 'members-only']);
    expect(v10.body.result).not.toHaveProperty('protocolVersion'); // the pure v1.0 card
    expect(v03.body.result.protocolVersion).toBe('0.3.0'); // the dual card a v0.3 client reads
    expect(v03.body.result.supportsAuthenticatedExtendedCard).toBe(true);
    expect(skillIds(v03.body.result)).toEqual(['public-skill', 'members-only']);
    expect(rest.status).toBe(200);
    const restCard = (await rest.json()) as Card;
    expect(skillIds(restCard)).toEqual(['public-skill', 'members-only']);
    for (const card of [v10.body.result, v03.body.result, restCard]) await verifySignature(card);
    // Over gRPC the card is ProtoJSON after a protobuf round trip, and still verifies.
    const overGrpc = await grpcExtendedCard({});
    expect(skillIds(overGrpc)).toEqual(['public-skill', 'members-only']);
    await verifySignature(overGrpc);
  });

  it('an agent without extended skills refuses: v1.0 UnsupportedOperation, v0.3 -32007, HTTP+JSON 400', async () => {
    const v10 = await rpc(`${app.url}/a2a/echo`, 'GetExtendedAgentCard', {}, V1);
    expect(v10.body.error.code).toBe(-32004);
    const v03 = await rpc(`${app.url}/a2a/echo`, 'agent/getAuthenticatedExtendedCard', {});
    expect(v03.body.error.code).toBe(-32007);
    const rest = await fetch(`${app.url}/a2a/echo/extendedAgentCard`, { headers: V1 });
    expect(rest.status).toBe(400);
    expect(JSON.stringify(await rest.json())).toContain('extendedSkills');
  });

  it('once API keys exist: 401 without one, the extended card with one', async () => {
    key = await createKey('extended-reader');
    // The key cache holds "no keys" for up to 2 s: wait until the server requires one.
    await waitFor(async () => (await rpc(`${app.url}/a2a/vault`, 'GetExtendedAgentCard', {}, V1)).status === 401);
    const anonymous = await allBindings({});
    expect([anonymous.v10.status, anonymous.v03.status, anonymous.rest.status]).toEqual([401, 401, 401]);
    await expect(grpcExtendedCard({})).rejects.toMatchObject({ code: 16 }); // UNAUTHENTICATED

    const { v10, v03, rest } = await allBindings({ Authorization: `Bearer ${key}` });
    expect(skillIds(v10.body.result)).toEqual(['public-skill', 'members-only']);
    expect(skillIds(v03.body.result)).toEqual(['public-skill', 'members-only']);
    // With keys, the card declares its security schemes.
    expect(v10.body.result.securitySchemes).toHaveProperty('bearer');
    const restCard = (await rest.json()) as Card;
    expect(skillIds(restCard)).toEqual(['public-skill', 'members-only']);
    await verifySignature(restCard);
    const overGrpc = await grpcExtendedCard({ authorization: `Bearer ${key}` });
    expect(skillIds(overGrpc)).toEqual(['public-skill', 'members-only']);
  });
});
