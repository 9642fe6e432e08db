export interface BuildStamp {
  builder: string;
  node: string;
  /** Each input file's `size:mtimeMs` (or `missing`). */
  files: Record<string, string>;
}
export function buildStamp(files: readonly string[], builder: string): BuildStamp;
export function isBuildFresh(stampFile: string, builder: string): boolean;
export function writeWhole(file: string, contents: string | Uint8Array): void;
export function writeBuildStamp(stampFile: string, files: readonly string[], builder: string, startedAt: number): void;
