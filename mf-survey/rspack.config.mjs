import { createRemoteConfig } from '@khs/rspack-preset';

export default createRemoteConfig({
  dir: import.meta.dirname,
  name: 'mf_survey',
  devPort: 4312,
  exposes: {
    './Survey': './src/islands/Survey.tsx',
  },
});
