/**
 * Start-up: outbound tasks still submitted or working were being followed when the process
 * stopped. Their peers kept working, so each is followed again: read first with tasks/get (a
 * result that arrived meanwhile is not lost), then subscribed to. Input-required tasks wait for
 * a follow-up dispatch and are left alone.
 */
import { findTasksInStates } from '../../db/task-repo';
import { log, errorMessage } from '../../log';
import { startOutbound } from './runner';
import { ensurePeersReady } from '../../peers/sync';
import { isClustered, resumeOrphanedFollows } from '../cluster';

export async function resumeOutboundFollowing(): Promise<number> {
  // Several instances: only follows nobody alive holds (cluster.ts), so no follow runs twice.
  if (isClustered()) {
    await resumeOrphanedFollows((taskId) => void startOutbound(taskId, { resumed: true }));
    return 0;
  }
  const tasks = await findTasksInStates(['submitted', 'working'], 'outbound');
  let started = 0;
  for (const task of tasks) if (startOutbound(task.id, { resumed: true })) started++;
  if (started) log.info('resumed following outbound tasks', { count: started });
  return started;
}

/**
 * The one boot call for outbound work (instrumentation register(), Node runtime): sync the
 * config and built-in peers, then resume following. Never throws: a failure is logged.
 */
export async function startOutboundClient(): Promise<void> {
  try {
    await ensurePeersReady();
    await resumeOutboundFollowing();
  } catch (err) {
    log.error('outbound client start-up failed', { error: errorMessage(err) });
  }
}
