/**
 * The task timeline names what the outbound client noted about the peer (`remote` events), so
 * an operator sees how a blocking dispatch was sent, and why it was followed, not only
 * "peer task linked" for every note.
 */
import { describe, expect, it } from 'vitest';
import { describeEvent } from '@/lib/dashboard/event-description';
import type { TimelineEvent } from '@/lib/dashboard/wire';

const remote = (payload: Record<string, unknown>): TimelineEvent => ({ seq: 3, type: 'remote', state: null, at: new Date(0).toISOString(), payload }) as TimelineEvent;

describe('remote events on the timeline', () => {
  it.each([
    [{ event: 'task', remoteTaskId: 'r1' }, 'Peer task linked', 'remote task r1'],
    [{ event: 'blocking-strategy', via: 'stream', reason: 'the card offers streaming' }, 'Blocking, sent as a stream', 'the card offers streaming'],
    [{ event: 'blocking-strategy', via: 'plain blocking send', reason: 'refused' }, 'Blocking, sent as a plain blocking send', 'refused'],
    [{ event: 'client-timeout', timeoutMs: 1500, note: 'not a failure' }, 'Client timeout — following the task instead', 'not a failure'],
    [{ event: 'polling', reason: 'Method not found' }, 'Polling the peer (it cannot be subscribed to)', 'Method not found'],
    [{ event: 'resumed', phase: 'sent' }, 'Resumed after a restart', 'from phase sent'],
  ])('%o reads "%s"', (payload, title, detail) => {
    expect(describeEvent(remote(payload))).toEqual({ title, detail });
  });
});
