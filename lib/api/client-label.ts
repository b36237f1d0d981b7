/**
 * Which operator client made an API call, as a label only (never a credential): the dashboard
 * and the CLI name themselves in X-Switchboard-Client, and the cancel reason records the door.
 * Read only after the route's role check passed, so an unauthenticated caller cannot
 * plant a label; a dashboard session (cookie) is the dashboard whatever it says.
 */
import type { Caller } from '../auth/guard';

export const CLIENT_LABEL_HEADER = 'X-Switchboard-Client';
export type OperatorDoor = 'dashboard' | 'cli' | 'api';

export function operatorDoor(req: Request, caller: Caller): OperatorDoor {
  if (caller.via === 'session') return 'dashboard';
  const label = req.headers.get(CLIENT_LABEL_HEADER)?.trim().toLowerCase();
  return label === 'cli' || label === 'dashboard' ? label : 'api';
}
