/** The file a slice declares itself in, at its folder's root (`slice.json`). */
export const SLICE_MANIFEST_FILE: string;
/** One or more manifests are malformed or disagree: `problems` name each file and field. */
export class SliceManifestError extends Error {
  readonly problems: string[];
  constructor(problems: string[]);
}
/** The slice folders directly under `root` (those with a `slice.json`), sorted. */
export function sliceFolders(root: string): string[];
/** The problems of one parsed manifest (schema, folder name, reserved names); empty when it is sound. */
export function checkSliceManifest(manifest: unknown, folder: string): string[];
/** Every manifest under `root`, checked; throws `SliceManifestError` listing every problem. */
export function readSliceManifests(root: string): import('./registry.js').SliceManifest[];
