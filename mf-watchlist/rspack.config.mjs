import { readFileSync } from 'node:fs';
import { createRemoteConfig } from '@khs/rspack-preset';

// Its port is declared once, in the slice's manifest.
const slice = JSON.parse(readFileSync(new URL('./slice.json', import.meta.url), 'utf8'));

export default createRemoteConfig({
  dir: import.meta.dirname,
  name: 'mf_watchlist',
  devPort: slice.remote.port,
  exposes: {
    './WatchlistButton': './src/islands/WatchlistButton.ts',
    './WatchlistLink': './src/islands/WatchlistLink.ts',
    './WatchlistScreen': './src/islands/WatchlistScreen.tsx',
    './SharedWatchlistImport': './src/islands/SharedWatchlistImport.tsx',
  },
  // The same expose names, rendered by the shell's server (dist/server/, named by the manifest).
  serverExposes: {
    './WatchlistButton': './src/islands/WatchlistButton.server.tsx',
    './WatchlistLink': './src/islands/WatchlistLink.server.tsx',
    './WatchlistScreen': './src/islands/WatchlistScreen.server.tsx',
    './SharedWatchlistImport': './src/islands/SharedWatchlistImport.server.tsx',
  },
});
