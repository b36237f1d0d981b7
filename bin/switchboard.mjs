#!/usr/bin/env node
// The `switchboard` command (lib/cli). Runs the TypeScript sources through tsx, as `npm run keys`
// does, with this checkout's tsconfig whatever the current directory is.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.env.TSX_TSCONFIG_PATH ??= path.join(root, 'tsconfig.json');
// Both loaders, as the tsx command installs them: the sources are CommonJS-or-ESM by content.
(await import('tsx/cjs/api')).register();
(await import('tsx/esm/api')).register();
const cli = await import(path.join(root, 'lib/cli/main.ts'));
// Loaded as CommonJS (the package has no "type"), the exports arrive on `default`.
const { runCli } = cli.runCli ? cli : cli.default;
// exit() rather than exitCode: a keys command leaves the database open. Writes to pipes and
// files are synchronous on POSIX, so nothing printed is lost.
process.exit(await runCli(process.argv.slice(2)));
