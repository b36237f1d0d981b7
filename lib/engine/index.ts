/**
 * The engine's one entry for code outside lib/engine: the task service the adapters (A2A
 * bindings, REST routes, dashboard, MCP, CLI) and the start-up wiring use. The agent-runner
 * contract is not the engine's: it is lib/agent-runner.ts, below the launchers and agents.
 * tests/layering/import-graph.test.ts fails when outside code imports a file behind it, so the
 * files inside can be split, merged or moved without touching an adapter (decision 290).
 * Inside, core/ (a task's state) sits below inbound/ and outbound/, which never import each
 * other; cancel.ts and relay/ join the two (decisions 327 and 328, checked by the same test).
 *
 * Named re-exports only, grouped by what the caller does: a new operation is a deliberate line
 * here, not whatever a file happens to export. Server-only: browser code reads the wire shapes
 * of lib/protocol and lib/dashboard/*-wire.ts, never this module (the layering test checks it).
 */

// A2A task operations on our served agents, each in the caller's scope.
export { getTask, resubscribe, startSend, streamMessage, timingFor } from './inbound/operations';
export type { GenerationWait, SendMode, SendRequest, StreamBatch } from './inbound/operations';
export { cancel } from './cancel';
export type { CancelDoor, CancelOrigin } from './cancel';

// The operator's outbound dispatch (dashboard, REST, MCP, CLI).
export { dispatchTask, DispatchRequestSchema } from './outbound/dispatch';
export type { DispatchAnswer, DispatchExtras, DispatchRequest } from './outbound/dispatch';

// Reading a task: its A2A snapshot, its live events, its remote children.
export { buildTask } from './core/snapshot';
export { observeTask } from './core/observe';
export type { ObservationEnd, ObserveOptions } from './core/observe';
export { toStreamEvent } from './inbound/stream-events';
export { readRemoteChildren } from './outbound/remote-children';
export type { RemoteChildren } from './outbound/remote-children';

// Start-up and shutdown: recovery, resumption, relays, draining.
export { drainAndStop, INTERRUPTED_RESTART, isAcceptingWork, recoverInterruptedTasks } from './inbound/lifecycle';
export { resumeStrandedTurns, turnResumer } from './inbound/resume-turn';
export { startOutboundClient } from './outbound/resume';
export { startRelays } from './relay';

// What the store's membership borrows (lib/runtime/member-host.ts) and metrics read: the turns
// running here, and the one terminal claim to end one a lost instance left.
export { executions } from './core/executions';
export { claimTerminal } from './core/task-writer';
export { agentText } from './core/messages';

// The engine's per-app state, built by the composition root (lib/app/parts.ts).
export { ExecutionRegistry } from './core/executions';
export { OutputMeter } from './core/output-limit';
export { FollowerRegistry } from './outbound/follow-registry';
