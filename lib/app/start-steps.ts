/**
 * Start-up, in order (docs/architecture.md lists these steps). The root calls each subsystem's
 * start itself, so start-up sits above them all in the layer order and none registers a hook.
 */
import type { Settings } from '../config/settings';
import { cardKeys } from '../auth/card-keys';
import { loadRevokedSessions } from '../auth/revocations';
import { agentRegistry, defaultAgentProblem, reapOrphanedLaunches } from '../agents/registry';
import { startPruner, type Pruner } from '../db/pruner';
import { startOutboundClient, startRelays } from '../engine';
import { applyHeapGrowth } from './heap-growth';
import { NotificationConfigError, startNotifications } from '../notify';
import { ensurePushDelivery } from '../push/push-delivery';
import { memberHost } from '../runtime/member-host';
import { refuseToStart } from '../runtime/refuse';
import { checkStoredSecrets, secretKeyConfigProblem } from '../runtime/stored-secrets';
import { applyServerTimeouts, listeningHttpServers } from '../server/http-timeouts';
import { answerHealthFirst } from '../server/health-first';
import { startTracing } from '../tracing/provider';
import { errorMessage, log } from '../log';
import { checkExposure } from './start-checks';
import type { Parts } from './parts';

/** What start-up began that the stop must end. */
export interface Started {
  pruner: Pruner;
  stopGrpc: (() => Promise<void>) | null;
}

/**
 * The gRPC binding, when its port is configured. Its modules (grpc-js and the SDK's generated
 * codec, ~4 MB of heap and twice that in resident memory under load) are loaded only then: a hub
 * without the port never runs them (decision 408).
 */
async function startGrpcBinding(settings: Settings): Promise<(() => Promise<void>) | null> {
  if (settings.grpcPort === undefined) return null;
  const { startGrpcServer } = await import('../server/grpc-server');
  return startGrpcServer();
}

/** A step after recovery whose failure is logged, not fatal (as before: the hub still serves). */
async function tolerated<T>(name: string, step: () => Promise<T>): Promise<T | null> {
  try {
    return await step();
  } catch (err) {
    log.error(`start-up step failed: ${name}`, { error: errorMessage(err) });
    return null;
  }
}

export async function startSteps(settings: Settings, parts: Parts): Promise<Started> {
  applyHeapGrowth(settings.heapGrowthPercent);
  await startTracing();
  await parts.store.ready;
  // Before anything reads a stored secret: one key for the cluster, plaintext and previous-key rows sealed again.
  const keyProblem = secretKeyConfigProblem() ?? (await checkStoredSecrets());
  if (keyProblem) refuseToStart(keyProblem);
  await checkExposure(settings);
  // A card signing key that cannot be read would fail every card request: refuse the start instead.
  await cardKeys().catch((err) => refuseToStart(`agent card signing keys: ${(err as Error).message}`));
  // Before recovery, so the tasks it ends are notified too; invalid rules refuse the start.
  await startNotifications().catch((err) => (err instanceof NotificationConfigError ? refuseToStart(err.message) : Promise.reject(err)));
  const registry = agentRegistry();
  const defaultProblem = defaultAgentProblem();
  if (defaultProblem) refuseToStart(defaultProblem);
  await reapOrphanedLaunches();
  startRelays(); // before recovery: stranded relay turns are resumed, not ended
  // Alone (SQLite) every stranded turn is ours; sharing a PostgreSQL only those nobody alive holds.
  await parts.store.membership.join(memberHost());
  ensurePushDelivery();
  const pruner = startPruner({ outboxMs: settings.outboxRetentionMs, taskMs: settings.taskRetentionMs, auditMs: settings.auditRetentionMs });
  await tolerated('outbound following', startOutboundClient); // sync configured and built-in peers, then resume following
  await tolerated('logged-out sessions', loadRevokedSessions);
  // First, so it wraps only Next's handler: the hooks below still see every request (decisions 378, 395).
  for (const server of listeningHttpServers()) answerHealthFirst(server);
  applyServerTimeouts();
  // SWITCHBOARD_GRPC_PORT: the A2A gRPC binding on a port of its own (a port in use refuses the start).
  const stopGrpc = await tolerated('gRPC binding', () => startGrpcBinding(settings));
  log.info('switchboard ready', {
    store: parts.store.kind,
    host: settings.host,
    port: settings.port,
    agents: [...registry.agents.keys()],
    configErrors: registry.configErrors.length,
    responseWindowMs: settings.responseWindowMs,
    lateResultGraceMs: settings.lateResultGraceMs,
    clientTimeoutMs: settings.clientTimeoutMs,
    nodeFlags: process.execArgv, // npm start's V8 flags (scripts/server-node-flags.json), or the launcher's own
  });
  return { pruner, stopGrpc };
}
