import { defineConfig } from 'vitest/config';

// This package's unit tests (DOM tests opt in with `// @vitest-environment jsdom`).
export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'node',
  },
});
