/**
 * The contract between the task engine and whatever does the work for a served agent:
 * built-in agents (lib/agents), launchers (lib/launchers) and relays (lib/engine/relay) implement
 * AgentRunner. It sits below all of them in the layer order (decision 329), so a launcher names
 * no part of the engine, not even its types.
 *
 * The engine owns the task: it creates the row, records every event, applies the response
 * window, detaches, and decides the end through claimTerminal. A runner only performs one turn
 * and reports what happened; it never writes task state itself.
 */
import type { Artifact, ArtifactChunk, Message, Part } from './protocol/types';
import type { AgentExtension } from './protocol/extensions';
import type { TraceContext } from './protocol/trace-context';

export interface TurnEmitter {
  /** A progress status update (state stays `working`). */
  progress(text: string, metadata?: Record<string, unknown>): Promise<void>;
  /** An artifact chunk; append:true chunks accumulate by artifactId. */
  artifact(chunk: ArtifactChunk): Promise<void>;
  /** Chunks that arrived together (a relay's batch), in order, in one write. */
  artifacts(chunks: ArtifactChunk[]): Promise<void>;
}

export interface AgentTurn {
  taskId: string;
  contextId: string;
  /** The user message that started this turn. */
  message: Message;
  /** Earlier messages of the task (oldest first), not including `message`. */
  history: Message[];
  /** Caller identity as far as we know it (API key name, or "anonymous"). */
  peer: string;
  /** Who owns the task (and its context): the creating API key's id, or "anonymous". */
  owner: string;
  /** Aborted when the task is cancelled, its grace runs out, or the server shuts down. */
  readonly signal: AbortSignal;
  emit: TurnEmitter;
  /** Which turn of the task this is: 1 for the message that created it, 2 for the first answer after input-required, … */
  turnNumber: number;
  /** The conversation before this message, read on demand (a runner that needs none pays nothing). */
  conversation(bounds: ConversationBounds): Promise<Conversation>;
  /**
   * The turn was running when the hub stopped and boot resumed it (only for a `resumable`
   * agent): `message` is the turn's message, and the runner continues instead of starting over.
   */
  resumed?: boolean;
  /**
   * The hub minted this task's context for it (the caller named none, or one it may not join):
   * no earlier task is in it, so a runner that would look for one need not (a relay's peer context).
   */
  freshContext?: boolean;
}

/** How much of the conversation a runner takes: items are messages and artifacts, bytes their JSON. */
export interface ConversationBounds {
  maxItems: number;
  maxBytes: number;
}

export type ContextArtifact = Artifact & { taskId: string };

/**
 * The context's conversation before the current message: the earlier messages of this agent's
 * tasks in the context (the current task's included), oldest first, and those tasks'
 * artifacts. Within the bounds the oldest items are dropped first; `truncated` says so.
 */
export interface Conversation {
  messages: Message[];
  artifacts: ContextArtifact[];
  truncated: boolean;
}

/**
 * How a turn ended. `failed` always carries a reason: a truncated run (budget, iterations,
 * time, output cap) is `failed`, never `completed`.
 */
export type TurnOutcome =
  | {
    state: 'completed';
    parts?: Part[];
    metadata?: Record<string, unknown>;
    /**
       * Chunks recorded with the completion, in the same transaction: for a result that is
       * ready only at the end, one write instead of an emit and then the end (bench scenario 1).
       */
    artifacts?: ArtifactChunk[];
  }
  | { state: 'input-required'; parts: Part[]; metadata?: Record<string, unknown> }
  /**
   * A direct message instead of a task result, as A2A allows: a caller still waiting for this
   * turn receives a Message, not a Task; the task is recorded completed with it (decisions.md).
   */
  | { state: 'message'; parts: Part[]; metadata?: Record<string, unknown> }
  | { state: 'failed'; reason: string; parts?: Part[]; metadata?: Record<string, unknown> }
  | { state: 'rejected'; reason: string; parts?: Part[]; metadata?: Record<string, unknown> };

export interface AgentRunner {
  runTurn(turn: AgentTurn): Promise<TurnOutcome>;
  /**
   * The runner may end a turn with a direct message (`state: 'message'`). A stream then holds
   * the task snapshot until the turn's first event, so a reply that comes first is sent alone.
   */
  mayReplyWithMessage?: boolean;
  /**
   * The turn reads and changes nothing but its own task (no process, peer, file or other task),
   * so it may start before its task's creation has committed: a first turn that ends at once
   * (echo) queues its end with the creation, and both commit in one transaction (decision 425).
   * A crash before that commit leaves nothing, as it did before the creation committed.
   */
  touchesOnlyItsTask?: boolean;
  /** Releases long-lived resources (rpc workers). Called at shutdown. */
  close?(): Promise<void>;
  /**
   * Work of a task's first turn that can be written in the task's own first commit (a relay's
   * child task: decision 371). Called before the task is created (it may read); null: none.
   */
  prepareFirstTurn?(facts: FirstTurnFacts): Promise<FirstTurnWork | null>;
}

/** What a first turn's preparation knows before its task exists. */
export interface FirstTurnFacts {
  message: Message;
  owner: string;
  /** The task's context is minted for it (no earlier task in it). */
  freshContext: boolean;
}

/** Prepared work: issued with the task's creation, started once both committed. */
export interface FirstTurnWork {
  /** Issues the work's write; called in the same event-loop turn as the task's creation (one group commit). */
  begin(task: { id: string; contextId: string; traceContext: TraceContext | null }): FirstTurnBegun;
}

export interface FirstTurnBegun {
  /** Both committed: start it (the turn then finds it). */
  start(): Promise<void>;
  /** The task was not created: undo what was written, nothing having been sent. */
  abandon(reason: string): Promise<void>;
}

export interface AgentSkill {
  id: string;
  name: string;
  description: string;
  tags: string[];
  examples?: string[];
}

/** A served agent: card facts, timing overrides and the runner. */
export interface ServedAgent {
  slug: string;
  name: string;
  description: string;
  skills: AgentSkill[];
  /** Skills only the extended card lists (config `extendedSkills`); set: the agent has an extended card. */
  extendedSkills?: AgentSkill[];
  /** Overrides SWITCHBOARD_RESPONSE_WINDOW for this agent (ms). */
  responseWindowMs?: number;
  /** Overrides SWITCHBOARD_LATE_RESULT_GRACE for this agent (ms). */
  lateResultGraceMs?: number;
  /** The media types its messages' parts may have (the card's defaultInputModes); unset: DEFAULT_INPUT_MODES. */
  inputModes?: readonly string[];
  /** Extensions the agent's card declares beside Switchboard's timing extension. */
  extensions?: AgentExtension[];
  runner: AgentRunner;
  /** A command-line agent (lib/launchers): each running turn holds a child process. */
  launcher?: boolean;
  /** A relay agent (docs/relay.md): its turns are done by this configured peer. */
  relay?: { peer: string };
  /**
   * Its running turns survive a restart: boot resumes them (AgentTurn.resumed) instead of ending
   * them `interrupted: restart`, and a shutdown leaves them running instead of failing them.
   */
  resumable?: boolean;
  /** A relay agent's card facts the config left open: taken from the peer's card (lib/engine/relay/card.ts). */
  cardDefaults?: { name: boolean; description: boolean; skills: boolean };
}
