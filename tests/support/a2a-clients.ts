/**
 * Real A2A clients nobody here wrote: @a2a-js/sdk's v1.0 client and its v0.3 legacy transport,
 * behind one small interface so the same test runs over both protocol versions.
 */
import { ClientFactory, type Transport } from '@a2a-js/sdk/client';
import { LegacyJsonRpcTransport } from '@a2a-js/sdk/compat/v0_3/client';
import { Role, TaskState, type Task, type StreamResponse, type Part } from '@a2a-js/sdk';
import { randomUUID } from 'node:crypto';

export type SdkVersion = '1.0' | '0.3';
export { TaskState };

export type SdkClient = Pick<Transport, 'sendMessage' | 'sendMessageStream' | 'getTask' | 'cancelTask' | 'resubscribeTask' | 'listTasks' | 'createTaskPushNotificationConfig' | 'getTaskPushNotificationConfig' | 'listTaskPushNotificationConfig' | 'deleteTaskPushNotificationConfig'>;

export async function sdkClient(baseUrl: string, slug: string, version: SdkVersion): Promise<SdkClient> {
  if (version === '0.3') return new LegacyJsonRpcTransport({ endpoint: `${baseUrl}/a2a/${slug}` });
  return new ClientFactory().createFromUrl(`${baseUrl}/a2a/${slug}/`);
}

const textPart = (value: string): Part => ({ content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: '' });

export function sendParams(text: string, opts: { taskId?: string; contextId?: string; returnImmediately?: boolean; historyLength?: number } = {}) {
  return {
    tenant: '',
    message: {
      messageId: randomUUID(),
      role: Role.ROLE_USER,
      parts: [textPart(text)],
      taskId: opts.taskId ?? '',
      contextId: opts.contextId ?? '',
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: {
      acceptedOutputModes: [],
      taskPushNotificationConfig: undefined,
      historyLength: opts.historyLength,
      returnImmediately: opts.returnImmediately ?? false,
    },
    metadata: undefined,
  };
}

export function asTask(result: unknown): Task {
  const r = result as { id?: string; payload?: { $case: string; value: unknown } };
  if (r.id) return r as Task;
  if (r.payload?.$case === 'task') return r.payload.value as Task;
  throw new Error(`expected a task, got ${JSON.stringify(result).slice(0, 200)}`);
}

export function partsText(parts: Part[] | undefined): string {
  return (parts ?? []).map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');
}

export function artifactText(task: Task, artifactId?: string): string {
  return task.artifacts.filter((a) => !artifactId || a.artifactId === artifactId).map((a) => partsText(a.parts)).join('');
}

export async function collect(stream: AsyncGenerator<StreamResponse>): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** Accumulates streamed artifact chunks the way a client should (append by artifactId). */
export function streamedArtifactText(events: StreamResponse[]): string {
  let text = '';
  for (const e of events) if (e.payload?.$case === 'artifactUpdate') text += partsText(e.payload.value.artifact?.parts);
  return text;
}

export function lastState(events: StreamResponse[]): TaskState | undefined {
  let state: TaskState | undefined;
  for (const e of events) {
    if (e.payload?.$case === 'task') state = e.payload.value.status?.state;
    if (e.payload?.$case === 'statusUpdate') state = e.payload.value.status?.state;
  }
  return state;
}

export async function waitFor<T>(fn: () => Promise<T | undefined | null | false>, timeoutMs = 20_000, stepMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

/** Raw JSON-RPC over fetch, for what the SDK clients would hide (error codes, shapes). */
export async function rpc(url: string, method: string, params: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text.trimStart().startsWith('{') ? JSON.parse(text) : streamedError(text) };
}

/** v0.3 streaming methods answer an error as an event stream whose one event is the error. */
function streamedError(text: string): Record<string, unknown> | null {
  const match = /^event: error\ndata: (.*)$/m.exec(text);
  return match ? JSON.parse(match[1]) : null;
}

/** Parses an SSE body of JSON-RPC responses into their results. */
export function sseResults(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice(6)))
    .map((r) => r.result ?? r);
}
