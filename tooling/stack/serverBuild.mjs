// The team services' and the shell's server code, built to plain JavaScript for the stack to run
// (`startStack.mjs`): one ESM bundle per entry, of the repository's own TypeScript (the slice's
// sources and the workspaces' it imports); every npm package, every plain JavaScript module of the
// repository and Node's own modules stay imports, loaded as they would be from the sources (one
// copy of each: `@khs/observability`'s state is the same module's for every importer).
//
// Why: run through tsx, each part compiled (or read from tsx's cache), resolved through tsx's hooks
// and source-mapped every one of its ~100–200 modules at every start; on a 2-core machine shared
// with two CPU-bound processes that was most of the time a stack took to start (figures in the
// README, "Start"). Built once, a start runs one file per part.
//
// Never stale: each bundle keeps the stamp of its inputs (buildStamp.mjs: every source file's size
// and mtime, the tsconfig files esbuild read, esbuild's version); a start rebuilds it when any of
// them changed, so an edited source is what runs, as with tsx. A rebuild writes a temporary file
// and renames it, so stacks starting in parallel (e2e workers) read the old or the new bundle whole.
//
// A bundled module must behave as at its own path: `import.meta.url`, `.dirname` and `.filename`
// in the repository's TypeScript are replaced with the source file's (content folders, a slice's
// files found beside the code).
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, version as esbuildVersion } from 'esbuild';
import { isBuildFresh, writeBuildStamp, writeWhole } from './buildStamp.mjs';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
/** Who builds (a new esbuild, or a change of what this module writes, bumps it: every bundle is rebuilt). */
const BUILDER = `khs-server-build 2, esbuild ${esbuildVersion}`;
const TYPESCRIPT = /\.(ts|tsx|mts|cts)$/;

/** The names of the repository's workspace packages (their TypeScript is bundled, not imported). */
function workspacePackageNames() {
  const { workspaces } = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
  const folders = workspaces.flatMap((pattern) => {
    if (!pattern.endsWith('*')) return [pattern];
    const base = pattern.slice(0, -1);
    return readdirSync(path.join(REPO_ROOT, base), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules')
      .map((entry) => base + entry.name);
  });
  const names = new Set();
  for (const folder of folders) {
    try {
      names.add(JSON.parse(readFileSync(path.join(REPO_ROOT, folder, 'package.json'), 'utf8')).name);
    } catch {
      // Not a package folder.
    }
  }
  return names;
}

/** The package name of a bare import (`@scope/name/sub` → `@scope/name`). */
function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * esbuild plugin: a bare import of anything but a workspace package, and any file that is not
 * TypeScript or JSON, stays an import (a file by its absolute path); the TypeScript it bundles gets
 * its own `import.meta` values.
 */
function sourcesOnly(workspaces) {
  return {
    name: 'khs-sources-only',
    setup(builder) {
      builder.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData?.inner || args.kind === 'entry-point') return undefined;
        if (args.path.startsWith('node:')) return { external: true };
        if (!args.path.startsWith('.') && !path.isAbsolute(args.path) && !workspaces.has(packageName(args.path))) return { external: true };
        const resolved = await builder.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: { inner: true } });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        if (resolved.external) return resolved;
        if (!TYPESCRIPT.test(resolved.path) && !resolved.path.endsWith('.json')) return { path: resolved.path, external: true };
        return resolved;
      });
      builder.onLoad({ filter: TYPESCRIPT }, (args) => {
        const source = readFileSync(args.path, 'utf8')
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
          .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
          .replaceAll('import.meta.filename', JSON.stringify(args.path));
        return { contents: source, loader: /x$/.test(args.path) ? 'tsx' : 'ts', resolveDir: path.dirname(args.path) };
      });
    },
  };
}

/** The tsconfig files that apply to `dir` (esbuild reads the nearest and what it extends). */
function tsconfigsAbove(dir) {
  const found = [];
  for (let current = dir; ; current = path.dirname(current)) {
    for (const name of ['tsconfig.json', 'tsconfig.base.json']) {
      const file = path.join(current, name);
      try {
        statSync(file);
        found.push(file);
      } catch {
        // None here.
      }
    }
    if (current === REPO_ROOT || path.dirname(current) === current) break;
  }
  return found;
}

