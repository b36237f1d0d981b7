/** `switchboard tasks ls|show|watch|cancel|reply|export`. */
import { Command, InvalidArgumentError } from 'commander';
import { DISPLAY_STATES, DisplayStateSchema, type TaskSummary } from '../../dashboard/wire';
import { apiTarget, CliError } from '../api';
import { EXIT, exitCodeForState, type ExitCode } from '../exit-codes';
import { resultText, watchTask } from '../follow-command';
import { note, printJson, printTable, shorten, type CommonOptions } from '../output';
import { terminalText } from '../../util/terminal-text';
import { cancelTask, dispatch, fetchTaskDetail, listTasks } from '../tasks-api';
import { commandGroup, commonOptions, jsonObject, positiveInt, reconnectOption, sinceArg, urlOption } from './options';
import { exportTasksTo } from '../tasks-export';

type Exit = (code: ExitCode) => void;

function stateArg(value: string) {
  const parsed = DisplayStateSchema.safeParse(value);
  if (!parsed.success) throw new InvalidArgumentError(`--state must be one of ${DISPLAY_STATES.join(', ')}`);
  return parsed.data;
}

const who = (t: TaskSummary) => (t.direction === 'inbound' ? `← ${t.agentSlug ?? '?'}` : `→ ${t.peerName ?? t.peerUrl ?? '?'}`);

function ls(exit: Exit): Command {
  const cmd = new Command('ls')
    .description('list tasks, newest first')
    .option('--state <state>', `only tasks in this state (${DISPLAY_STATES.join(', ')})`, stateArg)
    .option('--peer <name>', 'only outbound tasks to this peer')
    .option('--limit <n>', 'at most this many (1-200)', positiveInt('--limit', 200), 50);
  return commonOptions(cmd).action(async (opts: CommonOptions & { state?: TaskSummary['displayState']; peer?: string; limit: number }) => {
    const page = await listTasks(apiTarget(opts.url), opts);
    if (opts.json) printJson(page);
    else if (!page.tasks.length) process.stderr.write('no tasks\n');
    else printTable([['ID', 'STATE', 'WITH', 'CREATED', 'REQUEST'], ...page.tasks.map((t) => [t.id, t.displayState, who(t), t.createdAt.slice(0, 19), shorten(t.requestPreview, 60)])]);
    exit(EXIT.completed);
  });
}

function show(exit: Exit): Command {
  return commonOptions(new Command('show').description('one task: state, timing, end reason and result').argument('<id>')).action(async (id: string, opts: CommonOptions) => {
    const detail = await fetchTaskDetail(apiTarget(opts.url), id);
    const t = detail.task;
    if (opts.json) printJson(detail);
    else {
      const rows = [
        ['id', t.id],
        ['state', t.displayState],
        ['direction', `${t.direction} ${who(t)}`],
        ['created', t.createdAt],
        ...(t.endedAt ? [['ended', t.endedAt]] : []),
        ...(t.endReason ? [['reason', t.endReason]] : []),
        ...(t.statusText ? [['status', t.statusText]] : []),
        ['request', shorten(t.requestText, 200)],
      ];
      printTable(rows);
      const text = resultText(detail);
      if (text) process.stdout.write(`\n${terminalText(text)}${text.endsWith('\n') ? '' : '\n'}`);
    }
    exit(EXIT.completed);
  });
}

function watch(exit: Exit): Command {
  const cmd = new Command('watch').description('follow a task to its end (same output and exit codes as dispatch --follow)').argument('<id>');
  return reconnectOption(commonOptions(cmd)).action(async (id: string, opts: CommonOptions & { reconnectLimit: number }) => {
    exit(await watchTask(apiTarget(opts.url), id, { json: opts.json, reconnectLimit: opts.reconnectLimit }));
  });
}

function cancel(exit: Exit): Command {
  return commonOptions(new Command('cancel').description('cancel a running task (an outbound one at its peer too)').argument('<id>')).action(async (id: string, opts: CommonOptions) => {
    const { task } = await cancelTask(apiTarget(opts.url), id);
    if (opts.json) printJson({ task });
    else note(`task ${task.id} ${task.state}${task.endReason ? `: ${task.endReason}` : ''}`);
    exit(exitCodeForState(task.state, task.endReason) === EXIT.canceled ? EXIT.completed : EXIT.error);
  });
}

function reply(exit: Exit): Command {
  const cmd = new Command('reply')
    .description('answer an outbound task that asks for input: text, a data part (--data), or both')
    .argument('<id>')
    .argument('[text]')
    .option('--data <json>', 'a JSON object sent as a data part (e.g. a tool approval: \'{"callId":"c1","outcome":"proceed_once"}\')', jsonObject('--data'))
    .option('--follow', 'then follow it to its end');
  type Options = CommonOptions & { data?: Record<string, unknown>; follow?: boolean; reconnectLimit: number };
  return reconnectOption(commonOptions(cmd)).action(async (id: string, text: string | undefined, opts: Options) => {
    if (!text && !opts.data) throw new CliError('tasks reply: give the answer: <text>, --data <json>, or both', EXIT.usage, 'usage');
    const target = apiTarget(opts.url);
    await dispatch(target, { taskId: id, ...(text ? { text } : {}), ...(opts.data ? { data: opts.data } : {}), mode: 'streaming' });
    if (opts.follow) return exit(await watchTask(target, id, { json: opts.json, reconnectLimit: opts.reconnectLimit }));
    if (opts.json) printJson({ taskId: id });
    else process.stderr.write(`answered task ${id}; follow it with: switchboard tasks watch ${id}\n`);
    exit(EXIT.completed);
  });
}

function exportCmd(exit: Exit): Command {
  const cmd = new Command('export')
    .description('write tasks with all their events as JSON Lines (one task a line, newest first), e.g. to keep them before the retention prunes them')
    .option('--since <when>', 'only tasks created at or after this: an ISO date or time, or a span back from now (90m, 24h, 7d)', sinceArg('--since'))
    .option('--state <state>', `only tasks in this state (${DISPLAY_STATES.join(', ')})`, stateArg)
    .option('--out <file>', 'write to this file (complete, or not at all) instead of stdout');
  return urlOption(cmd).action(async (opts: { since?: string; state?: TaskSummary['displayState']; out?: string; url?: string }) => {
    const count = await exportTasksTo(apiTarget(opts.url), { since: opts.since, state: opts.state }, opts.out);
    process.stderr.write(`exported ${count} task${count === 1 ? '' : 's'}${opts.out ? ` to ${opts.out}` : ''}\n`);
    exit(EXIT.completed);
  });
}

export function tasksCommand(exit: Exit): Command {
  return commandGroup('tasks', 'list, show, follow, cancel, answer and export tasks', [ls(exit), show(exit), watch(exit), cancel(exit), reply(exit), exportCmd(exit)]);
}
