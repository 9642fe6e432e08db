import { createRemoteConfig } from '@khs/rspack-preset';

export default createRemoteConfig({
  dir: import.meta.dirname,
  name: 'mf_search',
  devPort: 4310,
  exposes: {
    './SearchList': './src/islands/SearchList.tsx',
    './HeaderSearch': './src/islands/HeaderSearch.tsx',
  },
});