/**
 * The built JavaScript of one server entry (`entry`, relative to `dir`: a team service's
 * `server/src/main.ts` in its slice folder, the shell's `src/server/main.ts`), built now unless a
 * fresh bundle is there already. It goes into `<dir>/node_modules/.cache/khs-server-build/<source>/`
 * (`<source>`: a hash of the folder's real path and the entry), so an import it keeps resolves from
 * the slice as from its sources. `runtimeImports`: TypeScript modules
 * the code imports by their path while it runs (the shell: each slice's browser settings module,
 * `browserSettings.mjs`); each is built too, and `nodeArgs` preloads the hooks (`module.registerHooks`)
 * that make an import of such a module load its build.
 * @param {{ dir: string, entry: string, runtimeImports?: readonly string[] }} part
 * @returns {Promise<{ file: string, nodeArgs: string[], built: boolean }>} the bundle, the node
 *   arguments it runs with; `built`: whether this call built it
 */
export async function serverBuild({ dir, entry, runtimeImports = [] }) {
  // One folder per source folder: a throwaway copy of the checkout (e2e/harness/throwawayCheckout.ts)
  // links each workspace's node_modules to this checkout's, so `<dir>/node_modules` may be shared.
  const source = createHash('sha256').update(`${realpathSync(dir)}\0${entry}`).digest('hex').slice(0, 16);
  const outdir = path.join(dir, 'node_modules/.cache/khs-server-build', source);
  const name = entry.replace(/\.(ts|tsx|mts)$/, '').replaceAll(/[\\/]/g, '__');
  const file = path.join(outdir, `${name}.mjs`);
  const hooksFile = path.join(outdir, `${name}.hooks.mjs`);
  const nodeArgs = runtimeImports.length > 0 ? ['--import', pathToFileURL(hooksFile).href] : [];
  const stampFile = `${file}.inputs.json`;
  // Another list of runtime imports is another build (its hooks name them).
  const builder = `${BUILDER}; runtime imports ${JSON.stringify(runtimeImports)}`;
  if (isBuildFresh(stampFile, builder)) return { file, nodeArgs, built: false };
  const startedAt = Date.now();
  // The entry, then each runtime import as `<name>.runtime-<n>.mjs`.
  const entryPoints = { [name]: path.join(dir, entry), ...Object.fromEntries(runtimeImports.map((module, i) => [`${name}.runtime-${i}`, module])) };
  const result = await build({
    absWorkingDir: dir,
    entryPoints,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node.split('.')[0]}`,
    write: false,
    outdir,
    outExtension: { '.js': '.mjs' },
    metafile: true,
    logLevel: 'silent',
    legalComments: 'none',
    // Function and class names as in the sources (error messages, stacks, `constructor.name`).
    keepNames: true,
    // tsconfig.base.json's `"jsx": "react-jsx"` (esbuild does not read it for the sources this
    // plugin loads): JSX calls React's automatic runtime, `react/jsx-runtime`, an import.
    jsx: 'automatic',
    // An ESM bundle has no `require` of its own: CommonJS code in it (none expected) gets one.
    banner: { js: "import { createRequire as __khsCreateRequire } from 'node:module'; const require = __khsCreateRequire(import.meta.url);" },
    plugins: [sourcesOnly(workspacePackageNames())],
  });
  mkdirSync(outdir, { recursive: true });
  // Every input is a source it bundled (npm packages are imports, not inputs).
  const inputs = Object.keys(result.metafile.inputs).map((input) => path.resolve(dir, input));
  for (const output of result.outputFiles) writeWhole(output.path, output.contents);
  if (runtimeImports.length > 0) {
    const built = runtimeImports.map((module, i) => [pathToFileURL(module).href, pathToFileURL(path.join(outdir, `${name}.runtime-${i}.mjs`)).href]);
    writeWhole(
      hooksFile,
      `// Written by tooling/stack/serverBuild.mjs: an import of these TypeScript modules loads their build.
import { registerHooks } from 'node:module';
const BUILT = new Map(${JSON.stringify(built)});
registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    const url = BUILT.get(resolved.url);
    return url ? { ...resolved, url, format: 'module' } : resolved;
  },
});
`,
    );
  }
  writeBuildStamp(stampFile, [...inputs, ...tsconfigsAbove(dir), path.join(REPO_ROOT, 'tsconfig.base.json')], builder, startedAt);
  return { file, nodeArgs, built: true };
}
