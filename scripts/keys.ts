// npm run keys -- create <name> | list | revoke <id> | quota <id> [name=value …]   (the same as `switchboard keys …`)
import { runKeys } from '../lib/cli/keys';

const [command, arg, ...rest] = process.argv.slice(2);
runKeys(command, arg, false, rest).then(
  (code) => process.exit(code),
  (err) => {
    console.error(`keys: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
