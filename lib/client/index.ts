/**
 * The outbound A2A client (issue 4): peers, the one resolution path, dispatch, following,
 * cancel and restart. Server-only. Route handlers and the boot hook import from here.
 */
export { listPeers, getPeer, createPeer, updatePeer, deletePeer } from './peers';
export { PeerCreateSchema, PeerPatchSchema, toPublicPeer, type PublicPeer, type PeerCreateInput, type PeerPatchInput } from './peer-schemas';
export { testPeer, type PeerTestResult } from './peer-test';
export { ensurePeersReady, syncConfiguredPeers, ensureSelfPeer, selfBaseUrl, SELF_PEER } from './peer-sync';
export { resolveTarget, checkResponseWindow, type ResolvedTarget, type TargetInput } from './resolve-peer';
export { pickTimeout, validateTimeoutOverride, MAX_TIMEOUT_OVERRIDE_SECONDS, type ResolvedTimeout } from './timeouts';
export { normalizeUrl, normalizeAgentUrl } from './normalize-url';
export { DispatchRequestSchema, dispatchTask, type DispatchRequest } from './dispatch';
export { followRemoteTask, locateRemoteTask, type FollowOptions } from './follow-remote-task';
export type { FollowJob } from './follow-job';
export { cancelOutboundAtPeer } from './cancel';
export { resumeOutboundFollowing, startOutboundClient, stopOutboundFollowing } from './resume';
export { outboundFollowers } from './follow-registry';
export { ClientError, clientErrorResponse } from './errors';
export { TIMING_EXTENSION_URI } from '../protocol/extensions';
