/**
 * The engine's side of the store's membership (lib/db/membership.ts): a turn or a follow that
 * runs here is told to the member, which leases it where instances share the database and does
 * nothing where one owns it.
 */
import { store } from '../../db/store';
import { eventHub } from '../../events/hub';
import { isTerminalState } from '../../protocol/types';
import { executions } from './executions';

/** A turn started here (inbound/run-turn.ts): its member leases it and stops it when another instance ends its task. */
export function onTurnStarted(taskId: string, done: Promise<void>, opts: { resumable?: boolean } = {}): void {
  store().membership.turnStarted(taskId, done, {
    stopOnEnd: () =>
      eventHub().subscribeTask(taskId, (event) => {
        if (event.type === 'status' && event.state && isTerminalState(event.state)) executions().abort(taskId, event.state);
      }),
    keepLease: () => Boolean(opts.resumable) && executions().shutdown.signal.aborted,
  });
}

/** Work running here on a task (an outbound follow): leased until `done` where instances share the database. */
export function leaseWork(taskId: string, done: Promise<void>): void {
  store().membership.leaseWork(taskId, done);
}
