import { createRemoteConfig } from '@khs/rspack-preset';

export default createRemoteConfig({
  dir: import.meta.dirname,
  name: 'mf_survey',
  devPort: 4312,
  exposes: {
    './Survey': './src/islands/Survey.tsx',
  },
  // The same expose names, rendered by the shell's server (dist/server/, named by the manifest).
  serverExposes: {
    './Survey': './src/islands/Survey.server.tsx',
  },
});
