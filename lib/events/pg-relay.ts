/**
 * Brings changes committed by other instances into this instance's event hub (PostgreSQL only).
 * A dedicated connection LISTENs on the events channel; a notification names task seq ranges
 * (pg-notify.ts), and the relay reads what the hub here needs from the tables, which are the
 * truth: the events after the last seq it published (for tasks someone follows here, so streams
 * and waiters see them in seq order without gaps), or only the task row (for the dashboard feed).
 * Nothing is read for tasks nobody here looks at.
 *
 * A missed notification delays, never loses: while the connection is down nothing is lost in
 * the tables, and after reconnecting the relay catches up (followed tasks from their cursor,
 * the feed from the tasks changed since the connection dropped). Followers dedupe by seq
 * (observe.ts), so an event read twice is shown once.
 */
import pg from 'pg';
import { findTask, findTasksUpdatedSince, listEvents } from '../db/task-repo';
import { EVENTS_CHANNEL, parseNotifyPayload, type TaskSeqRange } from '../db/pg-notify';
import type { EventHub } from './hub';
import { errorMessage, log } from '../log';

const MAX_BACKOFF_MS = 5_000;
const CATCH_UP_LIMIT = 1_000;

export interface RelayStatus {
  state: 'connecting' | 'listening' | 'reconnecting' | 'stopped';
  since: string;
  notifications: number;
  relayedChanges: number;
  reconnects: number;
  lastError?: string;
}

/** Another channel the relay's connection listens on, with what to do on a message and after a gap. */
export interface ChannelListener {
  onMessage: (payload: string) => void;
  /** After a reconnect: messages may have been missed meanwhile. */
  onGap: () => void;
}

export class PgEventRelay {
  private client: pg.Client | null = null;
  private readonly channels = new Map<string, ChannelListener>();
  /** The last seq published here per followed task (entries go when nobody follows it). */
  private readonly cursors = new Map<string, number>();
  /** Per-task chain, so a task's relayed changes are read and published in order. */
  private readonly chains = new Map<string, Promise<void>>();
  private disconnectedAt: Date | null = null;
  private backoffMs = 250;
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
    const client = new pg.Client({ connectionString: this.url });
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
    this.backoffMs = 250;
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
    log.warn('event listener lost its connection; reconnecting', { error: errorMessage(err), inMs: this.backoffMs });
    client.end().catch(() => undefined);
    setTimeout(() => void this.connect(), this.backoffMs).unref();
    this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
  }

  private onNotification(payload: string): void {
    this.status.notifications++;
    const { instance, ranges } = parseNotifyPayload(payload);
    if (instance === this.instance) return; // published here when it committed
    for (const range of ranges) this.enqueue(range.taskId, () => this.relay(range));
  }

  private enqueue(taskId: string, step: () => Promise<void>): void {
    const next = (this.chains.get(taskId) ?? Promise.resolve()).then(step).catch((err) => log.warn('relaying a change failed', { taskId, error: errorMessage(err) }));
    this.chains.set(taskId, next);
    void next.finally(() => {
      if (this.chains.get(taskId) === next) this.chains.delete(taskId);
    });
  }

  private async relay(range: Pick<TaskSeqRange, 'taskId' | 'fromSeq'>): Promise<void> {
    const interest = this.hub.remoteInterest(range.taskId);
    if (interest !== 'events') this.cursors.delete(range.taskId);
    if (!interest) return;
    if (interest === 'row') {
      const task = await findTask(range.taskId);
      if (task) this.publish({ task, events: [], remote: true });
      return;
    }
    const after = this.cursors.get(range.taskId) ?? range.fromSeq - 1;
    const events = await listEvents(range.taskId, after);
    const task = await findTask(range.taskId);
    if (!task || !events.length) return;
    this.cursors.set(range.taskId, events[events.length - 1].seq);
    this.publish({ task, events, remote: true });
  }

  private publish(change: Parameters<EventHub['publish']>[0]): void {
    this.status.relayedChanges++;
    this.hub.publish(change);
  }

  /** After a gap in listening: everything the hub here needs that changed meanwhile. */
  private async catchUp(since: Date): Promise<void> {
    for (const taskId of this.hub.followedTasks()) this.enqueue(taskId, () => this.relay({ taskId, fromSeq: 1 }));
    if (this.hub.remoteInterest('') !== 'row') return;
    try {
      const changed = await findTasksUpdatedSince(new Date(since.getTime() - 1_000), CATCH_UP_LIMIT);
      for (const task of changed) if (!this.hub.followedTasks().includes(task.id)) this.publish({ task, events: [], remote: true });
    } catch (err) {
      log.warn('event listener catch-up failed', { error: errorMessage(err) });
    }
  }
}
