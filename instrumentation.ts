// Boot work for the Node.js server: configuration, migrations, recovery, outbound following,
// logged-out sessions, HTTP server timeouts, shutdown hook.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { ensureBooted, onBoot } = await import('./lib/runtime/boot');
  const { startOutboundClient } = await import('./lib/engine/outbound/resume');
  const { loadRevokedSessions } = await import('./lib/auth/revocations');
  const { applyServerTimeouts } = await import('./lib/server/http-timeouts');
  onBoot(startOutboundClient); // sync configured and built-in peers, then resume following
  onBoot(loadRevokedSessions);
  onBoot(async () => void applyServerTimeouts());
  await ensureBooted();
}
