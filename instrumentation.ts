// Start-up for the Node.js server: build the app (lib/app/switchboard.ts), start it (configuration,
// migrations, recovery, outbound following, logged-out sessions, HTTP server timeouts, the gRPC
// listener), and stop it on SIGTERM / SIGINT before exiting.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { createSwitchboard, settingsFromEnvironment } = await import('./lib/app');
  const { exitOnSignals } = await import('./lib/app/signals');
  const app = createSwitchboard(settingsFromEnvironment());
  await app.start();
  exitOnSignals((cutShort) => app.stop(cutShort));
}
