// Boot work for the Node.js server: configuration, migrations, recovery, outbound following,
// shutdown hook.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { ensureBooted, onBoot } = await import('./lib/engine/boot');
  const { startOutboundClient } = await import('./lib/client');
  onBoot(startOutboundClient); // sync configured and built-in peers, then resume following
  await ensureBooted();
}
