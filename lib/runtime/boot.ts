/**
 * Process start-up, once: validate configuration, migrate the database, refuse an exposed bind
 * without auth, end tasks a crash interrupted, resume following outbound tasks, and install the
 * SIGTERM drain. Called from instrumentation.ts and, defensively, before serving requests.
 */
import { getSettings, isLoopbackHost, SettingsError } from '../config/settings';
import { store } from '../db/store';
import { memberHost } from './member-host';
import { countApiKeys } from '../db/key-repo';
import { cardKeys } from '../auth/card-keys';
import { checkStoredSecrets, secretKeyConfigProblem } from './stored-secrets';
import { agentRegistry, defaultAgentProblem, reapOrphanedLaunches } from '../agents/registry';
import { applyHeapGrowth, drainAndStop, startRelays } from '../engine';
import { ensurePushDelivery } from '../push/push-delivery';
import { startPruner } from '../db/pruner';
import { NotificationConfigError, startNotifications } from '../notify';
import { processSingleton } from '../process-singleton';
import { flushTracing, startTracing } from '../tracing/provider';
import { errorMessage, log } from '../log';

type BootHook = () => Promise<void>;
const hooks = () => processSingleton<BootHook[]>('boot-hooks', () => []);

/** Lets other subsystems (outbound following) run at boot without the engine importing them. */
export function onBoot(hook: BootHook): void {
  hooks().push(hook);
}

type ShutdownHook = () => Promise<void>;
const shutdownHooks = () => processSingleton<ShutdownHook[]>('shutdown-hooks', () => []);

/** Runs after the drain, before the process exits (a listener of its own closes there). */
export function onShutdown(hook: ShutdownHook): void {
  shutdownHooks().push(hook);
}

/** Stops start-up with a message naming what to fix (also for boot hooks: a port in use). */
export function refuseToStart(message: string): never {
  return fatal(message);
}

function fatal(message: string): never {
  log.error('refusing to start', { reason: message });
  process.stderr.write(`\nSwitchboard cannot start:\n${message}\n\n`);
  process.exit(1);
}

async function checkExposure(): Promise<void> {
  const settings = getSettings();
  if (isLoopbackHost(settings.host)) return;
  const missing: string[] = [];
  if ((await countApiKeys()) === 0 && !settings.oidc) missing.push('create an inbound API key (npm run keys -- create <name>) or set SWITCHBOARD_OIDC_ISSUERS');
  if (!settings.operatorToken) missing.push('set SWITCHBOARD_OPERATOR_TOKEN (dashboard login)');
  if (missing.length) fatal(`HOST=${settings.host} is not a loopback address, so auth is required:\n  - ${missing.join('\n  - ')}`);
}

async function boot(): Promise<void> {
  try {
    getSettings();
  } catch (err) {
    if (err instanceof SettingsError) fatal(err.message);
    throw err;
  }
  applyHeapGrowth(getSettings().heapGrowthPercent);
  await startTracing();
  await store().ready;
  // Before anything reads a stored secret: one key for the cluster, plaintext and previous-key rows sealed again.
  const keyProblem = secretKeyConfigProblem() ?? (await checkStoredSecrets());
  if (keyProblem) fatal(keyProblem);
  await checkExposure();
  // A card signing key that cannot be read would fail every card request: refuse the start instead.
  await cardKeys().catch((err) => fatal(`agent card signing keys: ${(err as Error).message}`));
  // Before recovery, so the tasks it ends are notified too; invalid rules refuse the start.
  await startNotifications().catch((err) => (err instanceof NotificationConfigError ? fatal(err.message) : Promise.reject(err)));
  const registry = agentRegistry();
  const defaultProblem = defaultAgentProblem();
  if (defaultProblem) fatal(defaultProblem);
  await reapOrphanedLaunches();
  startRelays(); // before recovery: stranded relay turns are resumed, not ended
  // Alone (SQLite) every stranded turn is ours; sharing a PostgreSQL only those nobody alive holds.
  await store().membership.join(memberHost());
  ensurePushDelivery();
  startPruner({ outboxMs: getSettings().outboxRetentionMs, taskMs: getSettings().taskRetentionMs, auditMs: getSettings().auditRetentionMs });
  for (const hook of hooks()) {
    await hook().catch((err) => log.error('boot hook failed', { error: errorMessage(err) }));
  }
  installShutdown();
  const s = getSettings();
  log.info('switchboard ready', {
    store: store().kind,
    host: s.host,
    port: s.port,
    agents: [...registry.agents.keys()],
    configErrors: registry.configErrors.length,
    responseWindowMs: s.responseWindowMs,
    lateResultGraceMs: s.lateResultGraceMs,
    clientTimeoutMs: s.clientTimeoutMs,
  });
}

/**
 * A process group's SIGTERM reaches the server twice: directly, and forwarded by the launcher
 * above it (scripts/start.mjs). A second signal this soon after the first is that same request.
 */
const SAME_STOP_MS = 1_000;

/**
 * SIGTERM / SIGINT: drain, end the remaining tasks, stop the launched children, exit. A second
 * signal later than SAME_STOP_MS (an impatient Ctrl-C, a manager's second try) cuts the drain
 * short but never skips the ending: Node's default action for it would exit at once and leave
 * the launched children running. So the handlers stay installed (`on`, not `once`).
 */
function installShutdown(): void {
  let stoppingSince: number | null = null;
  const hurry = new AbortController();
  const stop = (signal: string) => {
    if (stoppingSince !== null) {
      if (Date.now() - stoppingSince < SAME_STOP_MS) {
        log.info('shutdown signal repeated at once (a process group\'s, forwarded): the drain goes on', { signal });
        return;
      }
      if (!hurry.signal.aborted) log.warn('second shutdown signal: cutting the drain short; running tasks and their children are ended now', { signal });
      hurry.abort();
      return;
    }
    stoppingSince = Date.now();
    log.info('shutdown requested', { signal });
    void drainAndStop(getSettings().drainMs, hurry.signal)
      .catch((err) => log.error('shutdown failed', { error: errorMessage(err) }))
      .finally(async () => {
        await Promise.allSettled([...agentRegistry().agents.values()].map((a) => a.runner.close?.()));
        await Promise.allSettled(shutdownHooks().map((hook) => hook()));
        await store().membership.leave();
        await flushTracing();
        process.exit(0);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

export function ensureBooted(): Promise<void> {
  return processSingleton('boot', () => boot());
}
