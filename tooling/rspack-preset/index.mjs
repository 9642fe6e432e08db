// Build presets shared by the shell and the remotes, so every team builds the same way:
// one place for the Module Federation share policy and the rspack settings proven in
// ../shared/toolchain-notes.md.
import { readFileSync, writeFileSync } from 'node:fs';
import { BuildVersionPlugin } from './buildVersion.mjs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { rspack } from '@rspack/core';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { PrecompressPlugin } from './precompress.mjs';
import { contractsPackage, ContractsVersionManifestPlugin } from './contractsVersion.mjs';
import { ExposeSharedManifestPlugin } from './exposeShared.mjs';
import { BUNDLER_RUNTIME_GLOBAL } from './bundlerRuntimeGlobal.mjs';
import { HostContainerSetupPlugin, writeContainerSetupModule } from './containerSetup.mjs';
import { hotIslandExposes } from './dev/devBuild.mjs';

// The host's copy of the containers' federation setup (imported by provideBundlerRuntime.mjs).
await writeContainerSetupModule();

/** Reads a package.json as JSON. */
function readPackage(dir) {
  return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
}

/**
 * Modules every build shares: one React per page (singletons), and contracts by semver: a build
 * uses the page's copy when its minor is at least the one it was built against (`^version`), and
 * brings its own otherwise (a remote built against a newer minor may use what that minor added).
 * All copies share the page's one bus (contracts `getPageBus`). Usually one copy per page.
 * `react/jsx-runtime` stays unshared on purpose (about 1 KB, inlined per chunk).
 * @param {string} dir
 * @param {string} [contractsDir] see `createRemoteConfig`
 */
export function sharedSingletons(dir, contractsDir) {
  const pkg = readPackage(dir);
  const deps = { ...pkg.dependencies };
  const share = (name, version) => ({ singleton: true, requiredVersion: version });
  const contracts = contractsPackage(dir, contractsDir);
  return {
    react: share('react', deps.react),
    'react-dom': share('react-dom', deps['react-dom']),
    'react-dom/client': share('react-dom/client', deps['react-dom']),
    contracts: { singleton: false, version: contracts.version, requiredVersion: `^${contracts.version}` },
  };
}

/** Builds against another contracts package (a skew fixture): resolves `contracts` to it. */
function useContracts(config, contractsDir) {
  if (contractsDir) config.resolve.alias = { ...config.resolve.alias, contracts: contractsDir };
}

const require = createRequire(import.meta.url);

/** Folder of the server build inside a remote's `dist/`, and its entry's file name. */
export const SERVER_DIR = 'server';
export const SERVER_ENTRY = 'remoteEntry.js';

/**
 * Modules the server build shares with the shell's server: one React and one renderer per
 * process (`react-dom/server` must come with `react`, or two Reacts render one page).
 */
export function serverSharedSingletons(dir) {
  const deps = { ...readPackage(dir).dependencies };
  const share = (version) => ({ singleton: true, requiredVersion: version });
  return {
    react: share(deps.react),
    'react-dom': share(deps['react-dom']),
    'react-dom/server': share(deps['react-dom']),
  };
}

/**
 * Names the server entry in the browser build's `mf-manifest.json` (`metaData.ssrRemoteEntry`),
 * so one manifest URL serves both: Node loads the server entry, browsers ignore it. The entry
 * name is fixed, so the patch needs nothing from the server compilation. It also lists the
 * modules the server build exposes (`metaData.serverExposes`): the browser build has more (its
 * standalone page's), and a host that warms up server modules must not ask for those.
 */
class SsrRemoteEntryManifestPlugin {
  /** @param {string[]} serverExposes expose names as the manifest writes them (no `./`) */
  constructor(serverExposes) {
    this.serverExposes = serverExposes;
  }

