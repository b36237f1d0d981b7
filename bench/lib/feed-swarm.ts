/**
 * Dashboard feed subscribers in a process of their own (bench/postgres.ts forks it), so that
 * receiving hundreds of feeds does not delay the event loop that timestamps the frames whose
 * latency is measured: 900 feeds at 100 tasks/s are ~18,000 frames a second.
 *
 * Protocol (IPC): the parent sends `{ feeds: { url, count, parsing }[] }`; this process answers
 * `{ open: true }` once every feed has its headers, then on `{ finish: true }` answers with
 * each feed's `{ group, parsing, completed, whole }` and exits. `completed`: how many tasks a
 * parsing feed saw `completed`. `whole`: the feed received every frame its instance sent after
 * the group's last feed opened. The feed sends each frame to the subscribers it has at that
 * moment, all the same bytes, so the feed that opened last received a suffix of everyone's
 * frames, and every feed's frames must end with exactly that sequence (compared by length and
 * head and tail of each frame's data; only parsing feeds parse).
 */
import http from 'node:http';
import { setMaxListeners } from 'node:events';
import { readSse } from './sse-client';

export interface FeedGroup {
  url: string;
  count: number;
  /** How many of them parse every frame. */
  parsing: number;
}

export interface FeedReport {
  group: number;
  parsing: boolean;
  completed: number;
  whole: boolean;
}

interface Feed {
  group: number;
  parsing: boolean;
  completed: Set<string>;
  /** A short fingerprint of each data frame, in order. */
  frames: string[];
  opened: Promise<void>;
}

const fingerprint = (data: string) => `${data.length}:${data.slice(0, 40)}…${data.slice(-40)}`;

function endsWith(frames: string[], suffix: string[]): boolean {
  const offset = frames.length - suffix.length;
  return offset >= 0 && suffix.every((f, i) => frames[offset + i] === f);
}

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
const stop = new AbortController();
setMaxListeners(0, stop.signal);
let feeds: Feed[] = [];

function follow(url: string, group: number, parsing: boolean): Feed {
  let opened!: () => void;
  const feed: Feed = { group, parsing, completed: new Set(), frames: [], opened: new Promise<void>((r) => (opened = r)) };
  void readSse({
    url,
    agent,
    signal: stop.signal,
    onOpen: () => opened(),
    onFrame: (frame) => {
      if (frame.event !== 'tasks') return;
      feed.frames.push(fingerprint(frame.data));
      if (parsing) for (const t of (JSON.parse(frame.data) as { tasks: { id: string; state: string }[] }).tasks) if (t.state === 'completed') feed.completed.add(t.id);
    },
  });
  return feed;
}

process.on('message', (message: { feeds?: FeedGroup[]; finish?: boolean }) => {
  if (message.feeds) {
    feeds = message.feeds.flatMap((g, group) => Array.from({ length: g.count }, (_, i) => follow(g.url, group, i < g.parsing)));
    void Promise.all(feeds.map((f) => f.opened)).then(() => process.send!({ open: true }));
  }
  if (message.finish) {
    const shortest = new Map<number, string[]>();
    for (const f of feeds) if (!shortest.has(f.group) || f.frames.length < shortest.get(f.group)!.length) shortest.set(f.group, f.frames);
    const report: FeedReport[] = feeds.map((f) => ({ group: f.group, parsing: f.parsing, completed: f.completed.size, whole: endsWith(f.frames, shortest.get(f.group)!) }));
    stop.abort();
    agent.destroy();
    process.send!({ report }, () => process.exit(0));
  }
});
