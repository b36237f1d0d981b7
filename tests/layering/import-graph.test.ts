/**
 * Layering, drawn from the imports (issue 13 §4): no import cycles among the app's modules, lower
 * layers never import higher ones, and browser code (components/, lib/query, `'use client'`
 * files in app/) never imports a server module. Type-only imports are erased at build time and
 * do not count. Reads the sources with TypeScript's parser: no build, about a second.
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

/** Value imports (and re-exports) of each file, resolved to files of the app. */
function importGraph() {
  const files = sourceFiles();
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  const client = new Set<string>();
  for (const file of files) {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
    const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
    if (/^\s*['"]use client['"]/.test(text)) client.add(file);
    const deps: string[] = [];
    const add = (spec: ts.Expression | undefined) => {
      if (spec && ts.isStringLiteral(spec)) {
        const target = resolve(file, spec.text, known);
        if (target) deps.push(target);
      }
    };
    const visit = (node: ts.Node) => {
      if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly) add(node.moduleSpecifier);
      else if (ts.isExportDeclaration(node) && !node.isTypeOnly) add(node.moduleSpecifier);
      else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0]);
      ts.forEachChild(node, visit);
    };
    visit(src);
    graph.set(file, deps);
  }
  return { graph, client };
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

/** What each lower layer must never import (by lib/ concern). */
const FORBIDDEN: Record<string, string[]> = {
  protocol: ['db', 'engine', 'events', 'server', 'dashboard', 'client', 'push', 'auth', 'agents', 'launchers', 'runtime', 'config', 'query'],
  db: ['engine', 'events', 'server', 'dashboard', 'client', 'push', 'auth', 'agents', 'launchers', 'runtime', 'query'],
  events: ['engine', 'server', 'dashboard', 'client', 'push', 'auth', 'runtime', 'query'],
  engine: ['server', 'dashboard', 'client', 'push', 'auth', 'runtime', 'query'],
  dashboard: ['server', 'runtime', 'query'],
  auth: ['server', 'runtime', 'query'],
};
const SERVER_CONCERNS = ['db', 'engine', 'events', 'launchers', 'client', 'server', 'auth', 'push', 'agents', 'config', 'runtime', 'log', 'process-singleton'];
// Client-safe modules of lib/dashboard (zod and lib/protocol only), shared with the command line.
const BROWSER_SAFE = new Set(['lib/dashboard/wire.ts', 'lib/dashboard/peer-wire.ts', 'lib/dashboard/event-description.ts', 'lib/dashboard/notification-wire.ts']);

const isServerModule = (file: string) => file.startsWith('lib/') && !BROWSER_SAFE.has(file) && (SERVER_CONCERNS.includes(concern(file)) || concern(file) === 'dashboard');

describe('the import graph', () => {
  const { graph, client } = importGraph();

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

  it('lower layers never import higher ones', () => {
    const bad: string[] = [];
    for (const [file, deps] of graph) {
      const forbidden = FORBIDDEN[concern(file)] ?? [];
      for (const dep of deps) if (forbidden.includes(concern(dep))) bad.push(`${file} → ${dep}`);
    }
    expect(bad).toEqual([]);
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
