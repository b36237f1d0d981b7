/** What every scenario gets, and what it hands back for the results file and the report. */
import type { RunningServer, ServerKind, StartOptions } from './servers';

export interface BenchContext {
  quick: boolean;
  /** Measured runs per server (after a warm-up), interleaved A, B, C, A, B, C... */
  runs: number;
  distDir: string;
  /** Where servers write --cpu-prof profiles, when profiling. */
  cpuProfDir?: string;
  log(message: string): void;
  /** Starts a server with the bench's build and profiling settings. */
  start(kind: ServerKind, extra?: Partial<StartOptions>): Promise<RunningServer>;
}

export interface Target {
  /** What is promised, e.g. "echo ≥ 0.75× next-floor". */
  name: string;
  /** The figure reached, as shown in the report. */
  value: string;
  met: boolean;
}

export interface ScenarioResult {
  id: string;
  title: string;
  params: Record<string, unknown>;
  /** Raw figures for the results file. */
  data: Record<string, unknown>;
  /** Markdown table: header row first. */
  table: string[][];
  targets: Target[];
  notes: string[];
}

export const fmt = (n: number, digits = 0): string =>
  Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '—';
