import { defineConfig } from '@playwright/test';
import { ENGINE_NAMES } from './engines/engines.js';
import type { EngineFixtureOptions } from './engines/fixtures.js';

/**
 * The cross-engine subset (engines/subset.spec.ts) in Chromium, Firefox ESR and WebKitGTK: one
 * project per engine, run one after the other against one stack (engines/globalSetup.ts), one
 * worker (the machine is shared). `npm run test:engines -w @khs/e2e`; one engine: `-- --project=firefox`.
 */
export default defineConfig<EngineFixtureOptions>({
  testDir: './engines',
  testMatch: '*.spec.ts',
  // Its own folder: `npm test` runs this after the Chromium suite, whose screenshots of a failure
  // (in test-results/) would otherwise be wiped by this run.
  outputDir: './test-results/engines',
  // A bound, not a measure: a WebKit visitor starts its own driver and browser, slow on a loaded machine.
  timeout: 180_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['./engines/reporter.ts']],
  globalSetup: './engines/globalSetup.ts',
  projects: ENGINE_NAMES.map((name) => ({ name, use: { engineName: name } })),
});
