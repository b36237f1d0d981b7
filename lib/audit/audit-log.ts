/**
 * The operator audit log (decision 232). Each kind of operator action is recorded in
 * the one function every door goes through (dispatchTask, cancelAsOperator, the peer registry,
 * the API key functions), never in the routes: `audited(actor, action, …)` runs the action and
 * writes one row with who (the operator as the hub identified it), from where (the remote
 * address the server saw), what (the action and the ids it acted on, never a secret or a
 * caller's text) and the outcome (ok, refused with the refusal's code, failed). Calls without an
 * actor are the engine's own (a relay's dispatches, config sync) and are not operator actions.
 * A row that cannot be written is logged, and the action's answer stands: it already happened.
 */
import os from 'node:os';
import { insertAuditEntry, type AuditOutcome } from '../db/audit-repo';
import { errorMessage, log } from '../log';

export type AuditAction = 'dispatch' | 'reply' | 'cancel' | 'peer.create' | 'peer.update' | 'peer.delete' | 'key.create' | 'key.revoke';

/** Who did it, and from where. */
export interface AuditActor {
  /** The operator's name as the hub knows it: `operator-token`, `operator` (a dashboard session), `local` (open mode), an OS user (the host's CLI). */
  name: string;
  /** How the operator was identified: session | token | open | cli (on the host, through the database). */
  via: string;
  /** dashboard | cli | api | mcp */
  door: string;
  /** The remote address as the server saw it; null for the host's own CLI. */
  address: string | null;
}

/** What the action was about: the id it acted on and a few secret-free facts. */
export interface AuditSubject {
  target?: string | null;
  detail?: Record<string, string>;
}

const MAX_FACT_CHARS = 200;

function bounded(detail: Record<string, string> | undefined): Record<string, string> | null {
  if (!detail) return null;
  const entries = Object.entries(detail).map(([k, v]) => [k, v.slice(0, MAX_FACT_CHARS)] as const);
  return entries.length ? Object.fromEntries(entries) : null;
}

/** A refusal the layers raise for their callers has a code; anything else is a failure. */
function outcomeOf(err: unknown): { outcome: AuditOutcome; error: string } {
  const e = err as { status?: unknown; code?: unknown; kind?: unknown };
  if (typeof e?.status === 'number' && e.status < 500 && typeof e.code === 'string') return { outcome: 'refused', error: e.code };
  if (typeof e?.kind === 'string') return { outcome: 'refused', error: e.kind };
  return { outcome: 'failed', error: 'error' };
}

async function write(actor: AuditActor, action: AuditAction, subject: AuditSubject, outcome: AuditOutcome, error: string | null): Promise<void> {
  try {
    await insertAuditEntry({
      action,
      actor: actor.name,
      via: actor.via,
      door: actor.door,
      address: actor.address,
      target: subject.target?.slice(0, MAX_FACT_CHARS) ?? null, // a route parameter: any length
      detail: bounded(subject.detail),
      outcome,
      error,
    });
  } catch (err) {
    log.error('audit entry not written', { action, actor: actor.name, target: subject.target ?? null, error: errorMessage(err) });
  }
}

/**
 * Runs `action` and records it for `actor` (nothing is recorded without one). `after` adds what
 * is known only once it ran (the new task's id); `refusal` lets a door that answers refusals as
 * values say so (a thrown refusal, the one ClientError, is recorded as refused by its code).
 */
export async function audited<T>(
  actor: AuditActor | undefined,
  action: AuditAction,
  subject: AuditSubject,
  run: () => Promise<T>,
  after: (result: T) => AuditSubject & { refusal?: string } = () => ({}),
): Promise<T> {
  if (!actor) return run();
  let result: T;
  try {
    result = await run();
  } catch (err) {
    const { outcome, error } = outcomeOf(err);
    await write(actor, action, subject, outcome, error);
    throw err;
  }
  const more = after(result);
  const merged = { target: more.target ?? subject.target, detail: { ...subject.detail, ...more.detail } };
  await write(actor, action, merged, more.refusal ? 'refused' : 'ok', more.refusal ?? null);
  return result;
}

/** The actor of the host's own CLI commands that write the database directly (`switchboard keys`): the OS user. */
export function hostCliActor(): AuditActor {
  let user: string;
  try {
    user = os.userInfo().username;
  } catch {
    user = `uid ${process.getuid?.() ?? 'unknown'}`; // no passwd entry (a container's arbitrary uid)
  }
  return { name: user, via: 'cli', door: 'cli', address: null };
}
