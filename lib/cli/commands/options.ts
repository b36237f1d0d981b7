/** Options every command shares, and argument parsers that reject bad values with the option named. */
import { Command, InvalidArgumentError } from 'commander';

/** A command that only groups others (`switchboard`, `tasks`, `peers`): its subcommands, in help order. */
export function commandGroup(name: string, description: string, subcommands: Command[]): Command {
  const group = new Command(name).description(description);
  for (const sub of subcommands) group.addCommand(sub);
  return group;
}

export function urlOption(cmd: Command): Command {
  return cmd.option('--url <url>', 'the Switchboard to talk to (default $SWITCHBOARD_URL or http://127.0.0.1:3000)');
}

export function commonOptions(cmd: Command): Command {
  return urlOption(cmd.option('--json', 'print one JSON document on stdout (for scripts)'));
}

const RELATIVE = /^(\d{1,6})([mhd])$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** A point in time: an ISO date or date-time, or a span back from now (`90m`, `24h`, `7d`); as ISO. */
export function sinceArg(name: string, now = () => Date.now()) {
  return (value: string): string => {
    const relative = RELATIVE.exec(value.trim());
    if (relative) return new Date(now() - Number(relative[1]) * UNIT_MS[relative[2] as keyof typeof UNIT_MS]).toISOString();
    const at = /^\d{4}-\d\d-\d\d([T ]\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)?)?$/.test(value.trim()) ? Date.parse(value.trim()) : NaN;
    if (Number.isNaN(at)) throw new InvalidArgumentError(`${name} must be an ISO date or time (2026-11-30, 2026-11-30T12:00:00Z) or a span back from now (90m, 24h, 7d)`);
    return new Date(at).toISOString();
  };
}

export function seconds(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0 || n > 86_400) throw new InvalidArgumentError(`${name} must be a positive number of seconds (at most 86400)`);
    return n;
  };
}

export function positiveInt(name: string, max: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max) throw new InvalidArgumentError(`${name} must be a whole number from 1 to ${max}`);
    return Number(value);
  };
}

/** A JSON object given on the command line (`--data '{"callId":"c1","outcome":"proceed_once"}'`). */
export function jsonObject(name: string) {
  return (value: string): Record<string, unknown> => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch (err) {
      throw new InvalidArgumentError(`${name} must be JSON: ${(err as Error).message}`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new InvalidArgumentError(`${name} must be a JSON object ({...})`);
    return parsed as Record<string, unknown>;
  };
}

export const DEFAULT_RECONNECT_LIMIT_SECONDS = 300;

export function reconnectOption(cmd: Command): Command {
  return cmd.option(
    '--reconnect-limit <seconds>',
    'how long the Switchboard may stay unreachable while following before exiting 14 (lost contact)',
    seconds('--reconnect-limit'),
    DEFAULT_RECONNECT_LIMIT_SECONDS,
  );
}
