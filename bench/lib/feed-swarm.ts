/**
 * Dashboard feed subscribers in a process of their own (bench/postgres.ts forks it), so that
 * receiving hundreds of feeds does not delay the event loop that timestamps the frames whose
 * latency is measured: 900 feeds at 100 tasks/s are ~18,000 frames a second.
 *
 * Protocol (IPC): the parent sends `{ feeds: { url, count, parsing }[] }`; this process answers
 * `{ open: true }` once every feed has its headers, then on `{ finish: true }` answers with
 * each feed's `{ group, parsing, completed, bytes }` (the ids of the tasks it saw `completed` are
 * counted only on parsing feeds; every feed counts the bytes of its data frames) and exits.
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
  bytes: number;
}

interface Feed {
  group: number;
  parsing: boolean;
  completed: Set<string>;
  bytes: number;
  opened: Promise<void>;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
const stop = new AbortController();
setMaxListeners(0, stop.signal);
let feeds: Feed[] = [];

function follow(url: string, group: number, parsing: boolean): Feed {
  let opened!: () => void;
  const feed: Feed = { group, parsing, completed: new Set(), bytes: 0, opened: new Promise<void>((r) => (opened = r)) };
  void readSse({
    url,
    agent,
    signal: stop.signal,
    onOpen: () => opened(),
    onFrame: (frame) => {
      if (frame.event !== 'tasks') return;
      feed.bytes += frame.data.length;
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
    const report: FeedReport[] = feeds.map((f) => ({ group: f.group, parsing: f.parsing, completed: f.completed.size, bytes: f.bytes }));
    stop.abort();
    agent.destroy();
    process.send!({ report }, () => process.exit(0));
  }
});
