/**
 * Several instances on one PostgreSQL. With the SQLite store none of this runs.
 * - Events: the relay (lib/events/pg-relay.ts) brings other instances' commits into this hub.
 * - Cancel from anywhere: a turn running here follows its own task in the hub; when any
 *   instance's terminal claim ends it (a cancel on B), the relayed terminal event aborts it
 *   here. The claim decided; this only stops the work.
 * - Leases (lib/db/pg-leases.ts): this instance renews its row every lease/3 and leases each
 *   running inbound turn. Work nobody alive holds is looked for only when an instance is known to
 *   be gone (a renewal removed its expired row, it said it left, or the listener had a gap), for
 *   SWEEP_RENEWALS renewals after that; such turns end FAILED `interrupted: instance lost` through
 *   the claim (input-required tasks have no turn and stay answerable). So waiting work costs no
 *   query beyond the renewal (tests/postgres/idle-queries.test.ts). At start it first recovers
 *   its own turns from a previous life (same instance id) as `interrupted: restart`, as a single
 *   instance does.
 * - Outbox rows (push deliveries, lib/push; operator notifications, lib/notify) name their owner
 *   in their row; the lease is the owner's instance row. When a sweep removes dead instances, at
 *   start, and when a stopping instance says it left, this instance takes over the pending rows
 *   of every outbox whose owner has no row (one statement) and wakes their senders.
 */
import { getSettings } from '../config/settings';
import { currentStore, pgStore } from '../db/client';
import { instanceId } from '../db/instance';
import { OWNED_OUTBOXES, PgLeases, type OrphanedTurn, type OutboxCounts, type OwnedOutbox } from '../db/pg-leases';
import { redactedDatabaseUrl } from '../db/store-kind';
import { eventHub } from '../events/hub';
import { PgEventRelay, type ChannelListener, type RelayStatus } from '../events/pg-relay';
import { isTerminalState } from '../protocol/types';
import { processSingleton } from '../process-singleton';
import { claimTerminal } from './task-writer';
import { agentText } from './messages';
import { executions } from './executions';
import { INTERRUPTED_RESTART } from './lifecycle';
import { errorMessage, log } from '../log';
import { settledWithin } from '../util/abortable';

export const INSTANCE_LOST = 'interrupted: instance lost';

/** Resumes following an outbound task here (registered by engine/outbound/resume.ts at boot). */
type FollowResumer = (taskId: string) => void;

/** An outbox's sender (registered by lib/push and lib/notify at boot): woken after a takeover, stopped on leaving. */
export interface OutboxWork {
  kick(): void;
  stop(): Promise<void>;
}

/** A stopping instance announces here that it left: its pending outbox rows are free. */
const OUTBOX_RELEASED_CHANNEL = 'switchboard_outbox_released';

interface ClusterState {
  leases: PgLeases;
  relay: PgEventRelay;
  lastRenewal: string | null;
  lastError: string | null;
  takenOver: number;
  /** Outbox rows taken over from instances that are gone, per outbox. */
  outboxTakenOver: OutboxCounts;
  /** Instances were found gone and their outbox rows not yet taken over (it failed): try at the next renewal. */
  outboxTakeoverDue: boolean;
  /** Since when every renewal succeeded (null after a failure). */
  healthySince: number | null;
  /** How many more renewals also look for orphaned work (an instance is known to be gone). */
  sweepsLeft: number;
}

/**
 * How many renewals look for orphaned work once an instance is known gone: two leases' worth
 * (renewals come every lease/3), and one more. Work it had not leased yet (a turn started within
 * a lease batch of its death) counts as orphaned once unchanged for a lease, at most a renewal
 * interval after its row expired. Counted in successful renewals, not in time, so a database
 * outage meanwhile does not use them up.
 */
const SWEEP_RENEWALS = 7;

/** An instance is gone: look for its work at this and the next renewals. */
function sweepSoon(state: ClusterState): void {
  state.sweepsLeft = SWEEP_RENEWALS;
}

