/**
 * The delegation graph links a task under a parent only where the hub itself saw the link:
 * an outbound dispatch it made names its task as the peer task's parent together
 * with this proof, an HMAC under a per-process key, like delegation tokens (dispatch-token.ts).
 * An inbound message naming a parent without a proof this process made is the caller's claim:
 * shown as such, never linked. Another hub's parents are therefore claims too.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { appPart } from '../process-singleton';
import { safeEqual } from './session';

const key = () => appPart('parentProofKey', () => randomBytes(32));

export function parentProof(taskId: string): string {
  return createHmac('sha256', key()).update(`parent.${taskId}`).digest('base64url');
}

export function provesParent(taskId: string, proof: string | undefined): boolean {
  return proof !== undefined && safeEqual(proof, parentProof(taskId));
}

declare module '../process-singleton' {
  interface AppParts {
    /** This process's parent-proof key. */
    parentProofKey: Buffer;
  }
}
