import { defineConfig } from 'vitest/config';

// The remote's own unit tests (`npm test -w mf-widgets`); the root config runs them too.
export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
  },
});
