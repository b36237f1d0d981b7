/**
 * Start-up: outbound tasks still submitted or working were being followed when the process
 * stopped. Their peers kept working, so each is followed again: read first with tasks/get (a
 * result that arrived meanwhile is not lost), then subscribed to. Input-required tasks wait for
 * a follow-up dispatch and are left alone. Which tasks are this instance's to follow is its
 * membership's answer (lib/db/membership.ts): alone, every one; sharing the database, only the
 * follows nobody alive holds, so no follow runs twice.
 */
import { store } from '../../db/store';
import { log, errorMessage } from '../../log';
import { startOutbound } from './runner';
import { ensurePeersReady } from '../../peers/sync';

export async function resumeOutboundFollowing(): Promise<number> {
  const started = await store().membership.resumeFollows((taskId) => startOutbound(taskId, { resumed: true }));
  if (started) log.info('resumed following outbound tasks', { count: started });
  return started;
}

/**
 * The one start-up step for outbound work (lib/app/start-steps.ts): sync the
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
