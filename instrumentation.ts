// Boot work for the Node.js server: configuration, migrations, recovery, outbound following,
// logged-out sessions, HTTP server timeouts, the gRPC listener, shutdown hook.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { ensureBooted, onBoot } = await import('./lib/runtime/boot');
  const { startOutboundClient } = await import('./lib/engine');
  const { loadRevokedSessions } = await import('./lib/auth/revocations');
  const { applyServerTimeouts } = await import('./lib/server/http-timeouts');
  const { startGrpcServer } = await import('./lib/server/grpc-server');
  onBoot(startOutboundClient); // sync configured and built-in peers, then resume following
  onBoot(loadRevokedSessions);
  onBoot(async () => void applyServerTimeouts());
  onBoot(startGrpcServer); // SWITCHBOARD_GRPC_PORT: the A2A gRPC binding on a port of its own
  await ensureBooted();
}
