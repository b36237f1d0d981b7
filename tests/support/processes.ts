/** Processes the tests look at from outside, through /proc (Linux). */
import fs from 'node:fs';

/** Whether any live (not zombie) process is in process group `pgid`. */
export function groupAlive(pgid: number): boolean {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') return true;
    } catch {
      // the process ended while we looked
    }
  }
  return false;
}

/**
 * The process group `pid` is in: a launched command runs in its guardian's group (decision 234),
 * not a group of its own. Throws if the process is gone.
 */
export function processGroupOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}