  apply(compiler) {
    compiler.hooks.afterEmit.tap('SsrRemoteEntryManifestPlugin', () => {
      const file = path.join(compiler.options.output.path, 'mf-manifest.json');
      const manifest = JSON.parse(readFileSync(file, 'utf8'));
      manifest.metaData.ssrRemoteEntry = { path: `${SERVER_DIR}/`, name: SERVER_ENTRY, type: 'commonjs-module' };
      manifest.metaData.serverExposes = this.serverExposes;
      writeFileSync(file, JSON.stringify(manifest, null, 2));
    });
  }
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
      // Stylesheets are named by their content only: each expose that imports the same styles
      // (mf-search's two islands and its standalone page) gets the same file, which a page links once.
      ...(production ? { cssFilename: 'styles.[contenthash:8].css', cssChunkFilename: 'styles.[contenthash:8].css' } : {}),
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
        // The shared remote reset is written into each stylesheet that asks for it (remoteCssReset.mjs).
        { test: /\.css$/, type: 'css', use: [{ loader: require.resolve('./remoteCssResetLoader.cjs') }] },
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
 * Config of a federated remote. A production build is a multi-compiler:
 * - `browser`: `mf-manifest.json` + `remoteEntry.js`, built against the page's one federation
 *   runtime (`externalRuntime`: the shell, or the standalone host, provides it);
 * - `standalone`: the remote's standalone page in `dist/standalone/` (a tiny host that provides
 *   the runtime and loads the remote's `./Standalone` module from `src/standalone/bootstrap`);
 * - `server` (with `serverExposes`): a Node build of the same expose names in `dist/server/`.
 * `rspack serve` (local development) builds one self-contained browser build with its own runtime
 * and the standalone page at `/`, as before.
 * `contractsDir` builds against another contracts package than the workspace's (the contracts
 * skew fixtures of the e2e suite); its version is what the manifest records.
 * `env.khsDev` (the dev starter, `npm run dev`): the dev builds of `createRemoteDevConfigs`.
 * `rspack build --env distDir=<folder>` writes the build there instead of `<dir>/dist` (the
 * reproducibility test builds one remote twice side by side).
 * @param {{ dir: string, name: string, exposes: Record<string,string>, serverExposes?: Record<string,string>, devPort: number, contractsDir?: string }} options
 */
export function createRemoteConfig({ dir, name, exposes, serverExposes, devPort, contractsDir }) {
  return (env, argv) => {
    const mode = argv.mode ?? process.env.NODE_ENV;
    if (env?.khsDev) return createRemoteDevConfigs({ dir, name, exposes, serverExposes, contractsDir, ...env.khsDev });
    const distDir = env?.distDir ? path.resolve(env.distDir) : path.join(dir, 'dist');
    if (env?.RSPACK_SERVE || env?.WEBPACK_SERVE) {
      return createRemoteBrowserConfig({ dir, name, exposes, devPort, mode, externalRuntime: false, contractsDir });
    }
    const configs = [
      createRemoteBrowserConfig({ dir, name, exposes: { ...exposes, './Standalone': STANDALONE_EXPOSE }, devPort, mode, externalRuntime: true, serverExposes, contractsDir, distDir }),
      createStandaloneHostConfig({ dir, name, mode, contractsDir, distDir }),
    ];
    if (serverExposes) configs.push(createRemoteServerConfig({ dir, name, exposes: serverExposes, mode, contractsDir, distDir }));
    // The last compilation, after all the others (its version hashes every file they wrote).
    configs.at(-1).dependencies = configs.slice(0, -1).map((config) => config.name);
    configs.at(-1).plugins.push(new BuildVersionPlugin(dir, distDir));
    return configs;
  };
}

/**
 * The dev builds of a remote (`npm run dev -w <remote>`, run in watch mode by the dev starter,
 * tooling/stack/devSite.mjs): the browser build against the page's runtime and the server build,
 * as in production — same manifest with `ssrRemoteEntry`, `serverExposes` and `contractsVersion`,
 * so the shell treats it as any deployed build — but unminified, without compressed copies, the
 * standalone page or the build version (the dev starter writes it once both targets are written,
 * `writeDevBuildVersion`), into `outDir` (never the remote's `dist/`). React's production build
 * on both sides (`NODE_ENV` production): the page's and the shell server's React, which the
 * remote shares, are production builds. Each browser expose is wrapped so an open page swaps a
 * rebuilt island in place (dev/hotIslandMount.mjs), listening on `eventsPath` of the page's origin.
 * @param {{ dir: string, name: string, exposes: Record<string,string>, serverExposes?: Record<string,string>, contractsDir?: string, outDir: string, wrapperDir: string, eventsPath: string, islandPrefix?: string }} options
 *   `islandPrefix`: the remote's name in the page's islands; default the package name (`mf-search`)
 */
