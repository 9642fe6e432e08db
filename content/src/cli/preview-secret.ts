import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout's root folder (`npm start` keeps its data folder, `.data`, there). */
export const REPOSITORY_ROOT: string = path.resolve(import.meta.dirname ?? path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Where the preview secret came from, and the file that was (or would have been) read. */
export interface PreviewSecretSource {
  /** The secret, or undefined when neither the environment nor the file has one. */
  secret?: string;
  from?: 'environment' | 'file';
  /** `<DATA_DIR>/secrets.json`: what `npm start` generated for this checkout's site. */
  file: string;
}

/**
 * The shell's `PREVIEW_SECRET`: from the environment when set there, else the one `npm start`
 * generated and keeps in its data folder (`DATA_DIR`, default `.data` of the checkout,
 * `secrets.json`; read, never written), as `npm run deploy -- --preview` reads its own secret.
 */
export function previewSecretFrom(env: NodeJS.ProcessEnv = process.env, root: string = REPOSITORY_ROOT): PreviewSecretSource {
  const file = path.join(path.resolve(root, env.DATA_DIR ?? '.data'), 'secrets.json');
  const given = env.PREVIEW_SECRET?.trim();
  if (given) return { secret: given, from: 'environment', file };
  try {
    const stored = (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>).PREVIEW_SECRET;
    if (typeof stored === 'string' && stored !== '') return { secret: stored, from: 'file', file };
  } catch {
    // No file (no start yet) or not JSON: the caller says what to do.
  }
  return { file };
}
