/**
 * The parts the root builds with the app's settings before anything runs. The caches and
 * per-concern state the other layers declare in AppParts are created on first use in the same
 * app record, so a new app starts with none of a previous app's state.
 */
import type { Settings } from '../config/settings';
import { openStore } from '../db/store';
import { EventHub } from '../events/hub';
import { ExecutionRegistry, FollowerRegistry, OutputMeter } from '../engine';
import type { AppParts } from '../process-singleton';

export type Parts = Pick<AppParts, 'store' | 'hub' | 'executions' | 'outputMeter' | 'followers'>;

export function buildParts(settings: Settings): Parts {
  return {
    store: openStore(settings.databaseUrl),
    hub: new EventHub(),
    executions: new ExecutionRegistry(),
    outputMeter: new OutputMeter(),
    followers: new FollowerRegistry(),
  };
}
