import { readFileSync } from 'node:fs';
import { createRemoteConfig } from '@khs/rspack-preset';

// Its port is declared once, in the slice's manifest.
const slice = JSON.parse(readFileSync(new URL('./slice.json', import.meta.url), 'utf8'));

export default createRemoteConfig({
  dir: import.meta.dirname,
  name: 'mf_widgets',
  devPort: slice.remote.port,
  exposes: {
    './PageWidgets': './src/islands/PageWidgets.ts',
    './ArticleWidgets': './src/islands/ArticleWidgets.ts',
    './ArticleContentsTrigger': './src/islands/ArticleContentsTrigger.ts',
    // Form and dialog markup of other pages (the contact page): server-rendered, enhanced by PageWidgets.
    './FileField': './src/islands/FileField.ts',
    './PasswordField': './src/islands/PasswordField.ts',
    './Dialog': './src/islands/Dialog.ts',
    './DialogTrigger': './src/islands/DialogTrigger.ts',
  },
  // The same expose names, rendered by the shell's server (dist/server/, named by the manifest).
  serverExposes: {
    './PageWidgets': './src/islands/PageWidgets.server.ts',
    './ArticleWidgets': './src/islands/ArticleWidgets.server.tsx',
    './ArticleContentsTrigger': './src/islands/ArticleContentsTrigger.server.tsx',
    './FileField': './src/islands/FileField.server.tsx',
    './PasswordField': './src/islands/PasswordField.server.tsx',
    './Dialog': './src/islands/Dialog.server.tsx',
    './DialogTrigger': './src/islands/DialogTrigger.server.tsx',
  },
});
