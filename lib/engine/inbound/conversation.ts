/**
 * A turn's conversation so far (AgentTurn.conversation): the context's earlier messages and its
 * tasks' artifacts, for a runner that starts fresh on an existing context (a new rpc worker
 * after an idle close or a restart, a CLI that reads its history from stdin).
 *
 * Items are ordered task by task (oldest task first), each task's messages then its artifacts
 * (an accumulated artifact has no single time). The bounds keep the newest items: the oldest are
 * dropped first, and `truncated` says that something was.
 */
import type { Conversation, ConversationBounds, ContextArtifact } from '../../agent-runner';
import { listContextTasks, listMessagesOfTasks, type ContextTaskRow } from '../../db/conversation-repo';
import { listEvents, listStoredArtifacts } from '../../db/task-repo';
import { accumulateArtifacts } from '../../protocol/artifacts';
import type { ArtifactChunk, Message } from '../../protocol/types';
import { isTerminalState } from '../../protocol/types';

export interface ConversationOf {
  taskId: string;
  contextId: string;
  agentSlug: string;
  /** Only this owner's tasks: a context never carries another caller's conversation. */
  owner: string;
  /** The message that starts this turn: not part of its own history. */
  messageId: string;
}

type Item = { kind: 'message'; value: Message; bytes: number } | { kind: 'artifact'; value: ContextArtifact; bytes: number };

const EMPTY: Conversation = { messages: [], artifacts: [], truncated: false };

export async function loadConversation(of: ConversationOf, bounds: ConversationBounds): Promise<Conversation> {
  if (bounds.maxItems <= 0 || bounds.maxBytes <= 0) return EMPTY;
  // One more than needed of each read tells whether anything older exists.
  const tasks = (await listContextTasks(of.contextId, of.agentSlug, of.owner, bounds.maxItems + 1)).reverse();
  const olderTasks = tasks.length > bounds.maxItems;
  const kept = olderTasks ? tasks.slice(1) : tasks;
  const messages = (await listMessagesOfTasks(kept.map((t) => t.id), bounds.maxItems + 2))
    .filter((m) => !(m.taskId === of.taskId && m.messageId === of.messageId))
    .reverse();
  const items: Item[] = [];
  for (const task of kept) {
    for (const message of messages) if (message.taskId === task.id) items.push(item('message', message));
    for (const artifact of await artifactsOf(task)) items.push(item('artifact', artifact));
  }
  const within = newestWithin(items, bounds);
  return {
    messages: within.flatMap((i) => (i.kind === 'message' ? [i.value] : [])),
    artifacts: within.flatMap((i) => (i.kind === 'artifact' ? [i.value] : [])),
    truncated: olderTasks || messages.length > bounds.maxItems || within.length < items.length,
  };
}

function item<K extends Item['kind']>(kind: K, value: Extract<Item, { kind: K }>['value']): Item {
  return { kind, value, bytes: Buffer.byteLength(JSON.stringify(value)) } as Item;
}

/** The longest run of newest items that fits both bounds. */
function newestWithin(items: Item[], bounds: ConversationBounds): Item[] {
  let bytes = 0;
  let start = items.length;
  while (start > 0 && items.length - start < bounds.maxItems && bytes + items[start - 1].bytes <= bounds.maxBytes) {
    bytes += items[--start].bytes;
  }
  return items.slice(start);
}

/** Materialised once a task ended; accumulated from its event log while it runs or waits. */
async function artifactsOf(task: ContextTaskRow): Promise<ContextArtifact[]> {
  const artifacts = isTerminalState(task.state)
    ? await listStoredArtifacts(task.id)
    : accumulateArtifacts((await listEvents(task.id, 0, ['artifact'])).map((e) => e.payload as ArtifactChunk));
  return artifacts.map((a) => ({ ...a, taskId: task.id }));
}
