import { defineConfig } from 'vitest/config';

// The slice's tests: its browser remote (src/, DOM tests opt in with `// @vitest-environment jsdom`) and its service (server/).
export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'server/**/*.test.{ts,tsx}'],
    environment: 'node',
  },
});
