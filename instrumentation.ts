// Boot work for the Node.js server: configuration, migrations, recovery, shutdown hook.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { ensureBooted } = await import('./lib/engine/boot');
  await ensureBooted();
}
