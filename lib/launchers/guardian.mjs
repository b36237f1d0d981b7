#!/usr/bin/env node
/**
 * The guardian of one launched process group (decision 234). The hub starts this script as the
 * leader of a new session and process group (detached), with a lifeline on fd 3: one end of a
 * socket pair whose other end only the hub holds. The guardian starts the agent's command in its
 * own group (stdin, stdout and stderr passed straight through) and reports its exit as its own.
 * When the lifeline closes without the guardian having exited, the hub is gone, however it went
 * (a SIGKILL included: the kernel closes a dead process's descriptors), so the guardian ends the
 * group: SIGTERM, the grace period, SIGKILL (itself included).
 *
 *   node guardian.mjs <killGraceMs> <command> [args…]
 *
 * How the command ended is reported on the lifeline as one JSON line before the guardian exits:
 * {"exit":{code,signal}} (a signal cannot be passed on by dying of it: Node keeps SIGUSR1 for its
 * inspector), or {"spawnError":{code,message}} when it could not be started. Plain JavaScript
 * with no imports beyond Node, so it runs outside the app's build.
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import process from 'node:process';

const SPAWN_FAILED = 127;
/** If the hub does not take the report within this, exit anyway (it is gone or stuck). */
const REPORT_MS = 1000;
const [graceArg, command, ...args] = process.argv.slice(2);
const graceMs = Math.max(0, Number(graceArg) || 0);
const group = -process.pid; // detached by the hub: pgid = our pid

// Signals the hub sends the group reach us too; we stay until the command's exit is known.
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => {});

const lifeline = new net.Socket({ fd: 3, readable: true, writable: true });
let orphaned = false;
let exiting = false;

function signalGroup(signal) {
  try {
    process.kill(group, signal);
  } catch {
    // the group is already empty
  }
}

function endTheGroup() {
  if (orphaned || exiting) return;
  orphaned = true;
  signalGroup('SIGTERM');
  signalGroup('SIGCONT'); // a stopped process only sees SIGTERM once continued
  setTimeout(() => signalGroup('SIGKILL'), graceMs);
}

lifeline.on('end', endTheGroup);
lifeline.on('close', endTheGroup);
lifeline.on('error', endTheGroup);
lifeline.resume();

/** Sends the one report and exits with `code` (the hub reads the report, not the code). */
function reportAndExit(report, code) {
  exiting = true;
  setTimeout(() => process.exit(code), REPORT_MS).unref();
  lifeline.end(`${JSON.stringify(report)}\n`, () => process.exit(code));
}

const child = spawn(command, args, { stdio: 'inherit' });
child.on('error', (error) => {
  if (child.pid !== undefined) return;
  reportAndExit({ spawnError: { code: error.code ?? null, message: error.message } }, SPAWN_FAILED);
});
child.on('exit', (code, signal) => {
  if (orphaned) return; // the group is being ended; the SIGKILL ends us too
  reportAndExit({ exit: { code, signal } }, code ?? 1);
});
