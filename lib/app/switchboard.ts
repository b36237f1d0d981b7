/**
 * The composition root: `createSwitchboard(settings)` builds the app once — its settings, store,
 * event hub, engine state, outboxes, launchers and caches — and installs those parts where the
 * layers below reach them (lib/process-singleton.ts). `start()` runs the start-up steps in
 * order (docs/architecture.md lists them); `stop()` drains and stops everything the start
 * began, so a test can build, run and stop an app in-process and the process can exit.
 * instrumentation.ts builds and starts the server's app; route adapters reach it through
 * `switchboard()` (lib/app/index.ts).
 */
import { SettingsError, loadSettings, type Settings } from '../config/settings';
import { addAppParts, installAppParts } from '../process-singleton';
import { errorMessage, log, setLogLevel } from '../log';
import { refuseToStart } from '../runtime/refuse';
import { buildParts, type Parts } from './parts';
import { startSteps, type Started } from './start-steps';
import { stopSteps } from './stop-steps';

export interface Switchboard {
  readonly settings: Settings;
  /** What the layers below reach (the store, the hub, the engine's registries, the caches). */
  readonly parts: Parts;
  /** Runs start-up once; a second call returns the first's promise. */
  start(): Promise<void>;
  /** Drains (`cutShort` ends the drain early) and stops what start() began. Once. */
  stop(cutShort?: AbortSignal): Promise<void>;
}

/** The settings from the environment, or a refused start naming what is wrong. */
export function settingsFromEnvironment(): Settings {
  try {
    return loadSettings();
  } catch (err) {
    if (err instanceof SettingsError) refuseToStart(err.message);
    throw err;
  }
}

export function createSwitchboard(settings: Settings): Switchboard {
  installAppParts({ settings }); // a new app record: what is built below reads these settings
  setLogLevel(settings.logLevel);
  const parts = buildParts(settings);
  let started: Promise<Started> | null = null;
  let stopped: Promise<void> | null = null;
  const app: Switchboard = {
    settings,
    parts,
    start() {
      started ??= startSteps(settings, parts);
      return started.then(() => undefined);
    },
    stop(cutShort) {
      stopped ??= (async () => {
        const running = await started?.catch((err) => log.error('stopping an app whose start failed', { error: errorMessage(err) }));
        await stopSteps(settings, parts, running ?? null, cutShort);
      })();
      return stopped;
    },
  };
  addAppParts({ ...parts, switchboard: app });
  return app;
}
