/**
 * Prisma's query compiler, compiled from the WebAssembly its runtime ships as a base64 string in
 * an ES module (`…wasm-base64.mjs`). The generated client imports that module, and an imported
 * module stays loaded: its 2.2 MB source and the 2.2 MB string it exports were held for the
 * process's life, ~9 MB of resident memory under load once V8's room for garbage is counted.
 * scripts/prisma-generate.mjs points the generated client here instead: the module's file is
 * read, decoded and dropped, and the import is only the fallback (a file not found from the
 * working directory, or not in the expected shape). Decision 409.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

type Imported = () => Promise<{ wasm: string }>;

/** The whole file: one string literal of base64, exported as `wasm`. */
const SHAPE = /^const wasm = "([A-Za-z0-9+/=]+)";\s*export \{ wasm \}\s*$/;

export async function compileQueryCompiler(specifier: string, imported: Imported): Promise<WebAssembly.Module> {
  const base64 = readBase64(specifier) ?? (await imported()).wasm;
  return new WebAssembly.Module(Buffer.from(base64, 'base64'));
}

/** The base64 in the module's file, or undefined to import it instead. */
export function readBase64(specifier: string): string | undefined {
  try {
    // Resolved from the working directory (the app's, under `next start`), by a require the
    // bundler cannot see: the file is read as data, never bundled or loaded as a module.
    const file = createRequire(path.join(process.cwd(), 'package.json')).resolve(specifier);
    return SHAPE.exec(fs.readFileSync(file, 'latin1'))?.[1];
  } catch {
    return undefined;
  }
}
