/**
 * OIDC/OAuth2 inbound: a real OpenID provider (`oidc-provider`) on loopback issues
 * client-credentials access tokens as JWTs; the hub, configured with that issuer, accepts them
 * on JSON-RPC and HTTP+JSON, isolates the two clients' tasks, refuses expired, wrong-audience,
 * foreign and tampered tokens with 401, a token without the agent's scope with 403, and keeps
 * accepting API keys.
 */
import http from 'node:http';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { freePort, startApp, type AppServer } from '../support/app-server';
import { asTask, rpc, sendParams, TaskState, waitFor } from '../support/a2a-clients';
import { grpcFailure, grpcOnlyClient, withKey } from '../support/grpc-clients';
import { clientCredentialsClient, createTestProvider } from '../support/oidc-provider';

const AUDIENCE = 'https://switchboard.test/a2a';
let issuer = '';
let idp: http.Server;
let app: AppServer;

/** Resource indicators → what the provider puts in the token (aud, scopes, lifetime). */
const RESOURCES: Record<string, { audience: string; scope: string; accessTokenTTL: number }> = {
  'urn:switchboard': { audience: AUDIENCE, scope: 'a2a:echo a2a:slow', accessTokenTTL: 300 },
  'urn:switchboard-short': { audience: AUDIENCE, scope: 'a2a:echo', accessTokenTTL: 1 },
  'urn:elsewhere': { audience: 'https://elsewhere.test', scope: 'a2a:echo', accessTokenTTL: 300 },
};

const clients = ['alpha', 'beta'].map((id) => clientCredentialsClient(id, `${id}-secret-0123456789abcdef`, 'client_secret_post'));

async function startProvider(): Promise<void> {
  const port = await freePort();
  issuer = `http://127.0.0.1:${port}`;
  const provider = await createTestProvider(issuer, clients, RESOURCES, 'urn:switchboard');
  idp = http.createServer(provider.callback);
  await new Promise<void>((resolve) => idp.listen(port, '127.0.0.1', resolve));
}

async function token(client: 'alpha' | 'beta', resource = 'urn:switchboard', scope = 'a2a:echo a2a:slow'): Promise<string> {
  const secret = clients.find((c) => c.client_id === client)!.client_secret!;
  const res = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client, client_secret: secret, resource, scope }),
  });
  const body = (await res.json()) as { access_token?: string };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.access_token!;
}

const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });

async function send(t: string, agent = 'echo') {
  return rpc(`${app.url}/a2a/${agent}`, 'message/send', { message: { role: 'user', messageId: crypto.randomUUID(), parts: [{ kind: 'text', text: 'hello' }] } }, bearer(t));
}

function createKey(name: string): string {
  const out = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/keys.ts', 'create', name], { env: { ...process.env, ...app.env }, encoding: 'utf8' });
  expect(out.status, out.stderr).toBe(0);
  return /\b(sb_[A-Za-z0-9_-]+)/.exec(out.stdout)![1];
}

beforeAll(async () => {
  await startProvider();
  app = await startApp({
    SWITCHBOARD_GRPC_PORT: String(await freePort()),
    SWITCHBOARD_OIDC_ISSUERS: issuer,
    SWITCHBOARD_OIDC_AUDIENCE: AUDIENCE,
    SWITCHBOARD_OIDC_REQUIRED_SCOPE: 'a2a:{agent}',
    SWITCHBOARD_OIDC_CLOCK_SKEW: '0',
  });
});
afterAll(async () => {
  await app?.stop();
  idp?.close();
});

