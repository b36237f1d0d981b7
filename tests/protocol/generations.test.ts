/**
 * The Switchboard generation extension. Every task and streamed event carries its
 * generation (the task log's seq); a subscription cut mid-stream resumes after the last
 * generation seen (Last-Event-ID, or metadata.switchboard.afterGeneration) and the two parts
 * hold the whole result: nothing lost, nothing doubled. JSON-RPC v0.3 and v1.0, HTTP+JSON.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { rpc, waitFor } from '../support/a2a-clients';

const V10 = { 'A2A-Version': '1.0' };
let app: AppServer;

beforeAll(async () => {
  app = await startApp({ SWITCHBOARD_RESPONSE_WINDOW: '30' });
});
afterAll(async () => app?.stop());

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The event inside a frame, whichever binding: its generation, state and artifact text. */
function eventOf(frame: Json): { generation?: number; state?: string; text: string } {
  const r = (frame.result ?? frame) as Json;
  const e = (r.statusUpdate ?? r.artifactUpdate ?? r.task ?? r) as Json;
  // A task snapshot holds the chunks committed before it; an update carries its own.
  const parts = (e.artifact ? e.artifact.parts : ((e.artifacts ?? []) as Json[]).flatMap((a) => a.parts)) as Json[];
  return { generation: e.metadata?.switchboard?.generation, state: e.status?.state, text: parts.map((p) => p.text ?? '').join('') };
}

/** Each frame's `id:` line (undefined where it has none), in order, by the frames' data. */
const frameIds = new WeakMap<Json, number | undefined>();

/** Opens a subscription; `stopAfter` events in, it hangs up (a cut connection). */
async function subscribe(open: (signal: AbortSignal) => Promise<Response>, stopAfter = Infinity): Promise<Json[]> {
  const abort = new AbortController();
  const res = await open(abort.signal);
  const frames: Json[] = [];
  let buffer = '';
  const decoder = new TextDecoder();
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const lines = buffer.slice(0, end).split('\n');
        const data = lines.find((l) => l.startsWith('data: '));
        const id = lines.find((l) => l.startsWith('id: '));
        buffer = buffer.slice(end + 2);
        if (data) {
          const frame = JSON.parse(data.slice(6)) as Json;
          frameIds.set(frame, id ? Number(id.slice(4)) : undefined);
          frames.push(frame);
        }
        if (frames.length >= stopAfter) {
          abort.abort();
          return frames;
        }
      }
    }
  } catch (err) {
    if (!abort.signal.aborted) throw err;
  }
  return frames;
}

const body = (method: string, params: unknown) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
const BINDINGS = {
  'JSON-RPC v1.0, Last-Event-ID': (id: string, after?: number) => (signal: AbortSignal) =>
    fetch(`${app.url}/a2a/slow`, { method: 'POST', signal, headers: { 'Content-Type': 'application/json', ...V10, ...(after !== undefined ? { 'Last-Event-ID': String(after) } : {}) }, body: body('SubscribeToTask', { id }) }),
  'HTTP+JSON, Last-Event-ID': (id: string, after?: number) => (signal: AbortSignal) =>
    fetch(`${app.url}/a2a/slow/tasks/${id}:subscribe`, { method: 'POST', signal, headers: { ...V10, ...(after !== undefined ? { 'Last-Event-ID': String(after) } : {}) } }),
  'JSON-RPC v0.3, afterGeneration': (id: string, after?: number) => (signal: AbortSignal) =>
    fetch(`${app.url}/a2a/slow`, { method: 'POST', signal, headers: { 'Content-Type': 'application/json' }, body: body('tasks/resubscribe', { id, ...(after !== undefined ? { metadata: { switchboard: { afterGeneration: after } } } : {}) }) }),
};

