/**
 * Bounds how much garbage V8 lets pile up between full collections. On a machine with plenty of
 * memory V8 lets the old generation grow to about 4× the live heap first; under load Switchboard's
 * live heap is ~50 MB but request garbage is promoted at ~60 MB/s, so the heap swells to ~250 MB
 * and the process to ~350 MB although nothing is kept. A growth of 100% (2× the live heap) holds
 * it near 240 MB for about twice as many full GCs (~1% CPU). Measured in docs/benchmarks.md
 * (scenarios 2 and 4); decision 14 in docs/decisions.md. The young generation's size can only be
 * set on the command line: scripts/server-node-flags.json (decision 379).
 *
 * V8 reads this flag each time it sizes the heap after a full GC, so setting it at start-up
 * (rather than on the node command line) applies it however the server is launched.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export function applyHeapGrowth(percent: number): void {
  if (percent <= 0) return;
  setFlagsFromString(`--heap-growing-percent=${percent}`);
  // The growth applies from the first full collection on. Before it, V8 lets the old generation
  // reach a limit sized from the machine (~200 MB of garbage under load here), so one full
  // collection at boot, with the small live heap of a fresh process, puts the bound in force.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  setFlagsFromString('--no-expose-gc');
  gc();
}
