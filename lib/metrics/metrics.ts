/**
 * The Prometheus metrics (prom-client), one registry per process. Each metric is counted at the
 * one place its event happens (the terminal claim, the detach, the follow loop, the commit), so
 * every path is counted once. Labels are bounded by configuration: agent slugs, peer names
 * (a direct-URL dispatch is `peer="(url)"`), states, reasons from a fixed set; never task ids.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { processSingleton } from '../process-singleton';

/** The peer label of a dispatch to a URL that is no configured peer (bounded cardinality). */
export const DIRECT_PEER = '(url)';

function create() {
  const registry = new Registry();
  // process_*, nodejs_* (event-loop lag: nodejs_eventloop_lag_seconds and its percentiles).
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    tasksCreated: new Counter({ name: 'switchboard_tasks_created_total', help: 'Tasks created, by direction and agent (inbound) or peer (outbound).', labelNames: ['direction', 'agent', 'peer'], registers }),
    tasksEnded: new Counter({ name: 'switchboard_tasks_ended_total', help: 'Tasks that reached a terminal state (the terminal claim), by state, direction and agent or peer.', labelNames: ['state', 'direction', 'agent', 'peer'], registers }),
    tasksByState: new Gauge({ name: 'switchboard_tasks', help: 'Tasks in the database by state and direction (counted at scrape time).', labelNames: ['state', 'direction'], registers }),
    detaches: new Counter({ name: 'switchboard_task_detaches_total', help: 'Inbound tasks detached from their caller, by agent and reason.', labelNames: ['agent', 'reason'], registers }),
    lateResults: new Counter({ name: 'switchboard_late_results_total', help: 'Detached inbound tasks whose turn ended after the detach (within the grace), by agent and state.', labelNames: ['agent', 'state'], registers }),
    graceExpiries: new Counter({ name: 'switchboard_grace_expiries_total', help: 'Detached inbound tasks failed because the late-result grace ran out, by agent.', labelNames: ['agent'], registers }),
    truncations: new Counter({ name: 'switchboard_task_truncations_total', help: 'Tasks ended by a bound (output limit, budget, iterations), by agent and kind.', labelNames: ['agent', 'kind'], registers }),
    followErrors: new Counter({ name: 'switchboard_follow_errors_total', help: 'Errors while following a peer task (recorded as follow-error events), by peer and phase.', labelNames: ['peer', 'phase'], registers }),
    followRetries: new Counter({ name: 'switchboard_follow_retries_total', help: 'Backoff waits before another attempt to follow a peer task, by peer.', labelNames: ['peer'], registers }),
    followReconnects: new Counter({ name: 'switchboard_follow_reconnects_total', help: 'Resubscribes and polls of a peer task after the first attempt, by peer and how.', labelNames: ['peer', 'how'], registers }),
    outboundDuration: new Histogram({
      name: 'switchboard_outbound_request_duration_seconds',
      help: 'Outbound A2A JSON-RPC calls: time to the whole answer (unary) or to the end of the stream, by peer, method and outcome.',
      labelNames: ['peer', 'method', 'outcome'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
      registers,
    }),
    runningTurns: new Gauge({ name: 'switchboard_running_turns', help: 'Agent turns running now, by agent; kind="launcher" turns each hold a launcher process (or a busy rpc worker).', labelNames: ['agent', 'kind'], registers }),
    quotaRefusals: new Counter({ name: 'switchboard_quota_refusals_total', help: 'Requests refused by a per-caller bound (QuotaExceeded), by limit (requests, open_tasks, stored_bytes, streams, push_configs).', labelNames: ['limit'], registers }),
    sseSubscribers: new Gauge({ name: 'switchboard_sse_subscribers', help: 'Open server-sent-event streams, by kind (dashboard, a2a).', labelNames: ['kind'], registers }),
    commitDuration: new Histogram({
      name: 'switchboard_write_commit_duration_seconds',
      help: 'Group commits of the task writer: one transaction per event-loop turn.',
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25],
      registers,
    }),
    commitWrites: new Counter({ name: 'switchboard_write_commit_writes_total', help: 'Writes committed by the task writer (a commit holds many).', registers }),
  };
}

export type Metrics = ReturnType<typeof create>;

/**
 * Process-level, not the app's: what it measures is the process (heap, CPU, GC pauses), and
 * collectDefaultMetrics installs process-wide observers, so a second app built in the same
 * process (a test) goes on counting into this registry instead of installing them twice.
 */
export function metrics(): Metrics {
  return processSingleton('metrics', create);
}

/** Labels of a task: its agent (inbound) or peer (outbound), the other empty. */
export function taskLabels(task: { direction: string; agentSlug?: string | null; peerName?: string | null }): { direction: string; agent: string; peer: string } {
  return task.direction === 'inbound'
    ? { direction: 'inbound', agent: task.agentSlug ?? '', peer: '' }
    : { direction: 'outbound', agent: '', peer: task.peerName ?? DIRECT_PEER };
}

/** The kind of bound an end reason names, or null when the end was no truncation. */
export function truncationKind(reason: string | undefined, metadata: Record<string, unknown> | undefined): string | null {
  if (reason?.startsWith('output limit exceeded')) return 'output-limit';
  if (reason?.includes('budget')) return 'budget';
  if (reason?.includes('iteration')) return 'iterations';
  return metadata?.truncated === true ? 'truncated' : null;
}
