import { readFileSync } from 'node:fs';
import { createRemoteConfig } from '@khs/rspack-preset';

// Its port is declared once, in the slice's manifest.
const slice = JSON.parse(readFileSync(new URL('./slice.json', import.meta.url), 'utf8'));

export default createRemoteConfig({
  dir: import.meta.dirname,
  name: 'mf_search',
  devPort: slice.remote.port,
  exposes: {
    './SearchList': './src/islands/SearchList.ts',
    './HeaderSearch': './src/islands/HeaderSearch.tsx',
    // No React: every page's watchlist-save listener (conversions), placed by the shell's layout.
    './SearchConversions': './src/islands/SearchConversions.ts',
  },
  // The same expose names, rendered by the shell's server (dist/server/, named by the manifest).
  serverExposes: {
    './SearchList': './src/islands/SearchList.server.tsx',
    './HeaderSearch': './src/islands/HeaderSearch.server.tsx',
    './SearchConversions': './src/islands/SearchConversions.server.ts',
  },
});
