import { describe, expect, it } from 'vitest';
import type { TimelineEvent } from '@/lib/dashboard/wire';
import { axisEnd, markOnAxis, progressOf, taskPicture } from './task-phases';

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
// Fixtures built loosely (payloads abridged), read back through the union the page uses.
const ev = (seq: number, s: number, type: string, state: string | null, payload: unknown = {}): TimelineEvent => ({ seq, type, state, at: at(s), payload }) as TimelineEvent;

describe('taskPicture', () => {
  it('cuts a detached task into submitted, working, detached and ended, with W, G and chunk ticks', () => {
    const picture = taskPicture(
      [
        ev(1, 0, 'submitted', 'submitted'),
        ev(2, 0, 'status', 'working'),
        ev(3, 1, 'artifact', null),
        ev(4, 2, 'detached', 'working', { metadata: { switchboard: { responseWindowMs: 2000 } }, graceMs: 10_000 }),
        ev(5, 3, 'status', 'working', { message: { parts: [{ kind: 'text', text: 'step 3 of 4 (75% done)' }] } }),
        ev(6, 5, 'status', 'completed'),
      ],
      Date.parse(at(9)),
    )!;
    expect(picture.phases.map((p) => [p.kind, (p.endMs - p.startMs) / 1000])).toEqual([
      ['submitted', 0],
      ['working', 2],
      ['detached', 3],
      ['ended', 0],
    ]);
    expect(picture.phases[3].state).toBe('completed');
    expect(picture.chunks).toEqual([Date.parse(at(1))]);
    expect(picture.windowAtMs).toBe(Date.parse(at(2)));
    expect(picture.graceEndsAtMs).toBe(Date.parse(at(12)));
    expect(picture.endMs).toBe(Date.parse(at(5)));
    expect(picture.progress).toBe(100);
  });

  it("a peer's message keeps a detached task detached; the caller's follow-up ends the detach", () => {
    const said = (text: string, remote: boolean) => ({ message: { parts: [{ kind: 'text', text }] }, ...(remote ? { remote } : {}) });
    const log: [string, string | null, unknown?][] = [
      ['submitted', 'submitted'], ['status', 'working'], ['detached', 'working', { reason: 'client timeout' }],
      ['message', null, said('thinking', true)], ['status', 'working'], ['message', null, said('go on', false)], ['status', 'working'],
    ];
    const seconds = [0, 0, 1, 2, 3, 4, 5];
    const picture = taskPicture(log.map(([type, state, payload], i) => ev(i + 1, seconds[i], type, state, payload)), Date.parse(at(6)))!;
    expect(picture.phases.map((p) => `${p.kind} ${(p.endMs - p.startMs) / 1000}`)).toEqual(['submitted 0', 'working 1', 'detached 4', 'working 1']);
  });

  it('a running task ends its open phase now; input-required is a phase of its own', () => {
    const picture = taskPicture([ev(1, 0, 'submitted', 'submitted'), ev(2, 1, 'status', 'working'), ev(3, 2, 'status', 'input-required')], Date.parse(at(6)))!;
    expect(picture.phases.map((p) => [p.kind, (p.endMs - p.startMs) / 1000])).toEqual([
      ['submitted', 1],
      ['working', 1],
      ['input-required', 4],
    ]);
  });
});

describe('progressOf', () => {
  it('reads metadata.progress first, then "N% done"', () => {
    expect(progressOf({ message: { metadata: { progress: 42 }, parts: [{ kind: 'text', text: '10% done' }] } })).toBe(42);
    expect(progressOf({ message: { parts: [{ kind: 'text', text: 'chunk 1 of 4 (25% done)' }] } })).toBe(25);
    expect(progressOf({ message: { parts: [{ kind: 'text', text: 'working' }] } })).toBeNull();
  });
});

describe('markOnAxis', () => {
  it('keeps a mark in view at its time, and pins one outside to the edge with its offset', () => {
    const start = Date.parse(at(0));
    const end = Date.parse(at(5));
    expect(markOnAxis(Date.parse(at(2)), start, end)).toEqual({ atMs: Date.parse(at(2)), inView: true, offsetMs: 2000 });
    expect(markOnAxis(Date.parse(at(12)), start, end)).toEqual({ atMs: end, inView: false, offsetMs: 12_000 });
    expect(markOnAxis(null, start, end)).toBeNull();
  });

  it('the axis reaches a child that ends after the parent', () => {
    const picture = taskPicture([ev(1, 0, 'submitted', 'submitted'), ev(2, 1, 'status', 'completed')], Date.parse(at(9)))!;
    expect(axisEnd(picture, [{ endMs: Date.parse(at(4)) }])).toBe(Date.parse(at(4)));
    expect(axisEnd(picture, [])).toBe(Date.parse(at(1)));
  });
});
