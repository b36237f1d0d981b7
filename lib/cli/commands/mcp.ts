/** `switchboard mcp`: MCP over stdio, bridged to the running Switchboard's /mcp (lib/cli/mcp-bridge.ts). */
import { Command } from 'commander';
import { apiTarget } from '../api';
import { EXIT, type ExitCode } from '../exit-codes';
import { serveMcpOverStdio } from '../mcp-bridge';

export function mcpCommand(exit: (code: ExitCode) => void): Command {
  return new Command('mcp')
    .description('serve the Switchboard MCP tools on stdio (for Claude Code, Codex, Hermes…), through SWITCHBOARD_URL with SWITCHBOARD_TOKEN')
    .option('--url <url>', 'the Switchboard to talk to (default: SWITCHBOARD_URL or http://127.0.0.1:3000)')
    .action(async (opts: { url?: string }) => {
      await serveMcpOverStdio(apiTarget(opts.url));
      exit(EXIT.completed);
    });
}
