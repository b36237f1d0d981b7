/**
 * Driving a running Switchboard's outbound side over its HTTP API, as an operator would:
 * POST /api/dispatch, then read the task (GET /api/tasks/:id) until it reaches a state.
 */
export interface TaskView {
  task: { id: string; state: string; endReason: string | null; remoteTaskId: string | null; agentSlug: string | null; peerName: string | null; peerUrl: string | null; direction: string };
  snapshot: { status: { state: string; message?: { parts: { kind: string; text?: string }[] } }; artifacts?: { artifactId: string; parts: { kind: string; text?: string }[] }[] };
  events: { seq: number; type: string; state: string | null; payload: unknown }[];
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** POST /api/dispatch; throws unless it answered 202 {taskId}. */
export async function dispatch(baseUrl: string, body: Record<string, unknown>): Promise<string> {
  const res = await postJson(`${baseUrl}/api/dispatch`, body);
  if (res.status !== 202 || typeof res.body.taskId !== 'string') throw new Error(`dispatch answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.taskId;
}

export async function readTask(baseUrl: string, taskId: string): Promise<TaskView> {
  const res = await fetch(`${baseUrl}/api/tasks/${taskId}`);
  if (!res.ok) throw new Error(`GET /api/tasks/${taskId} answered ${res.status}`);
  return (await res.json()) as TaskView;
}

const TERMINAL = ['completed', 'failed', 'canceled', 'rejected'];

/**
 * Polls until the task is in one of `states` (default: any terminal state). The deadline only
 * stops a hung test; nothing asserts how long it took. A server that is down meanwhile (it is
 * being restarted) is simply polled again.
 */
export async function waitForTask(baseUrl: string, taskId: string, states: string[] = TERMINAL, deadlineMs = 60_000): Promise<TaskView> {
  const deadline = Date.now() + deadlineMs;
  let last: TaskView | null = null;
  for (;;) {
    try {
      last = await readTask(baseUrl, taskId);
      if (states.includes(last.task.state)) return last;
    } catch {
      // restarting
    }
    if (Date.now() > deadline) throw new Error(`task ${taskId} did not reach ${states.join('|')}; last: ${JSON.stringify(last?.task)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function artifactText(view: Pick<TaskView, 'snapshot'>, artifactId?: string): string {
  return (view.snapshot.artifacts ?? [])
    .filter((a) => !artifactId || a.artifactId === artifactId)
    .flatMap((a) => a.parts)
    .map((p) => p.text ?? '')
    .join('');
}

export function eventTypes(view: TaskView): string[] {
  return view.events.map((e) => e.type);
}
