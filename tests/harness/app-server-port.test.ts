/**
 * The test harness must not take another process's server for its app. A port is only
 * free until someone binds it (test files in parallel, other engineers' processes), and a server
 * that answers /api/health on it would pass a health check alone: startApp also waits for its
 * own child to say it listens, and chooses another port when the bind fails (EADDRINUSE).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp } from '../support/app-server';

let impostor: http.Server;
let takenPort = 0;

beforeAll(async () => {
  impostor = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}'));
  await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve));
  takenPort = (impostor.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => impostor.close(() => resolve())));

describe('startApp on a taken port', () => {
  it('with the port given, fails with the bind error instead of using the server already there', async () => {
    await expect(startApp({}, { port: takenPort })).rejects.toThrow(/EADDRINUSE/);
  });

  it('the health check alone is not readiness: an app started on a free port is our child', async () => {
    const app = await startApp();
    try {
      expect(app.port).not.toBe(takenPort);
      expect(app.logs()).toContain('Ready in');
      expect((await fetch(`${app.url}/api/health`)).status).toBe(200);
    } finally {
      await app.stop();
    }
  });
});
