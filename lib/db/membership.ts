/**
 * Membership: how this instance relates to the others on its database, an operation of the
 * Store port (store.ts) rather than a question callers ask. A SQLite file has one member
 * (sqlite/single-member.ts): all work in it is this process's. A PostgreSQL database may be
 * shared by several instances (postgres/cluster-member.ts): each holds a lease, leases its
 * running turns and follows, sends only the outbox rows it owns, and takes over the work of
 * instances that are gone. Boot, the outbound client, push and notify call these operations the
 * same way on both; the implementations differ.
 *
 * The members live below the engine (lib/db), so what they need of it (ending a turn, the
 * event relay) is lent to them at `join` (MemberHost, built by lib/runtime/member-host.ts).
 */
import type { OrphanedTurn, OwnedOutbox } from './postgres/leases';

export type { OrphanedTurn, OwnedOutbox };

/** The end reason of a turn whose instance stopped renewing its lease while it ran. */
export const INSTANCE_LOST = 'interrupted: instance lost';

/** Another channel the relay's connection listens on, with what to do on a message and after a gap. */
export interface ChannelListener {
  onMessage: (payload: string) => void;
  /** After a reconnect: messages may have been missed meanwhile. */
  onGap: () => void;
}

export interface RelayStatus {
  state: 'connecting' | 'listening' | 'reconnecting' | 'stopped';
  since: string;
  notifications: number;
  relayedChanges: number;
  reconnects: number;
  lastError?: string;
}

/** The relay of other instances' commits into this process's event hub (lib/events/pg-relay.ts). */
export interface MemberRelay {
  readonly status: RelayStatus;
  start(): Promise<void>;
  listen(channel: string, listener: ChannelListener): Promise<void>;
  stop(): Promise<void>;
}

/** How an orphaned inbound turn of a `resumable` agent (a relay) is resumed here instead of ended. */
export interface TurnResumer {
  resumable(taskId: string): Promise<boolean>;
  /** False when it cannot be resumed after all (it is then ended as any orphan). */
  resume(taskId: string): Promise<boolean>;
}

/** Starts following an outbound task here again; false when it was already followed. */
export type FollowResumer = (taskId: string) => boolean;

/** An outbox's sender (lib/push, lib/notify): woken after a takeover, stopped on leaving. */
export interface OutboxWork {
  kick(): void;
  stop(): Promise<void>;
}

/** What the engine lends a member when it joins (the member may not import the engine). */
export interface MemberHost {
  /** Alone on the database: end or resume every turn a previous life of this process left. */
  recoverAlone(): Promise<void>;
  /** A turn of this task runs in this process. */
  runsHere(taskId: string): boolean;
  /**
   * Ends an orphaned turn FAILED through the terminal claim; true when this call ended it.
   * `restart`: this instance's own turn from a previous life; `lost`: its instance is gone.
   */
  endTurn(turn: OrphanedTurn, cause: 'restart' | 'lost'): Promise<boolean>;
  /** Resumes an orphaned relay turn instead of ending it. */
  resumeTurn: TurnResumer;
  /** The relay of other instances' commits into this process's hub. */
  openRelay(): MemberRelay;
}

/** A turn that started here, as its member sees it. */
export interface TurnWatch {
  /** Stops the turn here when any instance ends its task; returns the unsubscribe. */
  stopOnEnd(): () => void;
  /** Asked at the turn's end: keep its lease (a resumable turn that a shutdown stopped). */
  keepLease(): boolean;
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

export interface Membership {
  /** Why this instance may not start with its key for stored secrets (`secretKey` unset), or null. */
  secretKeyProblem(secretKey: string | undefined): string | null;
  /** Start-up: recover the work a previous life (or a gone instance) left, and join. */
  join(host: MemberHost): Promise<void>;
  /** The outbound client's start: follow again the outbound tasks that are this member's to follow; how many started. */
  resumeFollows(resume: FollowResumer): Promise<number>;
  /** An outbox sender of this instance: woken when rows are taken over, stopped on leaving. */
  adoptOutbox(outbox: OwnedOutbox, work: OutboxWork): void;
  /** A turn started here (run-turn.ts). */
  turnStarted(taskId: string, done: Promise<void>, watch: TurnWatch): void;
  /** Work running here on a task (an outbound follow) until `done`. */
  leaseWork(taskId: string, done: Promise<void>): void;
  /**
   * A message to every instance (`broadcast`), and this instance's listener for them: small facts
   * another instance must know at once (a push config was registered). After a reconnect `onGap`
   * says some may have been missed. A single member has nobody to tell.
   */
  listen(channel: string, listener: ChannelListener): Promise<void>;
  broadcast(channel: string, payload: string): Promise<void>;
  /** After the shutdown drain: leave, so others take over at once what this instance held. */
  leave(): Promise<void>;
  /** For GET /api/health. */
  health(): Promise<StoreHealth>;
}
