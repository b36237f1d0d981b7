/**
 * How much of the machine other processes used during a measured run: all busy CPU time from
 * /proc/stat minus the server's and this bench process's own. Other engineers' builds and test
 * runs share these two cores; a run with foreign load is reported as such instead of silently
 * making a server look slow.
 */
import fs from 'node:fs';

const HZ = 100; // USER_HZ on Linux

export interface LoadMark {
  at: number;
  busyTicks: number;
  own: NodeJS.CpuUsage;
  serverSeconds: number;
}

function busyTicks(): number {
  // cpu  user nice system idle iowait irq softirq steal …: busy = all but idle and iowait
  const [user, nice, system, , , irq, softirq, steal] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return user + nice + system + irq + softirq + (steal ?? 0);
}

export function markLoad(serverSeconds: number): LoadMark {
  return { at: performance.now(), busyTicks: busyTicks(), own: process.cpuUsage(), serverSeconds };
}

/** Cores' worth of CPU that neither the server nor the bench used since `mark`. */
export function foreignCores(mark: LoadMark, serverSeconds: number): number {
  const wall = (performance.now() - mark.at) / 1000;
  const busy = (busyTicks() - mark.busyTicks) / HZ;
  const own = process.cpuUsage(mark.own);
  const ours = serverSeconds - mark.serverSeconds + (own.user + own.system) / 1e6;
  return Math.max(0, (busy - ours) / wall);
}

/**
 * Waits (at most `maxSeconds`) until other processes use less than `threshold` cores over a 3 s
 * window, so a scenario does not start in the middle of someone's build. Returns the last load.
 */
export async function waitQuiet(log: (m: string) => void, maxSeconds = 180, threshold = 0.25): Promise<number> {
  const deadline = Date.now() + maxSeconds * 1000;
  let load = Infinity;
  let told = false;
  while (Date.now() < deadline) {
    const mark = markLoad(0);
    await new Promise((r) => setTimeout(r, 3000));
    load = foreignCores(mark, 0);
    if (load < threshold) return load;
    if (!told) log(`waiting for the machine to quieten (other processes use ${load.toFixed(2)} cores)…`);
    told = true;
  }
  log(`machine still busy after ${maxSeconds} s (${load.toFixed(2)} cores); measuring anyway`);
  return load;
}
