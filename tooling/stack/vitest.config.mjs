import { defineConfig } from 'vitest/config';

// The tests start Node processes: generous on a busy machine.
export default defineConfig({ test: { include: ['*.test.mjs'], testTimeout: 30_000 } });
