import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { previewSecretFrom, REPOSITORY_ROOT } from './preview-secret.js';

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach((root) => rmSync(root, { recursive: true, force: true })));
function root(secrets?: unknown, dataDir = '.data'): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'khs-preview-secret-'));
  roots.push(dir);
  if (secrets !== undefined) {
    mkdirSync(path.join(dir, dataDir), { recursive: true });
    writeFileSync(path.join(dir, dataDir, 'secrets.json'), typeof secrets === 'string' ? secrets : JSON.stringify(secrets));
  }
  return dir;
}

describe('previewSecretFrom', () => {
  it('takes the environment first, else what npm start keeps in the data folder (DATA_DIR, default .data)', () => {
    const dir = root({ PREVIEW_SECRET: 's'.repeat(43), COOKIE_SECRET: 'c'.repeat(43) });
    expect(previewSecretFrom({ PREVIEW_SECRET: ' given-secret-0123456789 ' }, dir)).toEqual({ secret: 'given-secret-0123456789', from: 'environment', file: path.join(dir, '.data', 'secrets.json') });
    expect(previewSecretFrom({}, dir)).toEqual({ secret: 's'.repeat(43), from: 'file', file: path.join(dir, '.data', 'secrets.json') });
    const moved = root({ PREVIEW_SECRET: 'm'.repeat(43) }, 'elsewhere');
    expect(previewSecretFrom({ DATA_DIR: 'elsewhere' }, moved).secret).toBe('m'.repeat(43));
  });

  it('has none without a file, or with a file that holds none or is no JSON, and names the file to look at', () => {
    const empty = root();
    expect(previewSecretFrom({}, empty)).toEqual({ file: path.join(empty, '.data', 'secrets.json') });
    expect(previewSecretFrom({}, root({ COOKIE_SECRET: 'c'.repeat(43) })).secret).toBeUndefined();
    expect(previewSecretFrom({}, root('{broken')).secret).toBeUndefined();
  });

  it('reads the checkout root by default', () => {
    expect(path.join(REPOSITORY_ROOT, 'content', 'src', 'cli')).toBe(import.meta.dirname);
  });
});
