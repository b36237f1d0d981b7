import { defineConfig } from 'vitest/config';
import path from 'node:path';

/**
 * Tests that run on both providers: the storage and engine tests, and a representative set of
 * protocol tests. The `postgresql` project runs them again against a real PostgreSQL
 * (tests/support/pg-global-setup.ts); helpers in tests/support pick the store from
 * SWITCHBOARD_TEST_STORE, so a test opts in by being listed here and using freshStore() or
 * startApp().
 */
const BOTH_PROVIDERS = [
  'tests/db/**/*.test.ts',
  'tests/engine/terminal-claim.test.ts',
  'tests/engine/outcome-artifacts.test.ts',
  'tests/engine/snapshot-consistency.test.ts',
  'tests/engine/launcher-sessions.test.ts',
  'tests/engine/conversation.test.ts',
  'tests/engine/output-limit.test.ts',
  'tests/engine/chunk-runs.test.ts',
  'tests/engine/summary-rule.test.ts',
  'tests/engine/task-search.test.ts',
  'tests/protocol/lifecycle.test.ts',
  'tests/protocol/timing-contract.test.ts',
  'tests/protocol/sdk-interop.test.ts',
  'tests/protocol/errors.test.ts',
  'tests/protocol/caller-scope.test.ts',
  'tests/protocol/conversation.test.ts',
  'tests/protocol/crash-reaping.test.ts',
  'tests/protocol/launched-agents.test.ts',
  'tests/notify/webhooks.test.ts',
  'tests/notify/outbox-retention.test.ts',
  'tests/protocol/push-notifications.test.ts',
  'tests/protocol/outbox-crash.test.ts',
  'tests/protocol/push-durable.test.ts',
  'tests/protocol/caller-ids.test.ts',
  'tests/protocol/auth-and-cards.test.ts',
  'tests/protocol/signed-cards.test.ts',
  'tests/protocol/oidc-inbound.test.ts',
  'tests/protocol/window-end.test.ts',
  'tests/protocol/relay.test.ts',
  'tests/protocol/context-follow-up.test.ts',
  'tests/protocol/http-json.test.ts',
  'tests/protocol/subscribe-input-required.test.ts',
  'tests/protocol/idempotent-sends.test.ts',
  'tests/protocol/generations.test.ts',
  'tests/security/sessions.test.ts',
  'tests/security/bounds.test.ts',
  'tests/security/caller-quotas.test.ts',
  'tests/db/open-task-count.test.ts',
  'tests/security/exposure.test.ts',
  'tests/client/restart.test.ts',
  'tests/client/peer-auth.test.ts',
  'tests/protocol/relay-rest-peer.test.ts',
  'tests/protocol/relay-legacy-peer.test.ts',
  'tests/protocol/relay-commits.test.ts',
  'tests/protocol/echo-commits.test.ts',
  'tests/protocol/relay-chunk-rows.test.ts',
  'tests/mcp/mcp.test.ts',
  'tests/client/dispatch-again.test.ts',
  'tests/cli/export-and-retention.test.ts',
  'tests/security/audit-log.test.ts',
];

/**
 * Unit tests: module tests next to their code (lib/) and the few pure tests under tests/. They
 * need no build, no app server and no shared database, so `npm run test:unit` runs them in
 * seconds; `npm test` runs them once, in this project, and everything else in the others.
 */
const UNIT = ['lib/**/*.test.ts', 'tests/layering/**/*.test.ts', 'tests/client/resolution-rules.test.ts', 'tests/client/remote-event-titles.test.ts'];

/**
 * Files of the database projects that run alone, after the others: their timing (a stream that
 * must join within a few of 40 events; 1,000 cross-instance races in a minute) did not hold with
 * another file beside them on a loaded 2-core machine (decision 314).
 */
const ALONE = ['tests/postgres/instances.test.ts'];

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    environment: 'node',
    globals: false,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    pool: 'forks',
    projects: [
      {
        // Pure tests share nothing (no server, no database, no file outside their temp dirs).
        // Every project runs two files at a time, in its own group (Vitest needs a group order of
        // its own per worker count, and the database projects would otherwise share the CPU with
        // the unit files); the files of ALONE run one at a time, last.
        extends: true,
        test: { name: 'unit', include: UNIT, fileParallelism: true, maxWorkers: 2, sequence: { groupOrder: 0 } },
      },
      {
        // Each app or in-process store has its own database (a SQLite file in its own temp dir, or
        // a PostgreSQL database of its own on the shared test server), its own port and keys.
        extends: true,
        test: {
          name: 'sqlite',
          fileParallelism: true,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
          include: ['tests/**/*.test.ts'],
          exclude: ['tests/postgres/**', ...UNIT, ...ALONE],
          globalSetup: ['tests/support/global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'postgresql',
          fileParallelism: true,
          maxWorkers: 2,
          sequence: { groupOrder: 2 },
          include: [...BOTH_PROVIDERS, 'tests/postgres/**/*.test.ts'],
          exclude: ALONE,
          globalSetup: ['tests/support/global-setup.ts', 'tests/support/pg-global-setup.ts'],
          env: { SWITCHBOARD_TEST_STORE: 'postgresql' },
        },
      },
      {
        extends: true,
        test: {
          name: 'postgresql-alone',
          sequence: { groupOrder: 3 },
          include: ALONE,
          globalSetup: ['tests/support/global-setup.ts', 'tests/support/pg-global-setup.ts'],
          env: { SWITCHBOARD_TEST_STORE: 'postgresql' },
        },
      },
    ],
  },
});
