/**
 * The one app slot route adapters read: `switchboard()` is the app instrumentation.ts built and
 * started, once it has started. Next.js bundles each route handler apart from instrumentation,
 * so the app is found through the process-level slot (lib/process-singleton.ts), not a module
 * variable. Should a request come before instrumentation ran, the app is built from the
 * environment and started here, as instrumentation would have.
 */
import { installedAppPart } from '../process-singleton';
import { createSwitchboard, settingsFromEnvironment, type Switchboard } from './switchboard';

export { createSwitchboard, settingsFromEnvironment, type Switchboard } from './switchboard';

export async function switchboard(): Promise<Switchboard> {
  const app = installedAppPart('switchboard') ?? createSwitchboard(settingsFromEnvironment());
  await app.start();
  return app;
}

declare module '../process-singleton' {
  interface AppParts {
    /** The app itself, for the route adapters. */
    switchboard: Switchboard;
  }
}
