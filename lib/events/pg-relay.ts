/**
 * Brings changes committed by other instances into this instance's event hub (PostgreSQL only).
 * A dedicated connection LISTENs on the events channel; a notification names task seq ranges
 * (postgres/notify.ts), and the relay reads what the hub here needs from the tables, which are the
 * truth: the events after the last seq it published (for tasks someone follows here, so streams
 * and waiters see them in seq order without gaps), or only the task row (for the dashboard feed).
 * Nothing is read for tasks nobody here looks at.
 *
 * Reads are coalesced: the tasks named by every notification that arrived while the previous
 * read was in flight are read together, with two statements sent in one round trip (their
 * events after each cursor, then their rows), not two per task: at 100 task changes a second the relay makes a few reads
 * a second instead of hundreds, and a burst of notifications costs one read more, not one per
 * change. One read at a time, so each task's changes are published in seq order.
 *
 * A missed notification delays, never loses: while the connection is down nothing is lost in
 * the tables, and after reconnecting the relay catches up (followed tasks from their cursor,
 * the feed from the tasks changed since the connection dropped). Followers dedupe by seq
 * (observe.ts), so an event read twice is shown once.
 */
import type pg from 'pg';
import { findTasksUpdatedSince, readChanges } from '../db/task-repo';
import type { StoredEvent } from '../db/task-records';
import { EVENTS_CHANNEL, parseNotifyPayload, type TaskSeqRange } from '../db/postgres/notify';
import { pgApplicationName, pgDriver } from '../db/postgres/pool';
import type { EventHub } from './hub';
import type { ChannelListener, MemberRelay, RelayStatus } from '../db/membership';
import { errorMessage, log } from '../log';
import { Backoff } from '../util/backoff';

const MAX_BACKOFF_MS = 5_000;
const CATCH_UP_LIMIT = 1_000;

export type { ChannelListener, RelayStatus };

export class PgEventRelay implements MemberRelay {
  private client: pg.Client | null = null;
  private readonly channels = new Map<string, ChannelListener>();
  /** The last seq published here per followed task (entries go when nobody follows it). */
  private readonly cursors = new Map<string, number>();
  /** Tasks named since the last read, with the lowest seq named for each. */
  private pending = new Map<string, number>();
  private reading = false;
  private disconnectedAt: Date | null = null;
  private readonly backoff = new Backoff({ initialMs: 250, maxMs: MAX_BACKOFF_MS });
  private stopped = false;
  readonly status: RelayStatus = { state: 'connecting', since: new Date().toISOString(), notifications: 0, relayedChanges: 0, reconnects: 0 };

  constructor(
    private readonly url: string,
    private readonly instance: string,
    private readonly hub: EventHub,
  ) {}

  async start(): Promise<void> {
    await this.connect();
  }

  /** Listens on `channel` too (a plain identifier), now and after every reconnect. */
  async listen(channel: string, listener: ChannelListener): Promise<void> {
    this.channels.set(channel, listener);
    await this.client?.query(`LISTEN ${channel}`).catch(() => undefined); // else on the next connect
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.setState('stopped');
    await this.client?.end().catch(() => undefined);
  }

  private setState(state: RelayStatus['state'], error?: string): void {
    this.status.state = state;
    this.status.since = new Date().toISOString();
    if (error) this.status.lastError = error;
  }