describe('generations', () => {
  it('a task carries its generation, and each streamed event its own, increasing', async () => {
    const res = await rpc(`${app.url}/a2a/slow`, 'SendStreamingMessage', { message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'work 0.5s chunks 3' }] } }, V10);
    const events = res.text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => eventOf(JSON.parse(l.slice(6))));
    const generations = events.slice(1).map((e) => e.generation!);
    expect(generations.length).toBeGreaterThan(3);
    expect(generations).toEqual([...generations].sort((a, b) => a - b));
    expect(new Set(generations).size).toBe(generations.length);
    const taskId = JSON.parse(res.text.split('\n').find((l) => l.startsWith('data: '))!.slice(6)).result.task.id;
    const task = (await rpc(`${app.url}/a2a/slow`, 'GetTask', { id: taskId }, V10)).body.result;
    expect(task.metadata.switchboard.generation).toBe(generations.at(-1));
  });

  it.each(Object.entries(BINDINGS))('%s: a cut subscription resumes after the last generation seen; nothing lost, nothing doubled', async (_name, open) => {
    const started = await rpc(`${app.url}/a2a/slow`, 'message/send', { message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'work 2s chunks 8' }] }, configuration: { blocking: false } });
    const id = started.body.result.id as string;
    const firstFrames = await subscribe(open(id), 4);
    // Every frame's id: line is its event's generation, so an EventSource resumes by itself.
    for (const frame of firstFrames) expect(frameIds.get(frame)).toBe(eventOf(frame).generation);
    const first = firstFrames.map(eventOf);
    const seen = first.filter((e) => e.generation !== undefined);
    const last = frameIds.get(firstFrames.at(-1)!)!;
    expect(last).toBe(seen.at(-1)!.generation);
    const rest = (await subscribe(open(id, last))).map(eventOf);
    expect(rest.length).toBeGreaterThan(0);
    expect(rest.every((e) => e.generation! > last)).toBe(true);
    const all = [...seen, ...rest].map((e) => e.generation!);
    expect(new Set(all).size).toBe(all.length);
    expect(rest.at(-1)!.state).toMatch(/completed|TASK_STATE_COMPLETED/);
    const task = await waitFor(async () => {
      const got = (await rpc(`${app.url}/a2a/slow`, 'tasks/get', { id })).body.result;
      return got.status.state === 'completed' ? got : null;
    });
    const whole = (task.artifacts as Json[]).flatMap((a) => a.parts as Json[]).map((p) => p.text).join('');
    expect([...seen, ...rest].map((e) => e.text).join('')).toBe(whole);
  });

  it('GetTask waits for a generation newer than the one given (bounded long poll), and not at all when there is one', async () => {
    const started = await rpc(`${app.url}/a2a/slow`, 'message/send', { message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'work 2s chunks 4' }] }, configuration: { blocking: false } });
    const id = started.body.result.id as string;
    const seen = started.body.result.metadata.switchboard.generation as number;
    const poll = (after: number, waitSeconds: number) => rpc(`${app.url}/a2a/slow`, 'GetTask', { id, metadata: { switchboard: { waitForGenerationAfter: after, waitSeconds } } }, V10);
    const t0 = Date.now();
    const newer = (await poll(seen, 30)).body.result;
    expect(newer.metadata.switchboard.generation).toBeGreaterThan(seen);
    expect(Date.now() - t0).toBeLessThan(30_000);
    const done = await waitFor(async () => {
      const got = (await rpc(`${app.url}/a2a/slow`, 'GetTask', { id }, V10)).body.result;
      return got.status.state === 'TASK_STATE_COMPLETED' ? got : null;
    });
    const t1 = Date.now();
    const atOnce = (await poll(done.metadata.switchboard.generation, 30)).body.result;
    expect(atOnce.status.state).toBe('TASK_STATE_COMPLETED');
    expect(Date.now() - t1).toBeLessThan(30_000);
    const rest = await (await fetch(`${app.url}/a2a/slow/tasks/${id}?waitForGenerationAfter=${done.metadata.switchboard.generation}&waitSeconds=30`, { headers: V10 })).json();
    expect(rest.metadata.switchboard.generation).toBe(done.metadata.switchboard.generation);
    const restBad = await fetch(`${app.url}/a2a/slow/tasks/${id}?waitForGenerationAfter=0&waitSeconds=61`, { headers: V10 });
    expect(restBad.status).toBe(400);
    expect((await poll(0, 61)).body.error).toMatchObject({ code: -32602, message: expect.stringContaining('waitSeconds') });
    expect((await poll(-1, 1)).body.error).toMatchObject({ code: -32602, message: expect.stringContaining('waitForGenerationAfter') });
  });

  it('a generation ahead of the task is -32602 naming it', async () => {
    const started = await rpc(`${app.url}/a2a/slow`, 'message/send', { message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'work 1s' }] }, configuration: { blocking: false } });
    const res = await rpc(`${app.url}/a2a/slow`, 'SubscribeToTask', { id: started.body.result.id }, { ...V10, 'Last-Event-ID': '999999' });
    expect(res.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('generation 999999 is ahead') });
    const bad = await rpc(`${app.url}/a2a/slow`, 'SubscribeToTask', { id: started.body.result.id }, { ...V10, 'Last-Event-ID': 'abc' });
    expect(bad.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('Last-Event-ID') });
  });
});