describe('OIDC bearer tokens on the A2A surface', () => {
  it('a valid token creates a task owned by its subject; another subject cannot get it', async () => {
    const alpha = await token('alpha');
    const sent = await send(alpha);
    expect(sent.status).toBe(200);
    const taskId = sent.body.result.id as string;
    const mine = await rpc(`${app.url}/a2a/echo`, 'tasks/get', { id: taskId }, bearer(alpha));
    expect(mine.body.result.id).toBe(taskId);

    const detail = await (await fetch(`${app.url}/api/tasks/${taskId}`)).json();
    expect(detail.task.owner).toEqual({ id: `oidc:127.0.0.1:${new URL(issuer).port}:alpha`, name: 'alpha' });

    const beta = await token('beta');
    const theirs = await rpc(`${app.url}/a2a/echo`, 'tasks/get', { id: taskId }, bearer(beta));
    expect(theirs.body.error.code).toBe(-32001);
    const rest = await fetch(`${app.url}/a2a/echo/tasks/${taskId}`, { headers: { ...bearer(beta), 'A2A-Version': '1.0' } });
    expect(rest.status).toBe(404);
    const restMine = await fetch(`${app.url}/a2a/echo/tasks/${taskId}`, { headers: { ...bearer(alpha), 'A2A-Version': '1.0' } });
    expect(restMine.status).toBe(200);
  });

  it('refuses a missing, expired, wrong-audience, foreign-issuer or tampered token with 401 invalid_token', async () => {
    const missing = await rpc(`${app.url}/a2a/echo`, 'tasks/get', { id: 'x' });
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toContain('error="invalid_token"');

    const short = await token('alpha', 'urn:switchboard-short', 'a2a:echo');
    const exp = decodeJwt(short).exp!;
    await waitFor(async () => Date.now() / 1000 > exp + 1);
    const expired = await send(short);
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toMatch(/error="invalid_token", error_description="the token has expired"/);

    const elsewhere = await send(await token('alpha', 'urn:elsewhere', 'a2a:echo'));
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.headers.get('www-authenticate')).toContain("the token's aud claim is not accepted");

    const valid = await token('alpha');
    const [head, payload, signature] = valid.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = (changes: Record<string, unknown>) => `${head}.${Buffer.from(JSON.stringify({ ...claims, ...changes })).toString('base64url')}.${signature}`;
    const tampered = await send(forged({ sub: 'beta' }));
    expect(tampered.status).toBe(401);
    expect(tampered.headers.get('www-authenticate')).toContain('signature does not verify');
    const foreign = await send(forged({ iss: 'https://idp.attacker.test' }));
    expect(foreign.status).toBe(401);
    expect(foreign.headers.get('www-authenticate')).toContain('issuer is not accepted');

    const restExpired = await fetch(`${app.url}/a2a/echo/tasks/x`, { headers: { ...bearer(short), 'A2A-Version': '1.0' } });
    expect(restExpired.status).toBe(401);
    expect(restExpired.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('a token without the agent scope gets 403 insufficient_scope naming the scope', async () => {
    const echoOnly = await token('alpha', 'urn:switchboard', 'a2a:echo');
    expect((await send(echoOnly, 'echo')).status).toBe(200);
    const refused = await send(echoOnly, 'slow');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    expect(refused.headers.get('www-authenticate')).toContain('scope="a2a:slow"');
    const rest = await fetch(`${app.url}/a2a/slow/tasks/x`, { headers: { ...bearer(echoOnly), 'A2A-Version': '1.0' } });
    expect(rest.status).toBe(403);
  });

  it('gRPC: the same check answers UNAUTHENTICATED and PERMISSION_DENIED, and a valid token owns its task', async () => {
    const echo = await grpcOnlyClient(app.url, 'echo');
    const alpha = await token('alpha');
    const task = asTask(await echo.sendMessage(sendParams('over gRPC'), withKey(alpha)));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const foreign = await grpcFailure(echo.getTask({ id: task.id, historyLength: undefined, tenant: '' }, withKey(await token('beta'))));
    expect(foreign.name).toBe('TaskNotFoundError');

    const elsewhere = await grpcFailure(echo.sendMessage(sendParams('x'), withKey(await token('alpha', 'urn:elsewhere', 'a2a:echo'))));
    expect(elsewhere).toMatchObject({ status: 16 });
    expect(elsewhere.message).toContain("the token's aud claim is not accepted");

    const slow = await grpcOnlyClient(app.url, 'slow');
    const denied = await grpcFailure(slow.sendMessage(sendParams('x'), withKey(await token('alpha', 'urn:switchboard', 'a2a:echo'))));
    expect(denied).toMatchObject({ status: 7 });
    expect(denied.message).toContain('the token lacks scope a2a:slow');
  });

  it('API keys keep working beside the issuer, owning their tasks apart from token subjects', async () => {
    const key = createKey('side-by-side');
    const sent = await waitFor(async () => {
      const res = await send(key);
      return res.status === 200 ? res : null;
    });
    const taskId = sent.body.result.id as string;
    const byToken = await rpc(`${app.url}/a2a/echo`, 'tasks/get', { id: taskId }, bearer(await token('alpha')));
    expect(byToken.body.error.code).toBe(-32001);
    expect((await rpc(`${app.url}/a2a/echo`, 'tasks/get', { id: taskId }, bearer(key))).body.result.id).toBe(taskId);
  });

  it('cards declare the openIdConnect scheme with the discovery URL and the agent scope, in both generations', async () => {
    const discovery = `${issuer}/.well-known/openid-configuration`;
    const dual = await (await fetch(`${app.url}/a2a/slow/.well-known/agent-card.json`)).json();
    expect(dual.securitySchemes.oidc).toMatchObject({ type: 'openIdConnect', openIdConnectUrl: discovery });
    expect(dual.security).toContainEqual({ oidc: ['a2a:slow'] });
    const v1 = await (await fetch(`${app.url}/a2a/slow/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })).json();
    expect(v1.securitySchemes.oidc).toEqual({ openIdConnectSecurityScheme: { openIdConnectUrl: discovery, description: expect.any(String) } });
    expect(v1.securityRequirements).toContainEqual({ schemes: { oidc: { list: ['a2a:slow'] } } });
    expect((await fetch(discovery)).status).toBe(200);
  });

  it('counts a configured issuer as inbound auth for a non-loopback bind (only the operator token is missing)', async () => {
    const port = await freePort();
    const out = spawnSync(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-H', '0.0.0.0', '-p', String(port)], {
      env: { ...process.env, DATABASE_URL: `file:${app.dataDir}/exposed.db`, HOST: '0.0.0.0', SWITCHBOARD_DIST_DIR: process.env.SWITCHBOARD_DIST_DIR || '.next', SWITCHBOARD_OIDC_ISSUERS: issuer, SWITCHBOARD_OIDC_AUDIENCE: AUDIENCE },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(out.status).not.toBe(0);
    expect(out.stderr).toContain('SWITCHBOARD_OPERATOR_TOKEN');
    expect(out.stderr).not.toContain('npm run keys');
  });
});
