/** Small order statistics for benchmark samples. */

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export const median = (values: number[]): number => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Median with the range of the runs, the way every figure in the report is given. */
export interface Spread {
  median: number;
  min: number;
  max: number;
  runs: number[];
}

export function spread(runs: number[]): Spread {
  return { median: median(runs), min: Math.min(...runs), max: Math.max(...runs), runs };
}

export function round(value: number, digits = 0): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Millisecond histogram for many samples (fan-out latencies): 1 ms buckets up to `maxMs`. */
export class Histogram {
  private readonly buckets: Uint32Array;
  count = 0;
  max = 0;

  constructor(private readonly maxMs = 60_000) {
    this.buckets = new Uint32Array(maxMs + 1);
  }

  add(ms: number): void {
    const v = Math.max(0, Math.round(ms));
    this.buckets[Math.min(v, this.maxMs)]++;
    this.count++;
    if (v > this.max) this.max = v;
  }

  percentile(p: number): number {
    if (this.count === 0) return NaN;
    const rank = Math.ceil((p / 100) * this.count);
    let seen = 0;
    for (let ms = 0; ms < this.buckets.length; ms++) {
      seen += this.buckets[ms];
      if (seen >= rank) return ms;
    }
    return this.maxMs;
  }
}
