import type { SliceManifest } from '../tooling/stack/registry.d.ts';

/** One name a slice brings (its manifest says it). */
export interface SliceName {
  slice: string;
  kind: 'slice' | 'island' | 'service' | 'variable';
  name: string;
  words: string[];
}

/** One place in a source that names a slice. */
export interface SliceNameFinding {
  /** Relative to the repository (`checkShell` only). */
  file?: string;
  line: number;
  kind: 'identifier' | 'string';
  text: string;
  /** Which names, e.g. `mf-search's island SearchList`. */
  names: string;
}

export function identifierWords(text: string): string[];
export function sliceNames(slices?: readonly SliceManifest[], siteEnv?: readonly string[]): SliceName[];
export function contractsNames(root?: string): Set<string>;
export function findSliceNames(fileName: string, text: string, names: readonly SliceName[], exempt?: ReadonlySet<string>): SliceNameFinding[];
export function checkShell(options?: { root?: string; slices?: readonly SliceManifest[] }): SliceNameFinding[];