/** How an orphaned inbound turn of a `resumable` agent (a relay) is resumed here instead of ended. */
export interface TurnResumer {
  resumable(taskId: string): Promise<boolean>;
  /** False when it cannot be resumed after all (it is then ended as any orphan). */
  resume(taskId: string): Promise<boolean>;
}

interface Holder {
  state: ClusterState | null;
  clustered: boolean | null;
  resumeFollow: FollowResumer | null;
  resumeTurn: TurnResumer | null;
  outboxWork: Map<OwnedOutbox, OutboxWork>;
}

const holder = () => processSingleton<Holder>('cluster', () => ({ state: null, clustered: null, resumeFollow: null, resumeTurn: null, outboxWork: new Map() }));

/** Boot, before startCluster: resumable turns are taken over (one survivor each) rather than ended. */
export function registerTurnResumer(resumer: TurnResumer): void {
  holder().resumeTurn = resumer;
}

const noRows = () => Object.fromEntries(OWNED_OUTBOXES.map((outbox) => [outbox, 0])) as OutboxCounts;

/** Whether this process shares its database with other instances (the PostgreSQL store). */
export function isClustered(): boolean {
  const h = holder();
  return (h.clustered ??= currentStore() === 'postgresql');
}

export async function startCluster(): Promise<void> {
  const store = pgStore();
  await store.ready;
  const settings = getSettings();
  const leases = new PgLeases(store.pool, instanceId(), settings.leaseMs);
  await leases.createTables();
  const relay = new PgEventRelay(settings.databaseUrl, instanceId(), eventHub());
  const state: ClusterState = { leases, relay, lastRenewal: null, lastError: null, takenOver: 0, outboxTakenOver: noRows(), outboxTakeoverDue: false, healthySince: null, sweepsLeft: 0 };
  holder().state = state;
  await recoverOrphans(state, true); // before any turn starts here: our own leases are from a previous life
  await leases.renew();
  state.lastRenewal = new Date().toISOString();
  state.healthySince = Date.now();
  await relay.start();
  // A stopping instance left (or, after a gap, may have): its outbox rows now, its follows at the next renewals.
  const takeOver = () => {
    sweepSoon(state);
    void takeOverOutboxes(state);
  };
  await relay.listen(OUTBOX_RELEASED_CHANNEL, { onMessage: takeOver, onGap: takeOver });
  await takeOverOutboxes(state); // what stopped instances left (their rows are gone)
  setInterval(() => void renewAndSweep(state), Math.max(100, Math.floor(settings.leaseMs / 3))).unref();
  log.info('cluster member started', { instance: instanceId(), leaseMs: settings.leaseMs, database: redactedDatabaseUrl(settings.databaseUrl) });
}

/**
 * Renews this instance's lease; then, only if this instance has itself renewed without a failure
 * for a whole lease, declares instances whose lease expired dead and takes over their work.
 * After an outage of the database every instance's lease may have expired: the wait gives each
 * live one a whole lease to renew before anyone judges it, so a live instance's work is not taken.
 * While no instance is gone, a renewal is these two statements on the instance table only.
 */
async function renewAndSweep(state: ClusterState): Promise<void> {
  try {
    await state.leases.renew();
    state.lastRenewal = new Date().toISOString();
    state.healthySince ??= Date.now();
    if (Date.now() - state.healthySince < state.leases.leaseMs) return;
    const dead = await state.leases.removeExpiredInstances();
    if (dead.length) {
      log.warn('instances lost (lease expired)', { instances: dead });
      sweepSoon(state);
    }
    if (state.sweepsLeft > 0) {
      await recoverOrphans(state, false);
      state.sweepsLeft--;
    }
    if (dead.length || state.outboxTakeoverDue) await takeOverOutboxes(state);
    state.lastError = null;
  } catch (err) {
    state.lastError = errorMessage(err);
    state.healthySince = null;
    log.warn('lease renewal failed', { error: state.lastError });
  }
}

