/**
 * Layering, drawn from the imports: no import cycles among the app's modules, lower
 * layers never import higher ones (LAYERS below), and browser code (components/, lib/query, `'use client'`
 * files in app/) never imports a server module. Type-only imports are erased at build time and
 * do not count for those; they do for the engine's facade: code outside lib/engine names the
 * engine only through lib/engine/index.ts. Reads the sources with TypeScript's parser: no build,
 * about a second.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ROOTS = ['lib', 'app', 'components', 'instrumentation.ts'];
const SKIP = /(^|\/)(generated|node_modules)(\/|$)|\.test\.tsx?$/;

function sourceFiles(): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    const abs = path.join(ROOT, rel);
    if (SKIP.test(rel)) return;
    if (fs.statSync(abs).isDirectory()) for (const name of fs.readdirSync(abs)) walk(path.join(rel, name));
    else if (/\.tsx?$/.test(rel)) out.push(rel);
  };
  ROOTS.forEach(walk);
  return out;
}

function resolve(from: string, spec: string, files: Set<string>): string | null {
  let base: string;
  if (spec.startsWith('@/')) base = spec.slice(2);
  else if (spec.startsWith('.')) base = path.normalize(path.join(path.dirname(from), spec));
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) if (files.has(candidate)) return candidate;
  return null;
}

/**
 * Value imports (and re-exports) of each file, resolved to files of the app (`graph`), and every
 * import, type-only ones too (`all`: what a file names, for the engine's facade rule).
 */
function importGraph() {
  const files = sourceFiles();
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  const all = new Map<string, string[]>();
  const client = new Set<string>();
  for (const file of files) {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
    const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
    if (/^\s*['"]use client['"]/.test(text)) client.add(file);
    const deps: string[] = [];
    const named: string[] = [];
    const add = (spec: ts.Expression | undefined, typeOnly = false) => {
      if (spec && ts.isStringLiteral(spec)) {
        const target = resolve(file, spec.text, known);
        if (target && !typeOnly) deps.push(target);
        if (target) named.push(target);
      }
    };
    const visit = (node: ts.Node) => {
      if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, node.importClause?.isTypeOnly);
      else if (ts.isExportDeclaration(node)) add(node.moduleSpecifier, node.isTypeOnly);
      else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0]);
      ts.forEachChild(node, visit);
    };
    visit(src);
    graph.set(file, deps);
    all.set(file, named);
  }
  return { graph, all, client };
}

/** The engine's one entry for outside code (decision 290); the files behind it are its own. */
const ENGINE_FACADE = 'lib/engine/index.ts';

/** Imports (type-only ones too) from outside lib/engine of an engine file other than the facade. */
function engineFacadeBypasses(all: Map<string, string[]>): string[] {
  const bad: string[] = [];
  for (const [file, deps] of all) {
    if (file.startsWith('lib/engine/')) continue;
    for (const dep of deps) if (dep.startsWith('lib/engine/') && dep !== ENGINE_FACADE) bad.push(`${file} → ${dep}`);
  }
  return bad;
}

/**
 * Inside the engine (decision 327): core/ is a task's state, shared by both directions; inbound/
 * serves our agents' tasks to callers and outbound/ follows tasks at peers, each through core/
 * only, never the other; the top-level joins (cancel.ts: the one cancel of both directions) and
 * relay/ (an inbound turn done by an outbound child, decision 328) sit above both; only the
 * facade (index.ts) sees every part, and no part imports the facade. Type-only imports count.
 */
const ENGINE_PARTS: Record<string, readonly string[]> = {
  core: [],
  inbound: ['core'],
  outbound: ['core'],
  joins: ['core', 'inbound', 'outbound'],
  relay: ['core', 'inbound', 'outbound', 'joins'],
  facade: ['core', 'inbound', 'outbound', 'joins', 'relay'],
};

/** The part of an engine file: its folder under lib/engine, or facade / joins for a top-level file. */
function enginePart(file: string): string {
  const rest = file.slice('lib/engine/'.length);
  if (rest === 'index.ts') return 'facade';
  return rest.includes('/') ? rest.split('/')[0] : 'joins';
}

/** Imports (type-only ones too) between engine parts that ENGINE_PARTS does not allow. */
function enginePartViolations(all: Map<string, string[]>): string[] {
  const bad: string[] = [];
  for (const [file, deps] of all) {
    if (!file.startsWith('lib/engine/')) continue;
    const from = enginePart(file);
    for (const dep of deps) {
      if (!dep.startsWith('lib/engine/')) continue;
      const to = enginePart(dep);
      if (to !== from && !(ENGINE_PARTS[from] ?? []).includes(to)) bad.push(`${file} → ${dep}`);
    }
  }
  return bad;
}

/** Strongly connected components with more than one module (Tarjan), or a module importing itself. */
function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const found: string[][] = [];
  const strong = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) strong(v);
  return found;
}

const concern = (file: string) => (file.startsWith('lib/') ? file.split('/')[1].replace(/\.tsx?$/, '') : file.split('/')[0]);