export function createRemoteDevConfigs({ dir, name, exposes, serverExposes, contractsDir, outDir, wrapperDir, eventsPath, islandPrefix }) {
  const remote = islandPrefix ?? readPackage(dir).name;
  const browser = createRemoteBrowserConfig({
    dir,
    name,
    exposes: hotIslandExposes({ dir, remote, exposes, wrapperDir }),
    devPort: 0,
    mode: 'development',
    externalRuntime: true,
    serverExposes,
    contractsDir,
    distDir: outDir,
  });
  // The server build writes into `<outDir>/server/`; each rebuild adds only a new remoteEntry name.
  browser.output.clean = false;
  browser.plugins = browser.plugins.filter((plugin) => !(plugin instanceof PrecompressPlugin));
  // Named here so a swap can drop the old build's loaded chunks from it: a new container's chunk
  // loader first takes every chunk already in its global, and would run the old build's modules.
  const chunkLoadingGlobal = `khsDevChunks_${remote.replace(/\W/g, '_')}`;
  browser.output.chunkLoadingGlobal = chunkLoadingGlobal;
  browser.plugins.push(
    new rspack.DefinePlugin({ __KHS_DEV_EVENTS_PATH__: JSON.stringify(eventsPath), __KHS_DEV_CHUNK_GLOBAL__: JSON.stringify(chunkLoadingGlobal) }),
  );
  const configs = [browser];
  if (serverExposes) configs.push(createRemoteServerConfig({ dir, name, exposes: serverExposes, mode: 'development', contractsDir, distDir: outDir }));
  // Source maps in the browser only (the server's stacks name the dev build's unminified files).
  if (configs[1]) configs[1].devtool = false;
  for (const config of configs) {
    delete config.devServer;
    config.optimization = { ...config.optimization, nodeEnv: 'production' };
    for (const rule of config.module.rules) if (rule.options?.jsc?.transform?.react) rule.options.jsc.transform.react.development = false;
  }
  return configs;
}

/** The module each remote's standalone page runs (mounts the demo islands). */
const STANDALONE_EXPOSE = './src/standalone/bootstrap';

/**
 * The federation plugin of a page's host (the shell, or a remote's standalone page): a pure
 * consumer that provides the page's one federation runtime to remotes built with `externalRuntime`.
 */
function runtimeProvidingHost(name, dir, contractsDir) {
  return new ModuleFederationPlugin({
    name,
    remotes: {},
    shared: sharedSingletons(dir, contractsDir),
    shareStrategy: 'loaded-first',
    dts: false,
    manifest: false,
    experiments: { optimization: { target: 'web' }, provideExternalRuntime: true },
    // The bundler runtime too, so each remote container is only its own mappings (about 4 KB, not 14).
    runtimePlugins: [require.resolve('./provideBundlerRuntime.mjs')],
  });
}

/**
 * Why a container built with `externalRuntime` was still about 14 KB gzip: that option only
 * externalises runtime-core; the bundler runtime the federation plugin imports into every
 * container (`@module-federation/webpack-bundler-runtime`, which brings `@module-federation/runtime`,
 * the sdk and the error texts, all CommonJS, so nothing is tree-shaken) stayed in each one. It is
 * taken from the page's host as well (`provideBundlerRuntime.mjs`), one fresh object per container.
 * Like the external runtime-core, it makes the host's federation version a contract of the page.
 */
function bundlerRuntimeExternal() {
  const bundlerRuntimeEntry = /[\\/]@module-federation[\\/]webpack-bundler-runtime[\\/]dist[\\/]index\.c?js$/;
  return new rspack.ExternalsPlugin('var', ({ request }, callback) => {
    // `?.`: a host without the provider gets the clear error of the container's setup call (containerSetup.mjs).
    if (request && bundlerRuntimeEntry.test(request)) return callback(undefined, `globalThis.${BUNDLER_RUNTIME_GLOBAL}?.create()`);
    callback();
  });
}

/**
 * Recipe A of toolchain-notes ("Standalone boot with the external runtime"): a pure consumer that
 * provides the runtime, registers the remote from `../mf-manifest.json` and loads `./Standalone`.
 * Built after the browser build (whose `clean` would otherwise remove it).
 */
function createStandaloneHostConfig({ dir, name, mode, contractsDir, distDir = path.join(dir, 'dist') }) {
  const config = baseConfig({
    dir,
    mode,
    entry: require.resolve('./standalone/index.mjs'),
    publicPath: 'auto',
    outDir: path.join(distDir, 'standalone'),
    devPort: 0,
    html: './src/standalone/index.html',
  });
  config.name = 'standalone';
  config.dependencies = ['browser'];
  config.output.clean = false;
  config.output.uniqueName = `${readPackage(dir).name}-standalone`;
  delete config.devServer;
  config.plugins.push(
    new rspack.DefinePlugin({ __KHS_REMOTE_NAME__: JSON.stringify(name) }),
    runtimeProvidingHost(`${name}_standalone`, dir, contractsDir),
    new PrecompressPlugin(),
  );
  useContracts(config, contractsDir);
  return config;
}

