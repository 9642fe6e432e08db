/**
 * Prints a signed preview link of an article (a draft or a scheduled one too):
 *
 *   npm run preview-link -w @khs/content -- <id> [--hours 24] [--base https://site.example]
 *
 * The secret is the shell's `PREVIEW_SECRET`: from the environment, else the one `npm start`
 * generated into its data folder (`previewSecretFrom`). The base defaults to `PUBLIC_BASE_URL`, else
 * `http://127.0.0.1:4300`. The link stops working after `--hours` (default 24).
 */
import { parseArgs } from 'node:util';
import { previewPath, PREVIEW_SECRET_MIN_LENGTH } from '../article-files/preview-link.js';
import { previewSecretFrom } from './preview-secret.js';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { hours: { type: 'string', default: '24' }, base: { type: 'string' } } });
const [id] = positionals;
const hours = Number(values.hours);
if (!id || !Number.isFinite(hours) || hours <= 0) {
  console.error('usage: npm run preview-link -w @khs/content -- <article-id> [--hours 24] [--base https://site.example]');
  process.exit(2);
}
const { secret = '', file } = previewSecretFrom();
if (secret.length < PREVIEW_SECRET_MIN_LENGTH) {
  console.error(
    secret
      ? `PREVIEW_SECRET must be at least ${PREVIEW_SECRET_MIN_LENGTH} characters (the shell's value)`
      : `a preview link needs the shell's PREVIEW_SECRET: set it, or start the site once with npm start (it keeps one in ${file})`,
  );
  process.exit(2);
}
const base = (values.base ?? process.env.PUBLIC_BASE_URL ?? 'http://127.0.0.1:4300').replace(/\/+$/, '');
console.log(`${base}${previewPath(id, Math.floor(Date.now() / 1000 + hours * 3600), secret)}`);
