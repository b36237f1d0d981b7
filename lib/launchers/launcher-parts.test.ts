import { describe, expect, it } from 'vitest';
import { BoundedCapture, TailBuffer } from './byte-buffers';
import { buildChildEnv } from './child-env';
import { KeyedLock } from './keyed-lock';
import { substituteArgv } from './placeholders';
import { parseProcStat } from './proc-table';
import { extractReply, readDotPath } from './reply';
import { FrameReader } from './rpc/frame-reader';
import { parseWorkerFrame } from './rpc/frames';

describe('bounded buffers', () => {
  it('BoundedCapture keeps nothing past its limit', () => {
    const capture = new BoundedCapture(10);
    expect(capture.push(Buffer.from('12345'))).toBe(true);
    expect(capture.push(Buffer.from('67890'))).toBe(true);
    expect(capture.push(Buffer.from('x'))).toBe(false);
    expect(capture.overflowed).toBe(true);
    expect(capture.toBuffer().toString()).toBe('1234567890');
  });

  it('TailBuffer keeps the last bytes, even of one huge chunk', () => {
    const tail = new TailBuffer(8);
    tail.push(Buffer.from('a'.repeat(1000)));
    tail.push(Buffer.from('0123456789'));
    expect(tail.text()).toBe('23456789');
    expect(tail.bytesSeen).toBe(1010);
  });
});

describe('placeholders and env', () => {
  it('substitutes in one pass', () => {
    expect(substituteArgv(['x', '{prompt}|{agent}'], { prompt: '{agent}', agent: 'a' })).toEqual(['x', '{agent}|a']);
  });

  it('builds the minimal env from a given source', () => {
    const env = buildChildEnv({ passEnv: ['KEEP'], env: { SET: '1' } }, { PATH: '/bin', SECRET: 's', KEEP: 'k', LANG: 'C' });
    expect(env).toEqual({ PATH: '/bin', LANG: 'C', KEEP: 'k', SET: '1' });
  });
});

describe('/proc stat parsing', () => {
  it('reads fields after a command name containing spaces and parentheses', () => {
    expect(parseProcStat('4242 (my (odd) cmd) S 1 4200 4100 0 -1')).toEqual({ pid: 4242, state: 'S', pgrp: 4200, session: 4100, startTime: '' });
  });
});

describe('reply extraction', () => {
  const text = { format: 'text', stripSessionMatch: false } as const;
  it('reads dot paths through arrays, never through the prototype', () => {
    expect(readDotPath({ a: [{ b: 'x' }] }, 'a.0.b')).toBe('x');
    expect(readDotPath({}, '__proto__')).toBeUndefined();
  });

  it('rejects empty and oversized replies', () => {
    expect(extractReply(Buffer.from(' \n'), text, 10)).toEqual({ ok: false, reason: 'empty reply' });
    expect(extractReply(Buffer.from('ééééé é'), text, 10)).toEqual({ ok: false, reason: 'output limit exceeded: reply is 13 bytes (limit 10)' });
  });
});

describe('KeyedLock', () => {
  it('serialises one key, and an aborted waiter does not break the queue', async () => {
    const lock = new KeyedLock();
    const never = new AbortController().signal;
    const first = await lock.acquire('k', never);
    const giveUp = new AbortController();
    const waiting = lock.acquire('k', giveUp.signal);
    const third = lock.acquire('k', never);
    giveUp.abort();
    expect(await waiting).toBeNull();
    let thirdHas = false;
    void third.then(() => (thirdHas = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(thirdHas).toBe(false);
    first!();
    (await third)!();
    expect(await lock.acquire('other', never)).toBeTypeOf('function');
  });
});

describe('worker frames', () => {
  it('splits lines, skips blank ones, and refuses a frame over the limit before it ends', () => {
    const reader = new FrameReader(16);
    expect(reader.push(Buffer.from('{"a":1}\n\n{"b"'))).toEqual({ lines: ['{"a":1}'] });
    expect(reader.push(Buffer.from(':2}\r\n'))).toEqual({ lines: ['{"b":2}'] });
    expect(reader.push(Buffer.from('x'.repeat(17)))).toEqual({ lines: [], error: 'frame exceeds 16 bytes' });
  });

  it('refuses bad UTF-8', () => {
    expect(new FrameReader(16).push(Buffer.from([0xff, 0x0a])).error).toBe('frame is not valid UTF-8');
  });

  it('names what is wrong with a frame', () => {
    expect(parseWorkerFrame('[1]')).toEqual({ ok: false, reason: 'malformed frame (not a JSON object): "[1]"' });
    expect(parseWorkerFrame('{"taskId":"t"}')).toEqual({ ok: false, reason: 'unknown frame type undefined' });
    expect(parseWorkerFrame('{"type":"final","taskId":"t","parts":[{"kind":"file","file":{}}]}')).toEqual({
      ok: false,
      reason: 'invalid "final" frame: parts.0.file: a file part needs "bytes" or "uri"',
    });
    expect(parseWorkerFrame('{"type":"final","taskId":"t","text":"hi","future":1}')).toEqual({
      ok: true,
      frame: { type: 'final', taskId: 't', text: 'hi' },
    });
  });
});

describe('JSON-lines replies (output.format "jsonl")', () => {
  const output = { format: 'jsonl' as const, replyField: 'item.text', replyWhere: { 'item.type': 'agent_message' }, sessionIdField: 'thread_id' };
  const lines = (...docs: unknown[]) => Buffer.from(docs.map((d) => JSON.stringify(d)).join('\n') + '\n');

  it('takes the last matching line as the reply and the first session id', () => {
    const stdout = lines(
      { type: 'thread.started', thread_id: 't-1' },
      { type: 'item.completed', item: { type: 'agent_message', text: 'first answer' } },
      { type: 'item.completed', item: { type: 'agent_message', text: 'final answer' } },
      { type: 'item.completed', item: { type: 'reasoning', text: 'a later thought is not the reply' } },
      { type: 'turn.completed' },
    );
    expect(extractReply(stdout, output, 1000)).toEqual({ ok: true, text: 'final answer', sessionId: 't-1' });
  });

  it('names the line that is not JSON, and says when no line has the reply', () => {
    expect(extractReply(Buffer.from('{"a":1}\nnot json\n'), output, 1000)).toMatchObject({ ok: false, reason: expect.stringMatching(/^stdout line 2 is not valid JSON/) });
    expect(extractReply(lines({ item: { type: 'reasoning', text: 'x' } }), output, 1000)).toEqual({
      ok: false,
      reason: 'no line of the JSON-lines output has a string "item.text" where item.type = "agent_message"',
    });
  });
});
