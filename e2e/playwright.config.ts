import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './harness/chromium.js';

export default defineConfig({
  testDir: './tests',
  timeout: 45_000,
  expect: { timeout: 8_000 },
  fullyParallel: false,
  // Each worker runs its own stack (search server, shell, remotes); two fit on two cores.
  workers: process.env.CI ? 2 : 2,
  // No retries: a test that fails once is a failure to find, not to repeat.
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  globalSetup: './harness/globalSetup.ts',
  use: {
    launchOptions: chromiumLaunchOptions(),
    trace: 'off',
    screenshot: 'only-on-failure',
  },
});
