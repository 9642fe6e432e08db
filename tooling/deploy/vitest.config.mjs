import { defineConfig } from 'vitest/config';

// Some tests start Node processes (the CLI): generous on a busy machine.
export default defineConfig({ test: { include: ['*.test.mjs'], testTimeout: 30_000 } });
