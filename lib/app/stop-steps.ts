/**
 * The app's stop, in order: drain the running turns (and end the rest), stop the outbound
 * followers, close the agents' runners (their launched children), stop the gRPC binding, the
 * pruner and the outbox senders, leave the cluster, flush the traces. A failing step is logged
 * and the later ones still run: a stop never leaves children or timers behind.
 */
import type { Settings } from '../config/settings';
import { installedAppPart } from '../process-singleton';
import { drainAndStop } from '../engine';
import { stopNotifications } from '../notify';
import { stopPushDelivery } from '../push/push-delivery';
import { flushTracing } from '../tracing/provider';
import { errorMessage, log } from '../log';
import type { Parts } from './parts';
import type { Started } from './start-steps';

async function step(name: string, run: () => Promise<unknown>): Promise<void> {
  await run().catch((err) => log.error(`shutdown step failed: ${name}`, { error: errorMessage(err) }));
}

export async function stopSteps(settings: Settings, parts: Parts, started: Started | null, cutShort?: AbortSignal): Promise<void> {
  await step('drain', () => drainAndStop(settings.drainMs, cutShort));
  await step('outbound followers', () => parts.followers.stopAll('shutdown'));
  const agents = installedAppPart('agents');
  if (agents) await Promise.allSettled([...agents.agents.values()].map((a) => a.runner.close?.()));
  if (started?.stopGrpc) await step('gRPC binding', started.stopGrpc);
  if (started) await step('pruner', () => started.pruner.stop());
  await step('push delivery', stopPushDelivery);
  await step('notifications', stopNotifications);
  await step('cluster membership', () => parts.store.membership.leave());
  await flushTracing();
}
