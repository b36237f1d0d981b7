/**
 * Several instances on one PostgreSQL (docs/architecture.md, "The store port"). With the SQLite store none of this runs.
 * - Events: the relay (lib/events/pg-relay.ts) brings other instances' commits into this hub.
 * - Cancel from anywhere: a turn running here follows its own task in the hub; when any
 *   instance's terminal claim ends it (a cancel on B), the relayed terminal event aborts it
 *   here. The claim decided; this only stops the work.
 * - Leases (lib/db/postgres/leases.ts): this instance renews its row every lease/3 and leases each
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
import type pg from 'pg';
import { getSettings } from '../../config/settings';
import { instanceId } from '../instance';
import { OWNED_OUTBOXES, PgLeases, type OrphanedTurn, type OutboxCounts, type OwnedOutbox } from './leases';
import { redactedDatabaseUrl } from '../store-kind';
import { errorMessage, log } from '../../log';
import { settledWithin } from '../../util/abortable';
import type { ChannelListener, FollowResumer, MemberHost, MemberRelay, Membership, OutboxLeaseHealth, OutboxWork, StoreHealth, TurnWatch } from '../membership';

/** A stopping instance announces here that it left: its pending outbox rows are free. */
const OUTBOX_RELEASED_CHANNEL = 'switchboard_outbox_released';

interface ClusterState {
  leases: PgLeases;
  relay: MemberRelay;
  host: MemberHost;
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

const noRows = () => Object.fromEntries(OWNED_OUTBOXES.map((outbox) => [outbox, 0])) as OutboxCounts;

const SECRET_KEY_REQUIRED = [
  'SWITCHBOARD_SECRET_KEY is not set, and this database is PostgreSQL: every instance must seal',
  'stored secrets (peer credentials, push webhook URLs and tokens) and sign delegation tokens with',
  'the same key. Set SWITCHBOARD_SECRET_KEY (at least 32 characters, e.g. openssl rand -base64 32)',
  'to the same value on every instance. An instance that ran before with a key file: use the',
  'contents of its data/secret.key.',
].join('\n');

const HEALTH_QUERY_MS = 1_000;
/** How long one count of the held outbox rows answers health calls. */
const HEALTH_ROWS_TTL_MS = 1_000;

/** A probe must answer even while the database does not: then `fallback`. */
async function withinHealthTimeout<T, F>(query: Promise<T>, fallback: F): Promise<T | F> {
  const answer = query.catch(() => fallback);
  return (await settledWithin(answer, HEALTH_QUERY_MS)) ? answer : fallback;
}

export class ClusterMember implements Membership {
  private state: ClusterState | null = null;
  private resumeFollow: FollowResumer | null = null;
  private readonly outboxWork = new Map<OwnedOutbox, OutboxWork>();

  /** `pool` after `ready`: the store's pool once migrated. */
  constructor(private readonly pool: () => Promise<pg.Pool>) {}

  /** Every instance on one PostgreSQL seals and opens stored secrets with the same key: a key file is per machine. */
  secretKeyProblem(secretKey: string | undefined): string | null {
    return secretKey ? null : SECRET_KEY_REQUIRED;
  }

  /** Start-up: recover this instance's own turns from a previous life and orphans, lease, listen, take over outboxes. */
  async join(host: MemberHost): Promise<void> {
    const settings = getSettings();
    const leases = new PgLeases(await this.pool(), instanceId(), settings.leaseMs);
    await leases.createTables();
    const relay = host.openRelay();
    const state: ClusterState = { leases, relay, host, lastRenewal: null, lastError: null, takenOver: 0, outboxTakenOver: noRows(), outboxTakeoverDue: false, healthySince: null, sweepsLeft: 0 };
    this.state = state;
    await this.recoverOrphans(state, true); // before any turn starts here: our own leases are from a previous life
    await leases.renew();
    state.lastRenewal = new Date().toISOString();
    state.healthySince = Date.now();
    await relay.start();
    // A stopping instance left (or, after a gap, may have): its outbox rows now, its follows at the next renewals.
    const takeOver = () => {
      sweepSoon(state);
      void this.takeOverOutboxes(state);
    };
    await relay.listen(OUTBOX_RELEASED_CHANNEL, { onMessage: takeOver, onGap: takeOver });
    await this.takeOverOutboxes(state); // what stopped instances left (their rows are gone)
    setInterval(() => void this.renewAndSweep(state), Math.max(100, Math.floor(settings.leaseMs / 3))).unref();
    log.info('cluster member started', { instance: instanceId(), leaseMs: settings.leaseMs, database: redactedDatabaseUrl(settings.databaseUrl) });
  }

