/**
 * How a followed task is shown: the result text goes to stdout as it grows (so it can be piped),
 * progress to stderr, as a spinner line on a terminal and as plain timestamped lines otherwise.
 */
import { describeEvent } from '../dashboard/event-description';
import type { TaskDetail, TimelineEvent } from '../dashboard/wire';
import { statusTextOf, summaryChangeOf } from '../protocol/summary-rule';
import { textOf, type Artifact } from '../protocol/types';
import type { FollowView } from './follow';
import { terminalLine, terminalText } from '../util/terminal-text';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const SPIN_MS = 100;

interface Stream {
  write(text: string): unknown;
  isTTY?: boolean;
}

/**
 * Writes only the part of each artifact's text not yet written; a replaced artifact is written
 * again. An artifact that took the place of one already written (a peer's final task re-rendering
 * its reply under a new artifactId) continues that text instead of repeating it.
 */
export class ResultWriter {
  private readonly written = new Map<string, string>();
  private lastId: string | null = null;
  private total = '';

  constructor(private readonly out: Stream) {}

  update(artifacts: Artifact[]): void {
    const present = new Set(artifacts.map((a) => a.artifactId));
    const gone = [...this.written].filter(([id]) => !present.has(id));
    for (const artifact of artifacts) {
      const text = textOf(artifact.parts);
      const replaced = this.written.has(artifact.artifactId) ? undefined : gone.find(([, shown]) => shown && text.startsWith(shown));
      if (replaced) {
        gone.splice(gone.indexOf(replaced), 1);
        this.written.delete(replaced[0]);
        this.written.set(artifact.artifactId, replaced[1]);
        if (this.lastId === replaced[0]) this.lastId = artifact.artifactId;
      }
      const before = this.written.get(artifact.artifactId) ?? '';
      if (text === before) continue;
      const grown = text.startsWith(before);
      // A new artifact, or one replaced in full, starts on its own line.
      const fresh = !grown || (this.lastId !== null && this.lastId !== artifact.artifactId);
      this.emit((fresh && !this.atLineStart ? '\n' : '') + (grown ? text.slice(before.length) : text));
      this.written.set(artifact.artifactId, text);
      this.lastId = artifact.artifactId;
    }
  }

  get bytes(): number {
    return Buffer.byteLength(this.total);
  }

  get atLineStart(): boolean {
    return this.total === '' || this.total.endsWith('\n');
  }

  finish(): void {
    if (!this.atLineStart) this.emit('\n');
  }

  private emit(text: string): void {
    this.total += text;
    this.out.write(terminalText(text));
  }
}

function formatBytes(n: number): string {
  return n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} kB`;
}

export class ProgressView implements FollowView {
  private state = 'submitted';
  private status = '';
  private frame = 0;
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly startedAt = Date.now();
  private drawn = false;

  constructor(
    private readonly taskId: string,
    private readonly err: Stream,
    private readonly result: ResultWriter | null,
    /** Whether result text shares the terminal with the spinner (then it only spins at a line start). */
    private readonly sharedTerminal: boolean,
  ) {
    if (err.isTTY) this.timer = setInterval(() => this.draw(), SPIN_MS);
  }

  onTask(detail: TaskDetail): void {
    if (detail.task.state !== this.state) this.line(`${detail.task.state}${detail.task.endReason ? `: ${detail.task.endReason}` : ''}`);
    this.state = detail.task.state;
    this.status = detail.task.statusText;
  }

  onEvent(event: TimelineEvent): void {
    const { title, detail } = describeEvent(event);
    // State and status text change by the one summary rule the server and the browser use.
    const { state, statusMessage } = summaryChangeOf(event, event.at);
    if (state) this.state = state;
    if (statusMessage !== undefined) this.status = statusTextOf(statusMessage);
    this.line(detail ? `${title}: ${detail}` : title);
  }

  onArtifacts(artifacts: Artifact[]): void {
    this.clear();
    this.result?.update(artifacts);
  }

  /** The state and status text the spinner line shows. */
  shown(): { state: string; status: string } {
    return { state: this.state, status: this.status };
  }

  onReconnecting(reason: string, attempt: number): void {
    this.line(`connection lost (${reason}); reconnecting, attempt ${attempt}`);
  }

  /** A lasting line (stderr), above the spinner. */
  line(text: string): void {
    this.clear();
    const stamp = new Date().toISOString().slice(11, 19);
    this.err.write(`[${stamp}] ${terminalLine(text)}\n`);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.clear();
  }

  private canDraw(): boolean {
    return !this.sharedTerminal || !this.result || this.result.atLineStart;
  }

  private clear(): void {
    if (this.drawn) this.err.write('\r\x1b[K');
    this.drawn = false;
  }

  private draw(): void {
    if (!this.canDraw()) return;
    const seconds = Math.round((Date.now() - this.startedAt) / 1000);
    const received = this.result?.bytes ? ` · ${formatBytes(this.result.bytes)}` : '';
    const status = this.status ? ` · ${terminalLine(this.status)}` : '';
    const text = `${SPINNER[this.frame++ % SPINNER.length]} ${this.taskId.slice(0, 12)} ${this.state} ${seconds}s${received}${status}`;
    const width = process.stderr.columns || 100;
    this.err.write(`\r\x1b[K${text.slice(0, width - 1)}`);
    this.drawn = true;
  }
}
