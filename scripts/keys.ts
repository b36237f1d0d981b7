// npm run keys -- create <name> | list | revoke <id>   (the same as `switchboard keys …`)
import { runKeys } from '../lib/cli/keys';

const [command, arg] = process.argv.slice(2);
runKeys(command, arg).then(
  (code) => process.exit(code),
  (err) => {
    console.error(`keys: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