/**
 * The concern order, lowest first: the one place it is written down. A lib/ concern may import
 * only concerns of a lower layer (and itself). So the wire client (lib/client) reaches no
 * database, settings, peers, engine, auth or API, and lib/peers never reaches lib/engine.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['protocol', 'util'], // pure: types, schemas, small helpers
  ['process-singleton', 'log'],
  ['metrics', 'tracing'],
  ['client'], // the A2A wire client: cards, JSON-RPC, SSE, HTTP transport
  ['agent-runner'], // the contract a served agent's runner implements: built-in agents, launchers, relays
  ['launchers'],
  ['config'],
  ['db'],
  ['audit'], // the operator audit log, written by the doors above
  ['events', 'auth', 'quotas'], // quotas: per-caller limits, counted by the engine's write path and checked by the bindings
  ['agents', 'peers'],
  ['engine'], // the task service: core/, inbound/, outbound/, relay/ (ENGINE_PARTS below)
  ['push'],
  ['notify'],
  ['runtime'], // what start-up lends the layers below (the membership host, the refusal)
  ['server'],
  ['dashboard'], // the dashboard's reads and its wire shapes, which the API answers with
  ['api'],
  ['mcp'], // the MCP server: tools over the engine and the dashboard's reads
  ['query'],
  ['cli'],
  ['app'], // the composition root: builds, starts and stops everything below
];
/** Beyond the order: the wire client keeps no process state of its own. */
const ALSO_FORBIDDEN: Record<string, string[]> = { client: ['process-singleton'] };

const layerOf = (c: string) => LAYERS.findIndex((layer) => layer.includes(c));
const mayImport = (from: string, to: string) => from === to || (layerOf(to) < layerOf(from) && !(ALSO_FORBIDDEN[from] ?? []).includes(to));

/**
 * The concerns below the engine never name it, type-only imports included: what they share with
 * it (the agent-runner contract a launcher or built-in agent implements) sits below them both.
 */
function namesOfEngineFromBelow(all: Map<string, string[]>): string[] {
  const bad: string[] = [];
  for (const [file, deps] of all) {
    if (!file.startsWith('lib/') || layerOf(concern(file)) >= layerOf('engine')) continue;
    for (const dep of deps) if (dep.startsWith('lib/engine/')) bad.push(`${file} → ${dep}`);
  }
  return bad;
}

/** Imports from a lib/ concern to one it may not use; `extra` are edges to pretend exist. */
function layeringViolations(graph: Map<string, string[]>, extra: [string, string][] = []): string[] {
  const bad: string[] = [];
  for (const [file, deps] of [...graph, ...extra.map(([f, d]) => [f, [d]] as const)]) {
    if (!file.startsWith('lib/')) continue;
    for (const dep of deps) if (dep.startsWith('lib/') && !mayImport(concern(file), concern(dep))) bad.push(`${file} → ${dep}`);
  }
  return bad;
}

const SERVER_CONCERNS = ['app', 'db', 'engine', 'events', 'launchers', 'client', 'peers', 'server', 'auth', 'push', 'agents', 'config', 'runtime', 'log', 'process-singleton'];
// Client-safe modules of lib/dashboard (zod and lib/protocol only), shared with the command line.
const BROWSER_SAFE = new Set(['lib/dashboard/wire.ts', 'lib/dashboard/peer-wire.ts', 'lib/dashboard/event-description.ts', 'lib/dashboard/notification-wire.ts', 'lib/dashboard/audit-wire.ts']);

const isServerModule = (file: string) => file.startsWith('lib/') && !BROWSER_SAFE.has(file) && (SERVER_CONCERNS.includes(concern(file)) || concern(file) === 'dashboard');

