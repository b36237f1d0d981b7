import { describe, expect, it } from 'vitest';
import { MAX_OUTPUT_CHARS } from './limits';
import { CursorSchema, formatCursor, hasNews, START, viewOf, type TaskState } from './task-view';

const task = (over: Partial<TaskState> = {}): TaskState => ({ taskId: 't1', state: 'working', lastSeq: 5, statusMessage: '50% done', endReason: null, text: '', ...over });

describe('the MCP task view', () => {
  it('returns only the output after the cursor, bounded, and a cursor that continues it', () => {
    const text = 'a'.repeat(MAX_OUTPUT_CHARS) + 'b'.repeat(10);
    const first = viewOf(task({ state: 'completed', text }), START);
    expect(first.output).toBe('a'.repeat(MAX_OUTPUT_CHARS));
    expect(first.moreOutput).toBe(true);
    expect(first.next).toContain(`"since":"5.${MAX_OUTPUT_CHARS}"`);
    const second = viewOf(task({ state: 'completed', text }), CursorSchema.parse(first.cursor));
    expect(second.output).toBe('b'.repeat(10));
    expect(second.moreOutput).toBe(false);
    expect(second.next).toContain('completes its result');
  });

  it('says a running task is still running and which tool to call with which id', () => {
    const view = viewOf(task({ text: 'abc' }), START);
    expect(view.done).toBe(false);
    expect(view.next).toContain('still running');
    expect(view.next).toContain('Call wait with {"taskId":"t1","since":"5.3"}');
  });

  it('sends a task waiting for input to reply', () => {
    const view = viewOf(task({ state: 'input-required', statusMessage: 'What is your name?' }), START);
    expect(view.needsInput).toBe(true);
    expect(view.next).toContain('reply {"taskId":"t1"');
  });

  it('has news past the cursor, or at the end of a turn, and not otherwise', () => {
    const at = { seq: 5, chars: 3 };
    expect(hasNews(task({ text: 'abc' }), at)).toBe(false);
    expect(hasNews(task({ lastSeq: 6, text: 'abc' }), at)).toBe(true);
    expect(hasNews(task({ text: 'abcd' }), at)).toBe(true);
    expect(hasNews(task({ state: 'input-required', text: 'abc' }), at)).toBe(true);
  });

  it('parses only cursors it issued', () => {
    expect(CursorSchema.parse(formatCursor({ seq: 12, chars: 3456 }))).toEqual({ seq: 12, chars: 3456 });
    for (const bad of ['', '12', '12.', 'a.b', '1.2.3', '-1.2', `${'9'.repeat(16)}.1`]) expect(CursorSchema.safeParse(bad).success, bad).toBe(false);
  });
});
