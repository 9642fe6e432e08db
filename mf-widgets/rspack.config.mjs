import { createRemoteConfig } from '@khs/rspack-preset';

export default createRemoteConfig({
  dir: import.meta.dirname,
  name: 'mf_widgets',
  devPort: 4313,
  exposes: {
    './PageWidgets': './src/islands/PageWidgets.ts',
    './ArticleWidgets': './src/islands/ArticleWidgets.ts',
    './ArticleContentsTrigger': './src/islands/ArticleContentsTrigger.ts',
  },
  // The same expose names, rendered by the shell's server (dist/server/, named by the manifest).
  serverExposes: {
    './PageWidgets': './src/islands/PageWidgets.server.ts',
    './ArticleWidgets': './src/islands/ArticleWidgets.server.tsx',
    './ArticleContentsTrigger': './src/islands/ArticleContentsTrigger.server.tsx',
  },
});
