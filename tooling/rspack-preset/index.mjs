// Build presets shared by the shell and the remotes, so every team builds the same way:
// one place for the Module Federation share policy and the rspack settings proven in
// ../shared/toolchain-notes.md.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { rspack } from '@rspack/core';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';

/** Reads a package.json as JSON. */
function readPackage(dir) {
  return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
}

/**
 * Modules every build shares as singletons: one React and one contracts per page.
 * `react/jsx-runtime` stays unshared on purpose (about 1 KB, inlined per chunk).
 */
export function sharedSingletons(dir) {
  const pkg = readPackage(dir);
  const deps = { ...pkg.dependencies };
  const share = (name, version) => ({ singleton: true, requiredVersion: version });
  return {
    react: share('react', deps.react),
    'react-dom': share('react-dom', deps['react-dom']),
    'react-dom/client': share('react-dom/client', deps['react-dom']),
    contracts: share('contracts', deps.contracts ?? '^1.0.0'),
  };
}

function baseConfig({ dir, mode, entry, publicPath, outDir, devPort, html }) {
  const production = mode !== 'development';
  return {
    mode: production ? 'production' : 'development',
    context: dir,
    entry: { main: entry },
    devtool: production ? false : 'cheap-module-source-map',
    output: {
      path: outDir,
      publicPath,
      filename: production ? '[name].[contenthash:8].js' : '[name].js',
      chunkFilename: production ? '[name].[contenthash:8].js' : '[name].js',
      clean: true,
      uniqueName: readPackage(dir).name,
    },
    resolve: { extensions: ['.ts', '.tsx', '.js', '.mjs'], extensionAlias: { '.js': ['.ts', '.tsx', '.js'] } },
    module: {
      rules: [
        {
          test: /\.[cm]?tsx?$/,
          loader: 'builtin:swc-loader',
          options: {
            jsc: {
              parser: { syntax: 'typescript', tsx: true },
              transform: { react: { runtime: 'automatic', development: !production } },
              target: 'es2022',
            },
          },
          type: 'javascript/auto',
        },
        { test: /\.css$/, type: 'css' },
      ],
    },
    experiments: { css: true },
    plugins: html ? [new rspack.HtmlRspackPlugin({ template: html, chunks: ['main'] })] : [],
    devServer: {
      port: devPort,
      host: '127.0.0.1',
      hot: false,
      liveReload: false,
      allowedHosts: 'all',
      headers: { 'Access-Control-Allow-Origin': '*' },
      static: false,
    },
    lazyCompilation: false,
    performance: { hints: false },
    stats: 'errors-warnings',
  };
}

/**
 * Config of a federated remote: emits `mf-manifest.json` + `remoteEntry.js` and a standalone
 * page (`src/standalone/index.html` booting `src/index.ts`).
 * @param {{ dir: string, name: string, exposes: Record<string,string>, devPort: number }} options
 */
export function createRemoteConfig({ dir, name, exposes, devPort }) {
  return (_env, argv) => {
    const config = baseConfig({
      dir,
      mode: argv.mode ?? process.env.NODE_ENV,
      entry: './src/index.ts',
      publicPath: 'auto',
      outDir: path.join(dir, 'dist'),
      devPort: Number(process.env.PORT ?? devPort),
      html: './src/standalone/index.html',
    });
    config.plugins.push(
      new ModuleFederationPlugin({
        name,
        filename: 'remoteEntry.js',
        exposes,
        shared: sharedSingletons(dir),
        // Use a shared module another remote already loaded instead of racing to load our own.
        shareStrategy: 'loaded-first',
        dts: false,
        manifest: true,
        experiments: { optimization: { target: 'web' } },
      }),
    );
    return config;
  };
}

/**
 * Config of the shell's client runtime: a host with no build-time remotes (manifest URLs come
 * from the page config at run time), providing the shared singletons.
 * @param {{ dir: string, entry: string, outDir: string, publicPath: string }} options
 */
export function createHostConfig({ dir, entry, outDir, publicPath }) {
  return (_env, argv) => {
    const config = baseConfig({ dir, mode: argv.mode ?? process.env.NODE_ENV, entry, publicPath, outDir, devPort: 0 });
    config.output.filename = 'shell-runtime.js';
    config.plugins.push(
      new ModuleFederationPlugin({
        name: 'shell',
        remotes: {},
        shared: sharedSingletons(dir),
        shareStrategy: 'loaded-first',
        dts: false,
        manifest: false,
        experiments: { optimization: { target: 'web' } },
      }),
    );
    return config;
  };
}