/**
 * The Node build of a remote's islands (Module Federation on the server, proven in
 * toolchain-notes "Server-side Module Federation on Node 20"): `async-node` target, a
 * `commonjs-module` container in `dist/server/remoteEntry.js`, the node runtime plugin so chunks
 * load over HTTP from wherever the entry came from (no origin baked in), React shared with the
 * shell's server as one set of singletons. Built after the browser build (whose `clean` would
 * otherwise remove it).
 */
export function createRemoteServerConfig({ dir, name, exposes, mode, contractsDir, distDir = path.join(dir, 'dist') }) {
  const production = mode !== 'development';
  const config = baseConfig({
    dir,
    mode,
    entry: './src/index.ts',
    publicPath: 'auto',
    outDir: path.join(distDir, SERVER_DIR),
    devPort: 0,
  });
  config.name = 'server';
  config.dependencies = ['browser'];
  config.entry = {};
  config.target = 'async-node';
  config.output.uniqueName = `${readPackage(dir).name}-server`;
  config.output.filename = '[name].js';
  config.output.chunkFilename = production ? '[name].[contenthash:8].js' : '[name].js';
  // The markup is the server's job; the styles arrive with the browser build (and the manifest's css).
  config.module.rules = config.module.rules.map((rule) =>
    String(rule.test) === String(/\.css$/) ? { test: /\.css$/, loader: require.resolve('./ignoreCssLoader.cjs'), type: 'javascript/auto' } : rule,
  );
  config.experiments = {};
  delete config.devServer;
  config.plugins.push(
    new ModuleFederationPlugin({
      name,
      filename: SERVER_ENTRY,
      library: { type: 'commonjs-module' },
      exposes,
      shared: serverSharedSingletons(dir),
      shareStrategy: 'loaded-first',
      runtimePlugins: [require.resolve('@module-federation/node/runtimePlugin')],
      dts: false,
      manifest: true,
    }),
    new ExposeSharedManifestPlugin(),
  );
  useContracts(config, contractsDir);
  return config;
}

function createRemoteBrowserConfig({ dir, name, exposes, devPort, mode, externalRuntime, serverExposes, contractsDir, distDir = path.join(dir, 'dist') }) {
  const config = baseConfig({
    dir,
    mode,
    entry: './src/index.ts',
    publicPath: 'auto',
    outDir: distDir,
    devPort: Number(process.env.PORT ?? devPort),
    html: externalRuntime ? undefined : './src/standalone/index.html',
  });
  // Built against the external runtime, the remote cannot boot its own `main` entry: the
  // standalone page is a separate host (createStandaloneHostConfig).
  if (externalRuntime) config.entry = {};
  config.name = 'browser';
  config.plugins.push(
    new ModuleFederationPlugin({
      name,
      // Content-hashed like every other file of the build, so it is cached for good; the manifest
      // (revalidated on every use) names it.
      filename: 'remoteEntry.[contenthash:8].js',
      exposes,
      shared: sharedSingletons(dir, contractsDir),
      // Use a shared module another remote already loaded instead of racing to load our own.
      shareStrategy: 'loaded-first',
      dts: false,
      manifest: true,
      experiments: { optimization: { target: 'web' }, ...(externalRuntime ? { externalRuntime: true } : {}) },
    }),
  );
  if (externalRuntime) config.plugins.push(bundlerRuntimeExternal(), new HostContainerSetupPlugin());
  // Written files only (not the dev server's in-memory build).
  if (externalRuntime) config.plugins.push(new ExposeSharedManifestPlugin());
  if (serverExposes) config.plugins.push(new SsrRemoteEntryManifestPlugin(Object.keys(serverExposes).map((key) => key.replace(/^\.\//, ''))));
  if (externalRuntime) config.plugins.push(new ContractsVersionManifestPlugin(contractsPackage(dir, contractsDir).version));
  useContracts(config, contractsDir);
  // Last: compresses what the plugins above wrote (the manifest is patched after emit).
  if (externalRuntime) config.plugins.push(new PrecompressPlugin());
  return config;
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
      runtimeProvidingHost('shell', dir),
      new PrecompressPlugin(),
    );
    return config;
  };
}