  private async connect(): Promise<void> {
    const client = new (pgDriver().Client)({ connectionString: this.url, application_name: pgApplicationName(this.instance, 'listener') });
    this.client = client;
    client.on('notification', (msg) => {
      if (msg.channel === EVENTS_CHANNEL && msg.payload) this.onNotification(msg.payload);
      else if (msg.payload) this.channels.get(msg.channel)?.onMessage(msg.payload);
    });
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN ${EVENTS_CHANNEL}`);
      for (const channel of this.channels.keys()) await client.query(`LISTEN ${channel}`);
    } catch (err) {
      this.lost(client, err);
      return;
    }
    this.backoff.reset();
    this.setState('listening');
    if (this.disconnectedAt) {
      const since = this.disconnectedAt;
      this.disconnectedAt = null;
      void this.catchUp(since);
      for (const listener of this.channels.values()) listener.onGap();
    }
  }

  private lost(client: pg.Client, err: unknown): void {
    if (this.client !== client || this.stopped) return;
    this.client = null;
    this.disconnectedAt ??= new Date();
    this.status.reconnects++;
    this.setState('reconnecting', errorMessage(err));
    const inMs = this.backoff.next();
    log.warn('event listener lost its connection; reconnecting', { error: errorMessage(err), inMs });
    client.end().catch(() => undefined);
    setTimeout(() => void this.connect(), inMs).unref();
  }

  private onNotification(payload: string): void {
    this.status.notifications++;
    const { instance, ranges } = parseNotifyPayload(payload);
    if (instance === this.instance) return; // published here when it committed
    for (const range of ranges) this.enqueue(range);
  }

  private enqueue(range: Pick<TaskSeqRange, 'taskId' | 'fromSeq'>): void {
    const known = this.pending.get(range.taskId);
    this.pending.set(range.taskId, known === undefined ? range.fromSeq : Math.min(known, range.fromSeq));
    if (this.reading) return;
    this.reading = true;
    void this.drain();
  }

  /** Reads and publishes what is pending, again and again until nothing is. */
  private async drain(): Promise<void> {
    while (this.pending.size) {
      const named = this.pending;
      this.pending = new Map();
      try {
        await this.relay(named);
      } catch (err) {
        log.warn('relaying changes failed', { tasks: named.size, error: errorMessage(err) });
      }
    }
    this.reading = false;
  }

  private async relay(named: Map<string, number>): Promise<void> {
    const followed: { taskId: string; afterSeq: number }[] = [];
    const rowsOnly: string[] = [];
    for (const [taskId, fromSeq] of named) {
      const interest = this.hub.remoteInterest(taskId);
      if (interest !== 'events') this.cursors.delete(taskId);
      if (interest === 'events') followed.push({ taskId, afterSeq: this.cursors.get(taskId) ?? fromSeq - 1 });
      else if (interest === 'row') rowsOnly.push(taskId);
    }
    if (!followed.length && !rowsOnly.length) return;
    // Events first, then the rows: a row is then at least as new as the events read for it.
    const read = await readChanges(followed, [...followed.map((f) => f.taskId), ...rowsOnly]);
    const byTask = new Map<string, StoredEvent[]>();
    for (const event of read.events) {
      const list = byTask.get(event.taskId);
      if (list) list.push(event);
      else byTask.set(event.taskId, [event]);
    }
    const tasks = new Map(read.tasks.map((t) => [t.id, t]));
    for (const { taskId } of followed) {
      const task = tasks.get(taskId);
      const mine = byTask.get(taskId);
      if (!task || !mine) continue;
      this.cursors.set(taskId, mine[mine.length - 1].seq);
      this.publish({ task, events: mine, remote: true });
    }
    for (const taskId of rowsOnly) {
      const task = tasks.get(taskId);
      if (task) this.publish({ task, events: [], remote: true });
    }
  }

  private publish(change: Parameters<EventHub['publish']>[0]): void {
    this.status.relayedChanges++;
    this.hub.publish(change);
  }

  /** After a gap in listening: everything the hub here needs that changed meanwhile. */
  private async catchUp(since: Date): Promise<void> {
    for (const taskId of this.hub.followedTasks()) this.enqueue({ taskId, fromSeq: 1 });
    if (this.hub.remoteInterest('') !== 'row') return;
    try {
      const changed = await findTasksUpdatedSince(new Date(since.getTime() - 1_000), CATCH_UP_LIMIT);
      for (const task of changed) if (!this.hub.followedTasks().includes(task.id)) this.publish({ task, events: [], remote: true });
    } catch (err) {
      log.warn('event listener catch-up failed', { error: errorMessage(err) });
    }
  }
}
