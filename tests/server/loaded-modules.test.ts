/**
 * What a started server loads (decisions 407, 408, 410, 411, 435): a hub that serves A2A answers it
 * before Next, so Next's pages and route files are loaded only when a request reaches them (not
 * all at start, each with its own copy of lib/); the gRPC binding's modules only when its port
 * is set; PostgreSQL's only on PostgreSQL; yaml only with a YAML config file. The server runs
 * with a preload (tests/fixtures/runtime/loaded-modules.mjs) that writes Node's require.cache to
 * a file on SIGUSR2.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SourceMap } from 'node:module';
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
const serverChunks = (files: string[]) => files.filter((f) => /[/\\]server[/\\]chunks[/\\].+\.js$/.test(f));

/**
 * Each character outside Latin-1 in a chunk that comes from our own source (its source map says
 * which), with a little context (decision 435). Next's own modules have some; they are not ours.
 */
function ourWideCharacters(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const map = new SourceMap(JSON.parse(fs.readFileSync(`${file}.map`, 'utf8')));
  return text.split('\n').flatMap((line, lineIndex) =>
    wideCharacterColumns(line).flatMap((column) => {
      const entry = map.findEntry(lineIndex, column);
      const source = 'originalSource' in entry ? entry.originalSource : '(unmapped)';
      return source.includes('node_modules/') ? [] : [`${source}: ${JSON.stringify(line.slice(Math.max(0, column - 40), column + 10))}`];
    }),
  );
}

function wideCharacterColumns(line: string): number[] {
  const columns: number[] = [];
  for (let i = 0; i < line.length; i++) if (line.charCodeAt(i) > 0xff) columns.push(i);
  return columns;
}

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

  it('the chunks of our code an echo hub loads are Latin-1, so V8 keeps their sources one byte a character', async () => {
    const { server, loaded } = await start();
    expect(await echo(`${server.url}/a2a/echo`)).toBe('completed');
    const chunks = serverChunks(await loaded());
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.flatMap(ourWideCharacters)).toEqual([]);
  });

  it('a hub with a gRPC port loads the gRPC binding', async () => {
    const { loaded } = await start({ SWITCHBOARD_GRPC_PORT: String(await freePort()) });
    expect(grpcModules(await loaded()).some((f) => f.includes('@grpc/grpc-js'))).toBe(true);
  });
});
