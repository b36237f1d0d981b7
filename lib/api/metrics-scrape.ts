/**
 * What GET /api/metrics answers: the registry in Prometheus text format, after refreshing the
 * gauges that are read rather than counted (tasks by state, from one grouped count).
 */
import { tallyTasksByState } from '../db/task-tallies';
import { executions } from '../engine';
import { metrics } from '../metrics/metrics';

export async function scrapeMetrics(): Promise<{ contentType: string; body: string }> {
  const m = metrics();
  const tallies = await tallyTasksByState();
  m.tasksByState.reset();
  for (const t of tallies) m.tasksByState.set({ state: t.state, direction: t.direction }, t.count);
  m.runningTurns.reset();
  for (const e of executions().all()) {
    if (e.agent) m.runningTurns.inc({ agent: e.agent.slug, kind: e.agent.launcher ? 'launcher' : 'builtin' });
  }
  return { contentType: m.registry.contentType, body: await m.registry.metrics() };
}
