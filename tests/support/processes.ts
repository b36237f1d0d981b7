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
