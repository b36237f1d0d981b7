// npm start: generate the Prisma client and build the app if this checkout has not yet, then
// serve on HOST:PORT (127.0.0.1:3000 by default). Migrations are applied by the server itself
// at start-up (instrumentation.ts), so a fresh clone needs only `npm install && npm start`.
import { spawnSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import { clearInterval, setInterval } from 'node:timers';

function run(cmd, args) {
  const result = spawnSync(cmd, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (!fs.existsSync('lib/db/generated/client.ts')) run(process.execPath, ['scripts/prisma-generate.mjs']);
if (!fs.existsSync('.next/BUILD_ID') || process.env.SWITCHBOARD_REBUILD === '1') {
  run(process.execPath, ['node_modules/next/dist/bin/next', 'build']);
}

const host = process.env.HOST || '127.0.0.1';
const port = process.env.PORT || '3000';
// We handle SIGTERM ourselves (drain, then end the rest through the terminal claim).
const env = { ...process.env, NEXT_MANUAL_SIG_HANDLE: 'true', NEXT_TELEMETRY_DISABLED: '1' };
const child = spawn(process.execPath, [...serverNodeFlags(), 'node_modules/next/dist/bin/next', 'start', '-H', host, '-p', port], {
  stdio: 'inherit',
  env,
});
// One stop request from here, whichever way it comes: a process group's signal reaches the
// server directly too, and a second request would cut its drain short (lib/app/signals.ts).
let stopSent = false;
const stopServer = (signal) => {
  if (stopSent) return;
  stopSent = true;
  child.kill(signal);
};
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => stopServer(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
watchLauncher(() => stopServer('SIGTERM'));

/**
 * V8 flags the server runs with (scripts/server-node-flags.json; the bench starts its server with
 * the same). V8 reads the young generation's size only when the process starts, so unlike the
 * heap growth (set at boot, lib/app/heap-growth.ts) it must be on the command line (decision 379).
 * A flag that NODE_OPTIONS already sets is the operator's choice and is left out.
 */
function serverNodeFlags() {
  const { flags } = JSON.parse(fs.readFileSync(new URL('./server-node-flags.json', import.meta.url), 'utf8'));
  const chosen = process.env.NODE_OPTIONS ?? '';
  return flags.filter((flag) => !chosen.includes(flag.split('=')[0]));
}

/**
 * npm does not pass a SIGTERM sent to it alone on to its script: it exits and leaves the server
 * serving. So under `npm start` the npm process above us (and the shell between) is
 * watched, and when one of them is gone the server gets the SIGTERM
 * npm did not send: it drains and ends its tasks and their children as on any stop (decision 233).
 * Processes are told apart by their start time, so a reused pid is not mistaken for the one we knew.
 */
function watchLauncher(stop) {
  const watched = launchers();
  if (!watched.length) return;
  const timer = setInterval(() => {
    if (watched.every((p) => startTime(p.pid) === p.startTime)) return;
    clearInterval(timer);
    process.stderr.write('switchboard: the process that started the server is gone; stopping the server\n');
    stop();
  }, 500);
  timer.unref();
}

/**
 * Under `npm start`: the processes from our parent up to the nearest npm ancestor (a shell sits
 * between). Nothing otherwise: `node scripts/start.mjs` run by a script that then exits
 * (`nohup … &`) must keep serving.
 */
function launchers() {
  if (!process.env.npm_lifecycle_event) return [];
  const found = [];
  let pid = process.ppid;
  for (let depth = 0; depth < 4 && pid > 1; depth++) {
    const time = startTime(pid);
    if (time === null) return [];
    found.push({ pid, startTime: time });
    if (/\bnpm/.test(cmdline(pid))) return found;
    pid = parentOf(pid);
  }
  return []; // no npm above us: nothing of ours to watch
}

function stat(pid) {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null; // gone, or no /proc (then nothing is watched)
  }
}

function startTime(pid) {
  const fields = stat(pid);
  return fields && fields[0] !== 'Z' ? fields[19] : null;
}

function parentOf(pid) {
  return Number(stat(pid)?.[1] ?? 0);
}

function cmdline(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}
