import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileQueryCompiler, readBase64 } from './query-compiler-wasm';
// @ts-expect-error a plain .mjs script without types
import { compileWasmUnkept } from '../../scripts/prisma-generate.mjs';

const SQLITE = '@prisma/client/runtime/query_compiler_small_bg.sqlite.wasm-base64.mjs';
const notImported = () => Promise.reject(new Error('the module was imported'));

describe('the query compiler compiled without keeping its module (decision 409)', () => {
  it("reads the module's base64 from its file: the string the import would give", async () => {
    const { wasm } = (await import(SQLITE)) as { wasm: string };
    expect(readBase64(SQLITE)).toBe(wasm);
  });

  it('compiles it without importing the module', async () => {
    const module = await compileQueryCompiler(SQLITE, notImported);
    expect(WebAssembly.Module.exports(module).length).toBeGreaterThan(0);
  });

  it('imports the module when its file cannot be read', async () => {
    let imported = false;
    const fallback = async () => {
      imported = true;
      return (await import(SQLITE)) as { wasm: string };
    };
    expect(readBase64('@prisma/client/runtime/no-such-module.wasm-base64.mjs')).toBeUndefined();
    await compileQueryCompiler('@prisma/client/runtime/no-such-module.wasm-base64.mjs', fallback);
    expect(imported).toBe(true);
  });

  it('both generated clients compile it so (scripts/prisma-generate.mjs)', () => {
    for (const dir of ['generated', 'generated-pg']) {
      const source = fs.readFileSync(`lib/db/${dir}/internal/class.ts`, 'utf8');
      expect(source).toContain("await import('../../query-compiler-wasm')");
      expect(source).not.toContain('decodeBase64AsWasm(wasm)');
    }
    expect(() => compileWasmUnkept('a client without the import')).toThrow(/query compiler import was not found/);
  });
});
