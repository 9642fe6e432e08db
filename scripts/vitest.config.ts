import { defineConfig } from 'vitest/config';

// Tests of the repository scripts (run by `npm test`).
export default defineConfig({ test: { include: ['*.test.ts'], root: import.meta.dirname } });
