import path from 'node:path';
import { createHostConfig } from '@khs/rspack-preset';

// The shell's client runtime: a Module Federation host with no build-time remotes.
export default createHostConfig({
  dir: import.meta.dirname,
  entry: './src/client/index.ts',
  outDir: path.join(import.meta.dirname, 'dist/client'),
  publicPath: '/assets/',
});
