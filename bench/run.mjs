// `npm run bench` — runs bench/main.ts under tsx (the bench imports TypeScript from lib/).
// All options are passed through; see bench/README.md.
import { spawnSync } from 'node:child_process';

const result = spawnSync(process.execPath, ['--import', 'tsx', 'bench/main.ts', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
