import { createRemoteConfig } from '@khs/rspack-preset';

export default createRemoteConfig({
  dir: import.meta.dirname,
  name: 'mf_widgets',
  devPort: 4313,
  exposes: {
    './PageWidgets': './src/islands/PageWidgets.ts',
  },
});
