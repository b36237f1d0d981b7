/**
 * The outbound A2A client (issue 4): what route handlers and the boot hook use of it. Server-only.
 * Everything else is imported from its own module inside lib/client.
 */
export { listPeers, getPeer, createPeer, updatePeer, deletePeer } from './peers';
export { PeerCreateSchema, PeerPatchSchema } from './peer-schemas';
export { testPeer } from './peer-test';
export { DispatchRequestSchema, dispatchTask } from './dispatch';
export { cancelOutboundAtPeer } from './cancel';
export { startOutboundClient } from './resume';
export { clientErrorResponse } from './errors';
