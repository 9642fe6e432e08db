import type { ParsedManifest } from './manifest.js';

// What a page links for a remote's browser build, read from the manifest of the build it renders.

/** The shared module a React island hydrates with: by far the largest file of a first view. */
const RENDERER_SHARE = 'react-dom/client';
/** The expose of a remote's standalone page (tooling/rspack-preset): never an island of the site. */
const STANDALONE_EXPOSE = 'Standalone';

/** Where a manifest's files are: its `publicPath`, or (`auto`) next to the manifest. */
export function assetBase(manifest: ParsedManifest): string {
  const publicPath = manifest.json.metaData?.publicPath;
  return publicPath && publicPath !== 'auto' ? new URL(publicPath, manifest.url).href : new URL('./', manifest.url).href;
}

/** Stylesheet URLs the browser build's `module` needs, for `<link>`s. */
export function stylesheetsOf(manifest: ParsedManifest, module: string): string[] {
  const exposes = manifest.json.exposes ?? [];
  const expose = exposes.find((candidate) => candidate.name === module);
  if (!expose) return [];
  // A remote's standalone page (its `Standalone` expose) is no island of the site: a stylesheet
  // only it needs is never linked, even when the manifest lists it among another expose's lazy ones.
  const standaloneOnly = new Set(exposes.find((candidate) => candidate.name === STANDALONE_EXPOSE)?.assets?.css?.sync ?? []);
  for (const other of exposes) if (other.name !== STANDALONE_EXPOSE) for (const file of other.assets?.css?.sync ?? []) standaloneOnly.delete(file);
  const css = [...(expose.assets?.css?.sync ?? []), ...(expose.assets?.css?.async ?? [])].filter((file) => module === STANDALONE_EXPOSE || !standaloneOnly.has(file));
  const base = assetBase(manifest);
  return [...new Set(css)].map((file) => new URL(file, base).href);
}

/**
 * Whether one of `modules` needs the shared React renderer as it loads (its `requires` names it,
 * or does not say). True without a manifest.
 */
export function needsRenderer(manifest: ParsedManifest | undefined, modules: readonly string[]): boolean {
  if (!manifest) return true;
  return (manifest.json.exposes ?? [])
    .filter((expose) => modules.includes(expose.name))
    .some((expose) => expose.requires === undefined || expose.requires.includes(RENDERER_SHARE));
}

/**
 * Script URLs the browser build loads for `modules` (their expose chunks), plus the files of its
 * shared React renderer when one of them needs it as it loads: for preload hints of a first view.
 */
export function scriptsOf(manifest: ParsedManifest, modules: readonly string[]): string[] {
  const exposes = (manifest.json.exposes ?? []).filter((expose) => modules.includes(expose.name));
  const files = exposes.flatMap((expose) => expose.assets?.js?.sync ?? []);
  if (needsRenderer(manifest, modules)) {
    files.push(...(manifest.json.shared?.find((share) => share.name === RENDERER_SHARE)?.assets?.js?.sync ?? []));
  }
  const base = assetBase(manifest);
  return [...new Set(files)].map((file) => new URL(file, base).href);
}

/** Where the manifest's browser entry is (`publicPath: auto`: relative to the manifest). */
export function browserEntryUrl(manifest: ParsedManifest): string | undefined {
  const { remoteEntry } = manifest.json.metaData ?? {};
  if (!remoteEntry?.name) return undefined;
  const folder = (remoteEntry.path ?? '').replace(/^\.?\//, '');
  return new URL(`${folder && !folder.endsWith('/') ? `${folder}/` : folder}${remoteEntry.name}`, assetBase(manifest)).href;
}
