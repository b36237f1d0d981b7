/**
 * The audit log's actor for a request that passed its route's role check (decision 232): the
 * operator as identified, how, through which door, and the remote address the server saw
 * (lib/server/remote-address.ts: the socket's, or behind a trusted proxy the one it appended).
 */
import type { AuditActor } from '../audit/audit-log';
import type { Caller } from '../auth/guard';
import { remoteAddressOf } from '../auth/remote-address';
import { operatorDoor } from './client-label';

export function requestActor(req: Request, caller: Caller, door: string = operatorDoor(req, caller)): AuditActor {
  return { name: caller.name, via: caller.via, door, address: remoteAddressOf(req.headers) };
}