  /**
   * Renews this instance's lease; then, only if this instance has itself renewed without a failure
   * for a whole lease, declares instances whose lease expired dead and takes over their work.
   * After an outage of the database every instance's lease may have expired: the wait gives each
   * live one a whole lease to renew before anyone judges it, so a live instance's work is not taken.
   * While no instance is gone, a renewal is these two statements on the instance table only.
   */
  private async renewAndSweep(state: ClusterState): Promise<void> {
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
        await this.recoverOrphans(state, false);
        state.sweepsLeft--;
      }
      if (dead.length || state.outboxTakeoverDue) await this.takeOverOutboxes(state);
      state.lastError = null;
    } catch (err) {
      state.lastError = errorMessage(err);
      state.healthySince = null;
      log.warn('lease renewal failed', { error: state.lastError });
    }
  }

  private async recoverOrphans(state: ClusterState, atStart: boolean): Promise<void> {
    const { host } = state;
    const orphans = await state.leases.orphanedWork(atStart);
    const turns = orphans.filter((t) => t.direction === 'inbound' && !host.runsHere(t.id));
    let ended = 0;
    const endedTurns: string[] = [];
    for (const turn of turns) {
      if (await host.resumeTurn.resumable(turn.id)) {
        // One survivor takes it (its lease), and resumes it; another's claim leaves it to that one.
        const ours = turn.instance === instanceId() || (await state.leases.claimOrphan(turn));
        if (!ours || (await host.resumeTurn.resume(turn.id))) {
          if (ours) ended++;
          continue;
        }
      }
      const restarted = atStart && (turn.instance === null || turn.instance === instanceId());
      if (await host.endTurn(turn, restarted ? 'restart' : 'lost')) ended++;
      endedTurns.push(turn.id);
    }
    await state.leases.dropLeases(endedTurns);
    // The peer kept working on an orphaned follow: follow it from here (resubscribe, then poll).
    // Its lease moves to this instance when the follower starts (leaseWork).
    const resume = this.resumeFollow;
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
  private async takeOverOutboxes(state: ClusterState): Promise<void> {
    try {
      const taken = await state.leases.takeOverOutboxRows();
      state.outboxTakeoverDue = false;
      const got = OWNED_OUTBOXES.filter((outbox) => taken[outbox] > 0);
      if (!got.length) return;
      for (const outbox of got) {
        state.outboxTakenOver[outbox] += taken[outbox];
        this.outboxWork.get(outbox)?.kick();
      }
      log.warn('took over outbox rows whose instance is gone', { pushDeliveries: taken.PushDelivery, notifications: taken.NotificationDelivery });
    } catch (err) {
      state.outboxTakeoverDue = true;
      log.warn('taking over outbox rows failed; again at the next renewal', { error: errorMessage(err) });
    }
  }

  adoptOutbox(outbox: OwnedOutbox, work: OutboxWork): void {
    this.outboxWork.set(outbox, work);
  }

  /**
   * Registers how to resume a follow here, then resumes the follows nobody alive holds (this
   * instance's own from its previous life included), instead of every following task as a
   * single member does; they are counted in the health's `takenOver`, not here.
   */
  async resumeFollows(resume: FollowResumer): Promise<number> {
    this.resumeFollow = resume;
    if (this.state) await this.recoverOrphans(this.state, true);
    return 0;
  }

  leaseWork(taskId: string, done: Promise<void>): void {
    const leases = this.state?.leases;
    if (!leases) return;
    leases.leaseTurn(taskId);
    void done.finally(() => leases.releaseTurn(taskId));
  }

  /** Lease the turn, and stop it when another instance ends its task (a cancel there). */
  turnStarted(taskId: string, done: Promise<void>, watch: TurnWatch): void {
    const leases = this.state?.leases;
    leases?.leaseTurn(taskId);
    const unsubscribe = watch.stopOnEnd();
    void done.finally(() => {
      unsubscribe();
      // A resumable turn a shutdown stopped keeps its lease: once this instance has left (or at its
      // own next start), the turn is an orphan that is resumed (MemberHost.resumeTurn).
      if (watch.keepLease()) return;
      leases?.releaseTurn(taskId);
    });
  }

  async listen(channel: string, listener: ChannelListener): Promise<void> {
    await this.state?.relay.listen(channel, listener);
  }

  async broadcast(channel: string, payload: string): Promise<void> {
    await (await this.pool()).query({ name: 'sb_notify', text: 'SELECT pg_notify($1, $2)', values: [channel, payload] });
  }

  /**
   * After the shutdown drain: leave the cluster. The follows this instance stops are resumed by a
   * survivor; its outbox senders finish the attempts in flight, and its pending rows are
   * announced free, so a survivor takes them over at once instead of after a lease.
   */
  async leave(): Promise<void> {
    const state = this.state;
    if (!state) return;
    await state.relay.stop();
    await Promise.all([...this.outboxWork.values()].map((work) => work.stop()));
    await state.leases.retire(OUTBOX_RELEASED_CHANNEL).catch((err) => log.warn('could not retire this instance', { error: errorMessage(err) }));
  }

  private heldRows: { until: number; rows: ReturnType<PgLeases['heldOutboxRows']> } | null = null;

  /**
   * The outbox rows this instance holds, counted at most once a second and shared by every
   * health call meanwhile: probes every few milliseconds during a burst queued a query each on
   * the pool the burst's writes wait for (the detach bench's p99 was that queue).
   */
  private heldOutboxRows(leases: PgLeases): ReturnType<PgLeases['heldOutboxRows']> {
    const now = Date.now();
    if (this.heldRows && this.heldRows.until > now) return this.heldRows.rows;
    const rows = leases.heldOutboxRows();
    this.heldRows = { until: now + HEALTH_ROWS_TTL_MS, rows };
    rows.catch(() => (this.heldRows = null));
    return rows;
  }

  /** This instance's leases (turns, follows, outbox rows) and listener. */
  async health(): Promise<StoreHealth> {
    const state = this.state;
    if (!state) return { store: 'postgresql', instance: instanceId() };
    const unknown = { pending: null, inFlight: null };
    const held = await withinHealthTimeout(this.heldOutboxRows(state.leases), { PushDelivery: unknown, NotificationDelivery: unknown });
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
}
