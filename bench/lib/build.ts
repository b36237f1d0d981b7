/**
 * Builds what the bench serves: Switchboard into its own dist dir (default `.next-bench`, so
 * other engineers' `.next` builds are never touched) and the next-floor app. `next build` with a
 * custom distDir rewrites tsconfig.json (it adds `<distDir>/types/**` to "include") and
 * next-env.d.ts; both are restored afterwards so a bench run leaves the tree as it found it.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const NEXT_BIN = 'node_modules/next/dist/bin/next';
const GUARDED_FILES = ['tsconfig.json', 'next-env.d.ts'];

function withFilesRestored<T>(run: () => T): T {
  const saved = GUARDED_FILES.map((file) => [file, fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null] as const);
  try {
    return run();
  } finally {
    for (const [file, text] of saved) {
      if (text !== null && fs.readFileSync(file, 'utf8') !== text) fs.writeFileSync(file, text);
    }
  }
}

function nextBuild(args: string[], env: Record<string, string>, label: string): void {
  const started = Date.now();
  process.stderr.write(`building ${label}...\n`);
  const result = spawnSync(process.execPath, [NEXT_BIN, 'build', ...args], {
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`next build (${label}) failed:\n${result.stdout}\n${result.stderr}`);
  process.stderr.write(`built ${label} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

export const FLOOR_DIR = 'bench/next-floor';

export function hasBuild(distDir: string): boolean {
  return fs.existsSync(path.join(distDir, 'BUILD_ID'));
}

/** Prisma client generation is part of `npm run build`; the bench needs it too on a fresh clone. */
function ensurePrismaClient(): void {
  if (fs.existsSync('lib/db/generated/client.ts')) return;
  const result = spawnSync(process.execPath, ['scripts/prisma-generate.mjs'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('prisma generate failed');
}

export function buildSwitchboard(distDir: string): void {
  ensurePrismaClient();
  withFilesRestored(() => nextBuild([], { SWITCHBOARD_DIST_DIR: distDir }, `switchboard → ${distDir}`));
}

export function buildFloor(): void {
  withFilesRestored(() => nextBuild([FLOOR_DIR], {}, 'next-floor'));
}

export function floorBuilt(): boolean {
  return hasBuild(path.join(FLOOR_DIR, '.next'));
}
