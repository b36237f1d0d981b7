/**
 * A probe of the event loop's poll phase for tests of bounded work per turn (lib/util/turn-slices.ts).
 */
import net from 'node:net';

/**
 * A socket pair on loopback: `poke()` writes a byte, and the promise of `seen()` resolves with
 * what `read()` returned when the byte was handled, which happens in a poll phase of the loop
 * (where the server answers its health probe), never inside a timers or check phase.
 */
export async function probe(read: () => number) {
  let seenAt: number | undefined;
  let resolveSeen: (at: number) => void = () => {};
  const seen = new Promise<number>((resolve) => (resolveSeen = resolve));
  const server = net.createServer((socket) =>
    socket.once('data', () => {
      seenAt = read();
      resolveSeen(seenAt);
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const client = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => client.once('connect', resolve));
  return {
    poke: () => client.write('x'),
    seen,
    close: () => {
      client.destroy();
      server.close();
    },
  };
}
