/**
 * A round-robin TCP load balancer in a process of its own (forked by bench/lib/cluster.ts):
 * each new connection goes to the next instance, and its bytes are piped both ways, as a
 * TCP-mode HAProxy or nginx `stream` would. Its own process, so that piping the load does not
 * delay the event loop that timestamps the measured frames.
 *
 * Protocol (IPC): the parent sends `{ backends: ["127.0.0.1:port", …] }`; this process answers
 * `{ port }` once it listens on a free loopback port; on `{ finish: true }` it answers
 * `{ connections: [n per backend] }` and exits.
 */
import net from 'node:net';

const counts: number[] = [];

function listen(backends: string[]): void {
  let next = 0;
  counts.push(...backends.map(() => 0));
  const server = net.createServer((client) => {
    const i = next++ % backends.length;
    counts[i]++;
    const [host, port] = backends[i].split(':');
    const upstream = net.connect({ host, port: Number(port) });
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    client.pipe(upstream).pipe(client);
    const close = () => (client.destroy(), upstream.destroy());
    client.on('error', close);
    upstream.on('error', close);
  });
  server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as net.AddressInfo).port }));
}

process.on('message', (message: { backends?: string[]; finish?: boolean }) => {
  if (message.backends) listen(message.backends);
  if (message.finish) process.send!({ connections: counts }, () => process.exit(0));
});
