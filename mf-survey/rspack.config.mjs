import { readFileSync } from 'node:fs';
import { createRemoteConfig } from '@khs/rspack-preset';

// Its port is declared once, in the slice's manifest.
const slice = JSON.parse(readFileSync(new URL('./slice.json', import.meta.url), 'utf8'));

export default createRemoteConfig({
  dir: import.meta.dirname,
  name: 'mf_survey',
  devPort: slice.remote.port,
  exposes: {
    './Survey': './src/islands/Survey.tsx',
  },
  // The same expose names, rendered by the shell's server (dist/server/, named by the manifest).
  serverExposes: {
    './Survey': './src/islands/Survey.server.tsx',
  },
});
