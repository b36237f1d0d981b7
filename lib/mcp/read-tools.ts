/** The read-only tools: list_agents, wait, get_result, list_tasks (viewer and operator). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { listTaskPage } from '../dashboard/task-list';
import { DisplayStateSchema, TaskListQuerySchema, type TaskSummary } from '../dashboard/wire';
import { isTerminalState } from '../protocol/types';
import { MAX_OUTPUT_CHARS, SecondsSchema, TaskIdSchema } from './limits';
import { followForCall, viewText } from './follow-call';
import { CursorSchema, readTaskState, START, TaskViewShape } from './task-view';
import { UnknownTaskError } from './task-wait';
import { answering, structured } from './tool-result';
import { listAgents, type ListedAgent } from './agent-targets';
import { LEFT_ARROW, RIGHT_ARROW } from '../protocol/wide-chars';

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

const AgentShape = z.object({
  kind: z.enum(['served', 'peer']),
  name: z.string().describe("the served agent's slug or the peer's name"),
  target: z.string().describe('what to pass as dispatch target'),
  title: z.string().nullable().describe("the agent's own name, from its card"),
  description: z.string(),
  skills: z.array(z.object({ id: z.string(), name: z.string(), description: z.string().optional() })),
  streaming: z.boolean().nullable().describe('whether it streams its output (null: its card was not fetched yet)'),
  url: z.string().describe('where it is reached'),
});

/** One agent in words: what to pass, what it is for, what it can do. */
function agentLine(a: ListedAgent): string {
  const skills = a.skills.length ? ` Skills: ${a.skills.map((s) => (s.description && s.description !== s.name ? `${s.name} (${s.description})` : s.name)).join('; ')}.` : '';
  return `${a.name} (${a.kind}${a.target === a.name ? '' : `; dispatch target ${a.target}`}): ${a.description}.${skills}`;
}

function registerListAgents(server: McpServer) {
  server.registerTool(
    'list_agents',
    {
      title: 'List agents',
      description: "What can take work: this Switchboard's served agents and its configured peers, with what each is for, its skills and whether it streams. Pass an entry's `target` (its name, unless a peer shares it) as dispatch's target.",
      inputSchema: {},
      outputSchema: { agents: z.array(AgentShape) },
      annotations: READ_ONLY,
    },
    () =>
      answering('list_agents', async () => {
        const agents = await listAgents();
        return structured({ agents }, agents.map(agentLine).join('\n'));
      }),
  );
}

function registerWait(server: McpServer) {
  server.registerTool(
    'wait',
    {
      title: 'Wait for a task',
      description:
        'Follow a task: answers as soon as it changes or ends (or after `seconds`) with its state, latest status message, and only the output added since `since` (the cursor the previous dispatch, reply or wait returned). Call it again with the new cursor until done.',
      inputSchema: { taskId: TaskIdSchema, seconds: SecondsSchema('seconds'), since: CursorSchema.optional().describe('the cursor from the last result; without it, everything so far') },
      outputSchema: TaskViewShape,
      annotations: READ_ONLY,
    },
    ({ taskId, seconds, since }, extra) =>
      answering('wait', async () => {
        const view = await followForCall(taskId, extra, { since: since ?? START, seconds, until: 'change' });
        return structured(view, viewText(view));
      }),
  );
}

const ResultPageShape = {
  taskId: z.string(),
  state: z.string(),
  done: z.boolean(),
  text: z.string().describe('this page of the result text'),
  totalChars: z.number().int(),
  nextCursor: z.string().nullable().describe('pass as cursor for the next page; null at the end'),
};

function registerGetResult(server: McpServer) {
  server.registerTool(
    'get_result',
    {
      title: 'Get a task result',
      description: `The result text of a task so far, ${MAX_OUTPUT_CHARS} characters a page: pass nextCursor as cursor for the next page.`,
      inputSchema: {
        taskId: TaskIdSchema,
        cursor: z.string().regex(/^\d{1,15}$/, 'cursor: expected the nextCursor a previous get_result returned').optional().describe('nextCursor of the previous page'),
        maxChars: z.number().int().min(1, 'maxChars: at least 1').max(MAX_OUTPUT_CHARS, `maxChars: at most ${MAX_OUTPUT_CHARS}`).optional(),
      },
      outputSchema: ResultPageShape,
      annotations: READ_ONLY,
    },
    ({ taskId, cursor, maxChars }) =>
      answering('get_result', async () => {
        const task = await readTaskState(taskId);
        if (!task) throw new UnknownTaskError(taskId);
        const from = Math.min(Number(cursor ?? 0), task.text.length);
        const text = task.text.slice(from, from + (maxChars ?? MAX_OUTPUT_CHARS));
        const end = from + text.length;
        const page = { taskId, state: task.state, done: isTerminalState(task.state), text, totalChars: task.text.length, nextCursor: end < task.text.length ? String(end) : null };
        const more = page.nextCursor ? `\n\n(more: call get_result with {"taskId":"${taskId}","cursor":"${page.nextCursor}"})` : page.done ? '' : `\n\n(task ${taskId} is still ${task.state}: its result may grow; follow it with wait)`;
        return structured(page, `${text}${more}`);
      }),
  );
}

const TaskRowShape = z.object({
  taskId: z.string(),
  state: z.string(),
  direction: z.string(),
  with: z.string(),
  request: z.string(),
  status: z.string(),
  createdAt: z.string(),
  endedAt: z.string().nullable(),
});

const row = (t: TaskSummary) => ({
  taskId: t.id,
  state: t.displayState,
  direction: t.direction,
  with: (t.direction === 'inbound' ? t.agentSlug : (t.peerName ?? t.peerUrl)) ?? '?',
  request: t.requestPreview,
  status: t.statusText,
  createdAt: t.createdAt,
  endedAt: t.endedAt,
});

function registerListTasks(server: McpServer) {
  server.registerTool(
    'list_tasks',
    {
      title: 'List tasks',
      description: 'Tasks, newest first, as the dashboard and `switchboard tasks ls` show them: filter by state and peer; page with nextCursor.',
      inputSchema: {
        state: DisplayStateSchema.optional().describe('only tasks in this state'),
        peer: z.string().min(1, 'peer: expected a peer name').max(200, 'peer: at most 200 characters').optional().describe('only tasks dispatched to this peer'),
        limit: z.number().int().min(1, 'limit: at least 1').max(100, 'limit: at most 100').optional().describe('at most this many (default 20)'),
        cursor: z.string().max(500, 'cursor: at most 500 characters').optional().describe('nextCursor of the previous page'),
      },
      outputSchema: { tasks: z.array(TaskRowShape), nextCursor: z.string().nullable() },
      annotations: READ_ONLY,
    },
    ({ state, peer, limit, cursor }) =>
      answering('list_tasks', async () => {
        const query = TaskListQuerySchema.parse({ state, agent: peer, direction: peer ? 'outbound' : undefined, limit: limit ?? 20, cursor });
        const page = await listTaskPage(query);
        const tasks = page.tasks.map(row);
        const text = tasks.length ? tasks.map((t) => `${t.taskId} ${t.state} ${t.direction === 'inbound' ? LEFT_ARROW : RIGHT_ARROW} ${t.with}: ${t.request}`).join('\n') : 'no tasks';
        return structured({ tasks, nextCursor: page.nextCursor }, text);
      }),
  );
}

export function registerReadTools(server: McpServer): void {
  registerListAgents(server);
  registerWait(server);
  registerGetResult(server);
  registerListTasks(server);
}
