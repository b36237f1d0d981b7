/**
 * The two benchmark agents, written against @a2a-js/sdk's own executor API, doing what
 * Switchboard's built-in `echo` and `slow` agents do (lib/agents): echo completes at once with
 * the input as an artifact; slow streams "chunks N size S" append:true artifact chunks.
 */
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import { TaskState, type Artifact, type Part } from '@a2a-js/sdk';

const textPart = (value: string): Part => ({ content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: '' });

function textOf(ctx: RequestContext): string {
  return ctx.userMessage.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');
}

function publishTask(ctx: RequestContext, bus: ExecutionEventBus): void {
  if (ctx.task) return;
  bus.publish(
    AgentEvent.task({
      id: ctx.taskId,
      contextId: ctx.contextId,
      status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: new Date().toISOString() },
      artifacts: [],
      history: [ctx.userMessage],
      metadata: undefined,
    }),
  );
}

function artifact(artifactId: string, text: string): Artifact {
  return { artifactId, name: artifactId, description: '', parts: [textPart(text)], metadata: undefined, extensions: [] };
}

function complete(ctx: RequestContext, bus: ExecutionEventBus): void {
  bus.publish(
    AgentEvent.statusUpdate({
      taskId: ctx.taskId,
      contextId: ctx.contextId,
      status: { state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: new Date().toISOString() },
      metadata: undefined,
    }),
  );
  bus.finished();
}

const cancelNotSupported = async (): Promise<void> => {};

export const echoExecutor: AgentExecutor = {
  async execute(ctx, bus) {
    publishTask(ctx, bus);
    bus.publish(
      AgentEvent.artifactUpdate({ taskId: ctx.taskId, contextId: ctx.contextId, artifact: artifact('echo', textOf(ctx)), append: false, lastChunk: true, metadata: undefined }),
    );
    complete(ctx, bus);
  },
  cancelTask: cancelNotSupported,
};

/** The same chunk text as lib/agents/slow-agent.ts, so payload sizes match byte for byte. */
function chunkText(index: number, size: number): string {
  const head = `chunk ${String(index + 1).padStart(5, '0')} `;
  return (head + '.'.repeat(Math.max(0, size - head.length - 1))).slice(0, size - 1) + '\n';
}

const named = (text: string, name: string, fallback: number) => Number(new RegExp(`${name}\\s+(\\d+)`).exec(text)?.[1] ?? fallback);

export const chunkExecutor: AgentExecutor = {
  async execute(ctx, bus) {
    const text = textOf(ctx);
    const chunks = named(text, 'chunks', 5);
    const size = named(text, 'size', 32);
    publishTask(ctx, bus);
    for (let i = 0; i < chunks; i++) {
      bus.publish(
        AgentEvent.artifactUpdate({
          taskId: ctx.taskId,
          contextId: ctx.contextId,
          artifact: artifact('result', chunkText(i, size)),
          append: i > 0,
          lastChunk: i === chunks - 1,
          metadata: undefined,
        }),
      );
      await Promise.resolve(); // as Switchboard's slow agent awaits each emit
    }
    complete(ctx, bus);
  },
  cancelTask: cancelNotSupported,
};
