/**
 * `streamStdout: true`: a child's stdout, line by line, as chunks of one artifact. Chunks end
 * on line boundaries (a partial line waits for its newline or for the end), so a reader never
 * sees half a line, and concatenating the chunks gives stdout exactly.
 */
import { randomUUID } from 'node:crypto';
import type { TurnEmitter } from '../agent-runner';
import type { EmitQueue } from './emit-queue';

export class StdoutArtifact {
  readonly artifactId = `stdout-${randomUUID()}`;
  // Lossy on purpose: the finished stdout is checked strictly for UTF-8 before the turn completes.
  private readonly decoder = new TextDecoder('utf-8');
  private pending = '';
  private chunks = 0;

  constructor(
    private readonly emit: TurnEmitter,
    private readonly queue: EmitQueue,
  ) {}

  push(chunk: Buffer): void {
    this.pending += this.decoder.decode(chunk, { stream: true });
    const cut = this.pending.lastIndexOf('\n') + 1;
    if (cut === 0) return;
    this.send(this.pending.slice(0, cut), false);
    this.pending = this.pending.slice(cut);
  }

  /** Sends what is left (possibly nothing) as the last chunk. */
  finish(): void {
    this.pending += this.decoder.decode();
    this.send(this.pending, true);
    this.pending = '';
  }

  private send(text: string, lastChunk: boolean): void {
    const append = this.chunks++ > 0;
    const artifact = { artifactId: this.artifactId, name: 'stdout', parts: text ? [{ kind: 'text' as const, text }] : [] };
    this.queue.push(() => this.emit.artifact({ artifact, append, lastChunk }));
  }
}