async function recoverOrphans(state: ClusterState, atStart: boolean): Promise<void> {
  const orphans = await state.leases.orphanedWork(atStart);
  const turns = orphans.filter((t) => t.direction === 'inbound' && !executions().get(t.id));
  let ended = 0;
  const endedTurns: string[] = [];
  const resumer = holder().resumeTurn;
  for (const turn of turns) {
    if (resumer && (await resumer.resumable(turn.id))) {
      // One survivor takes it (its lease), and resumes it; another's claim leaves it to that one.
      const ours = turn.instance === instanceId() || (await state.leases.claimOrphan(turn));
      if (!ours || (await resumer.resume(turn.id))) {
        if (ours) ended++;
        continue;
      }
    }
    const reason = atStart && (turn.instance === null || turn.instance === instanceId()) ? INTERRUPTED_RESTART : INSTANCE_LOST;
    if (await claimTerminal(turn.id, { state: 'failed', reason, message: agentText(turn.id, turn.contextId, endText(turn, reason)) })) ended++;
    endedTurns.push(turn.id);
  }
  await state.leases.dropLeases(endedTurns);
  // The peer kept working on an orphaned follow: follow it from here (resubscribe, then poll).
  // Its lease moves to this instance when the follower starts (leaseWork).
  const resume = holder().resumeFollow;
  const follows: OrphanedTurn[] = [];
  for (const follow of resume ? orphans.filter((t) => t.direction === 'outbound') : []) {
    if (follow.instance === instanceId() || (await state.leases.claimOrphan(follow))) follows.push(follow);
  }
  for (const follow of follows) resume!(follow.id);
  state.takenOver += ended + follows.length;
  if (ended || follows.length) log.warn('took over work whose instance is gone', { endedOrResumedTurns: ended, resumedFollows: follows.length, atStart });
}

/**
 * Takes over the pending outbox rows nobody alive owns, and wakes the senders that got some. A
 * sender registered later finds its rows when it starts (it kicks itself then).
 */
async function takeOverOutboxes(state: ClusterState): Promise<void> {
  try {
    const taken = await state.leases.takeOverOutboxRows();
    state.outboxTakeoverDue = false;
    const got = OWNED_OUTBOXES.filter((outbox) => taken[outbox] > 0);
    if (!got.length) return;
    for (const outbox of got) {
      state.outboxTakenOver[outbox] += taken[outbox];
      holder().outboxWork.get(outbox)?.kick();
    }
    log.warn('took over outbox rows whose instance is gone', { pushDeliveries: taken.PushDelivery, notifications: taken.NotificationDelivery });
  } catch (err) {
    state.outboxTakeoverDue = true;
    log.warn('taking over outbox rows failed; again at the next renewal', { error: errorMessage(err) });
  }
}

/** Boot of an outbox's sender (PostgreSQL): woken by takeovers, stopped when this instance leaves. */
export function registerOutboxWork(outbox: OwnedOutbox, work: OutboxWork): void {
  holder().outboxWork.set(outbox, work);
}

/**
 * Boot of the outbound client (PostgreSQL): registers how to resume a follow here, then resumes
 * the follows nobody alive holds (this instance's own from its previous life included), instead
 * of every following task as a single instance does.
 */
export async function resumeOrphanedFollows(resume: FollowResumer): Promise<void> {
  const h = holder();
  h.resumeFollow = resume;
  if (h.state) await recoverOrphans(h.state, true);
}

/** Work running here on a task (an outbound follow): leased until `done`. */
export function leaseWork(taskId: string, done: Promise<void>): void {
  const leases = isClustered() ? holder().state?.leases : undefined;
  if (!leases) return;
  leases.leaseTurn(taskId);
  void done.finally(() => leases.releaseTurn(taskId));
}

const endText = (turn: OrphanedTurn, reason: string) =>
  reason === INSTANCE_LOST
    ? `Task failed: ${INSTANCE_LOST} (instance ${turn.instance ?? 'unknown'} stopped renewing its lease while it ran).`
    : `Task failed: ${INTERRUPTED_RESTART} (Switchboard stopped while it ran; its execution could not be resumed).`;

