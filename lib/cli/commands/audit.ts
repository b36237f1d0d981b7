/**
 * `switchboard audit [--limit N] [--cursor C]`: the operator audit log (GET /api/audit, operator
 * token), newest first; the next page's cursor is printed (or in --json) when there is one.
 */
import { Command } from 'commander';
import { AuditPageSchema, type AuditEntryWire } from '../../dashboard/audit-wire';
import { withQuery } from '../../query/api-client';
import { apiRequest, apiTarget } from '../api';
import { EXIT, type ExitCode } from '../exit-codes';
import { note, printJson, printTable, type CommonOptions } from '../output';
import { commonOptions, positiveInt } from './options';

interface AuditOptions extends CommonOptions {
  limit: number;
  cursor?: string;
}

const facts = (e: AuditEntryWire) => Object.entries(e.detail ?? {}).map(([k, v]) => `${k}=${v}`).join(' ');

export function auditCommand(exit: (code: ExitCode) => void): Command {
  const cmd = new Command('audit')
    .description('operator actions (dispatch, reply, cancel, peer and API key changes), newest first')
    .option('--limit <n>', 'entries per page (1-200)', positiveInt('--limit', 200), 50)
    .option('--cursor <cursor>', 'the page after this cursor (printed at the end of the previous page)');
  return commonOptions(cmd).action(async (opts: AuditOptions) => {
    const page = await apiRequest(apiTarget(opts.url), withQuery('/api/audit', { limit: opts.limit, cursor: opts.cursor }), AuditPageSchema);
    if (opts.json) printJson(page);
    else {
      printTable([
        ['AT', 'ACTION', 'TARGET', 'WHO', 'VIA', 'DOOR', 'FROM', 'OUTCOME', 'DETAIL'],
        ...page.entries.map((e) => [e.at, e.action, e.target ?? '-', e.actor, e.via, e.door, e.address ?? 'host', e.error ? `${e.outcome}:${e.error}` : e.outcome, facts(e)]),
      ]);
      if (page.nextCursor) note(`older entries: switchboard audit --cursor ${page.nextCursor}`);
    }
    exit(EXIT.completed);
  });
}
