import { defineConfig } from 'vitest/config';

// One run over every package's unit tests; each package can also run its own with `npm test -w`.
export default defineConfig({
  test: {
    include: ['{contracts,content,libs,mf-*,shell,search-engine}/**/src/**/*.test.{ts,tsx}'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    environment: 'node',
  },
});