/** A turn started here (run-turn.ts): lease it, and stop it when another instance ends its task. */
export function onTurnStarted(taskId: string, done: Promise<void>, opts: { resumable?: boolean } = {}): void {
  if (!isClustered()) return;
  const leases = holder().state?.leases;
  leases?.leaseTurn(taskId);
  const unsubscribe = eventHub().subscribeTask(taskId, (event) => {
    if (event.type === 'status' && event.state && isTerminalState(event.state)) executions().abort(taskId, event.state);
  });
  void done.finally(() => {
    unsubscribe();
    // A resumable turn a shutdown stopped keeps its lease: once this instance has left (or at its
    // own next start), the turn is an orphan that is resumed (registerTurnResumer).
    if (opts.resumable && executions().shutdown.signal.aborted) return;
    leases?.releaseTurn(taskId);
  });
}

/**
 * A message to every instance (PostgreSQL NOTIFY on `channel`); `listener` gets them here. Both
 * do nothing on SQLite. For small facts another instance must know at once (a push config was
 * registered); after a reconnect `onGap` says some may have been missed.
 */
export async function listenCluster(channel: string, listener: ChannelListener): Promise<void> {
  await holder().state?.relay.listen(channel, listener);
}

export async function notifyCluster(channel: string, payload: string): Promise<void> {
  if (!isClustered()) return;
  await pgStore().pool.query({ name: 'sb_notify', text: 'SELECT pg_notify($1, $2)', values: [channel, payload] });
}

/**
 * After the shutdown drain: leave the cluster. The follows this instance stops are resumed by a
 * survivor; its outbox senders finish the attempts in flight, and its pending rows are
 * announced free, so a survivor takes them over at once instead of after a lease.
 */
export async function leaveCluster(): Promise<void> {
  const h = holder();
  const state = h.state;
  if (!state) return;
  await state.relay.stop();
  await Promise.all([...h.outboxWork.values()].map((work) => work.stop()));
  await state.leases.retire(OUTBOX_RELEASED_CHANNEL).catch((err) => log.warn('could not retire this instance', { error: errorMessage(err) }));
}

const HEALTH_QUERY_MS = 1_000;

/** A probe must answer even while the database does not: then `fallback`. */
async function withinHealthTimeout<T, F>(query: Promise<T>, fallback: F): Promise<T | F> {
  const answer = query.catch(() => fallback);
  return (await settledWithin(answer, HEALTH_QUERY_MS)) ? answer : fallback;
}

export interface OutboxLeaseHealth {
  /** Pending rows this instance owns (null: the database could not be asked). */
  pending: number | null;
  /** Of those, with an attempt in flight. */
  inFlight: number | null;
  /** Taken over from instances that were gone. */
  takenOver: number;
}

export interface StoreHealth {
  store: 'sqlite' | 'postgresql';
  instance?: string;
  listener?: RelayStatus;
  leases?: {
    leaseMs: number;
    held: number;
    lastRenewal: string | null;
    lastError: string | null;
    takenOver: number;
    pushDeliveries: OutboxLeaseHealth;
    notificationDeliveries: OutboxLeaseHealth;
  };
}

/** For GET /api/health: which store, and on PostgreSQL this instance's leases (turns, follows, outbox rows) and listener. */
export async function storeHealth(): Promise<StoreHealth> {
  if (!isClustered()) return { store: 'sqlite' };
  const state = holder().state;
  if (!state) return { store: 'postgresql', instance: instanceId() };
  const unknown = { pending: null, inFlight: null };
  const held = await withinHealthTimeout(state.leases.heldOutboxRows(), { PushDelivery: unknown, NotificationDelivery: unknown });
  const lease = (outbox: OwnedOutbox): OutboxLeaseHealth => ({ ...held[outbox], takenOver: state.outboxTakenOver[outbox] });
  return {
    store: 'postgresql',
    instance: instanceId(),
    listener: { ...state.relay.status },
    leases: {
      leaseMs: state.leases.leaseMs,
      held: state.leases.held,
      lastRenewal: state.lastRenewal,
      lastError: state.lastError,
      takenOver: state.takenOver,
      pushDeliveries: lease('PushDelivery'),
      notificationDeliveries: lease('NotificationDelivery'),
    },
  };
}