describe('the import graph', () => {
  const { graph, all, client } = importGraph();

  it('has no import cycles', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(cycles(graph)).toEqual([]);
  });

  it('has no cycles between lib/ concerns (engine ⇄ push, server → auth → dashboard → server...)', () => {
    const concerns = new Map<string, string[]>();
    for (const [file, deps] of graph) {
      if (!file.startsWith('lib/')) continue;
      const from = concern(file);
      const to = deps.filter((d) => d.startsWith('lib/') && concern(d) !== from).map(concern);
      concerns.set(from, [...new Set([...(concerns.get(from) ?? []), ...to])]);
    }
    expect(cycles(concerns)).toEqual([]);
  });

  it('places every lib/ concern in the concern order', () => {
    const unplaced = [...new Set([...graph.keys()].filter((f) => f.startsWith('lib/')).map(concern))].filter((c) => layerOf(c) < 0);
    expect(unplaced).toEqual([]);
  });

  it('lower layers never import higher ones, type-only imports included', () => {
    expect(layeringViolations(all)).toEqual([]);
  });

  it('refuses the imports the split removed (wire client → db/engine/peers/settings/state/auth/api, peers → engine)', () => {
    const removed: [string, string][] = [
      ['lib/client/json-rpc.ts', 'lib/db/task-repo.ts'],
      ['lib/client/a2a-client.ts', 'lib/engine/core/task-writer.ts'],
      ['lib/client/agent-card.ts', 'lib/peers/resolve.ts'],
      ['lib/client/http-transport.ts', 'lib/config/settings.ts'],
      ['lib/client/sse.ts', 'lib/process-singleton.ts'],
      ['lib/client/json-rpc.ts', 'lib/auth/self-token.ts'],
      ['lib/client/a2a-client.ts', 'lib/api/responses.ts'],
      ['lib/peers/connect.ts', 'lib/engine/outbound/runner.ts'],
    ];
    expect(layeringViolations(new Map(), removed)).toEqual(removed.map(([f, d]) => `${f} → ${d}`));
  });

  it('code outside lib/engine imports the engine only through lib/engine/index.ts, types included', () => {
    expect([...all.get('lib/server/rpc-handlers.ts')!]).toContain(ENGINE_FACADE); // the check sees the facade's users
    expect(engineFacadeBypasses(all)).toEqual([]);
  });

  it('refuses a deep engine import from outside, a type-only one too, and allows one inside the engine', () => {
    const deep = new Map([
      ['lib/server/list-tasks.ts', ['lib/engine/core/snapshot.ts']],
      ['lib/launchers/process-runner.ts', ['lib/engine/inbound/run-turn.ts']],
      ['app/api/dispatch/route.ts', ['lib/engine/outbound/dispatch.ts']],
      ['lib/engine/outbound/runner.ts', ['lib/engine/core/task-writer.ts']],
      ['lib/dashboard/cancel.ts', [ENGINE_FACADE]],
    ]);
    expect(engineFacadeBypasses(deep)).toEqual([
      'lib/server/list-tasks.ts → lib/engine/core/snapshot.ts',
      'lib/launchers/process-runner.ts → lib/engine/inbound/run-turn.ts',
      'app/api/dispatch/route.ts → lib/engine/outbound/dispatch.ts',
    ]);
  });

  it('inside the engine, core imports no other part and inbound and outbound only core (types included)', () => {
    const parts = new Set([...all.keys()].filter((f) => f.startsWith('lib/engine/')).map(enginePart));
    expect([...parts].sort()).toEqual(Object.keys(ENGINE_PARTS).sort()); // every part is placed, and every rule has files
    expect(enginePartViolations(all)).toEqual([]);
  });

  it('refuses core → inbound, inbound ⇄ outbound and a part → the facade, and allows the joins', () => {
    const cases: [from: string, to: string, refused: boolean][] = [
      ['lib/engine/core/task-writer.ts', 'lib/engine/inbound/detach.ts', true],
      ['lib/engine/core/snapshot.ts', 'lib/engine/relay/mirror.ts', true],
      ['lib/engine/inbound/run-turn.ts', 'lib/engine/outbound/follow-state.ts', true],
      ['lib/engine/outbound/endings.ts', 'lib/engine/inbound/lifecycle.ts', true],
      ['lib/engine/outbound/runner.ts', 'lib/engine/cancel.ts', true],
      ['lib/engine/relay/child.ts', ENGINE_FACADE, true],
      ['lib/engine/cancel.ts', 'lib/engine/outbound/cancel.ts', false],
      ['lib/engine/relay/relay-turn.ts', 'lib/engine/cancel.ts', false],
      ['lib/engine/relay/child.ts', 'lib/engine/outbound/dispatch.ts', false],
      ['lib/engine/inbound/detach.ts', 'lib/engine/core/executions.ts', false],
    ];
    const verdicts = cases.map(([from, to]) => [from, to, enginePartViolations(new Map([[from, [to]]])).length > 0]);
    expect(verdicts).toEqual(cases);
  });

  it('the concerns below the engine (agents, launchers...) never name it, type-only imports included', () => {
    expect(namesOfEngineFromBelow(all)).toEqual([]);
    const typeOnly = new Map([
      ['lib/launchers/process-runner.ts', [ENGINE_FACADE]],
      ['lib/agents/echo-agent.ts', ['lib/agent-runner.ts']],
      ['lib/push/push-delivery.ts', [ENGINE_FACADE]],
    ]);
    expect(namesOfEngineFromBelow(typeOnly)).toEqual([`lib/launchers/process-runner.ts → ${ENGINE_FACADE}`]);
  });

  it('browser code imports no server module, directly or through another module', () => {
    const browser = [...graph.keys()].filter((f) => client.has(f) || f.startsWith('components/') || f.startsWith('lib/query/'));
    const bad: string[] = [];
    for (const start of browser) {
      const seen = new Set<string>([start]);
      const queue = [start];
      while (queue.length) {
        const file = queue.shift()!;
        for (const dep of graph.get(file) ?? []) {
          if (seen.has(dep)) continue;
          seen.add(dep);
          if (isServerModule(dep)) bad.push(`${start} → … → ${dep}`);
          else queue.push(dep);
        }
      }
    }
    expect(bad).toEqual([]);
  });
});
