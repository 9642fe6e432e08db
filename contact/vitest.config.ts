import { defineConfig } from 'vitest/config';

// The contact service's tests (route tests on SQLite, and on PostgreSQL with TEST_DATABASE_URL or DATABASE_URL).
export default defineConfig({
  test: {
    include: ['server/**/*.test.{ts,tsx}'],
    environment: 'node',
  },
});
