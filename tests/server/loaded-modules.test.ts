/**
 * What a started server loads (decisions 407, 408, 410, 411): a hub that serves A2A answers it
 * before Next, so Next's pages and route files are loaded only when a request reaches them (not
 * all at start, each with its own copy of lib/); the gRPC binding's modules only when its port
 * is set; PostgreSQL's only on PostgreSQL; yaml only with a YAML config file. The server runs
 * with a preload (tests/fixtures/runtime/loaded-modules.mjs) that writes Node's require.cache to
 * a file on SIGUSR2.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, startApp, type AppServer } from '../support/app-server';
import { waitFor } from '../support/a2a-clients';

const PRELOAD = ['--import', pathToFileURL(path.resolve('tests/fixtures/runtime/loaded-modules.mjs')).href];
let app: AppServer | undefined;

afterEach(async () => {
  await app?.stop();
  app = undefined;
});

async function start(env: Record<string, string> = {}): Promise<{ server: AppServer; loaded: () => Promise<string[]> }> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-loaded-')), 'modules.json');
  const server = await startApp({ ...env, SWITCHBOARD_TEST_LOADED_MODULES: file }, { nodeArgs: PRELOAD });
  app = server;
  const loaded = async () => {
    fs.rmSync(file, { force: true });
    server.signal('SIGUSR2');
    return waitFor(async () => fs.existsSync(file) && (JSON.parse(fs.readFileSync(file, 'utf8')) as string[]));
  };
  return { server, loaded };
}

async function echo(url: string): Promise<string> {
  const message = { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'loaded?' }] };
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params: { message } }) });
  const body = (await res.json()) as { result?: { status?: { state?: string } } };
  return body.result?.status?.state ?? JSON.stringify(body);
}

/** Next's route and page files under the build's server/app, as `a2a/[slug]/route`. */
const appEntries = (files: string[]) => files.flatMap((f) => f.match(/[/\\]server[/\\]app[/\\](.+)\.js$/)?.[1].replaceAll('\\', '/') ?? []);
const grpcModules = (files: string[]) => files.filter((f) => /node_modules[/\\](@grpc|@a2a-js)[/\\]/.test(f));
const pgModules = (files: string[]) => files.filter((f) => /node_modules[/\\](pg|@prisma[/\\]adapter-pg)[/\\]/.test(f));
const yamlModules = (files: string[]) => files.filter((f) => /node_modules[/\\]yaml[/\\]/.test(f));

describe('modules a started server loads', () => {
  it('an echo hub on SQLite loads no page, no A2A route file, no gRPC or PostgreSQL module; a route Next serves is loaded then', async () => {
    const { server, loaded } = await start();
    expect(await echo(`${server.url}/a2a/echo`)).toBe('completed');
    const before = await loaded();
    expect(before.some((f) => f.includes('node_modules/next/'))).toBe(true); // the list is Node's, whole
    // The readiness probe may have reached Next before the health probe was answered first.
    expect(appEntries(before).filter((e) => e !== 'api/health/route')).toEqual([]);
    expect(grpcModules(before)).toEqual([]);
    expect(pgModules(before)).toEqual([]); // a SQLite hub (decision 410)
    expect(yamlModules(before)).toEqual([]); // no YAML config file (decision 411)

    // `%` in the URL: the fast path leaves the request to Next, whose route file answers it.
    expect(await echo(`${server.url}/a2a/ech%6F`)).toBe('completed');
    expect(appEntries(await loaded())).toContain('a2a/[slug]/route');
  });

  it('a hub with a gRPC port loads the gRPC binding', async () => {
    const { loaded } = await start({ SWITCHBOARD_GRPC_PORT: String(await freePort()) });
    expect(grpcModules(await loaded()).some((f) => f.includes('@grpc/grpc-js'))).toBe(true);
  });
});
