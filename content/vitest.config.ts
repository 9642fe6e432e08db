import { defineConfig } from 'vitest/config';

// Own config so `npm test -w @khs/content` runs only this package's tests (the root config covers all).
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
  },
});
