// The cross-remote suite against a site that is already running (a staging environment, a team's
// gate before going live): `E2E_BASE_URL` names it (nothing is started), `E2E_PREVIEWS` the previews
// every browser context opens first. `npm run test:against -w e2e` runs the subset that needs nothing
// but the site's URL (its list: e2e/package.json; README, "Against a running site").
import { previewLink } from '@khs/deploy/preview-link';
import type { BrowserContext } from '@playwright/test';
import type { Stack } from './stack.js';

/** `E2E_BASE_URL`: the running site to test; undefined: the harness starts its own stack. */
export function runningSiteUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = env.E2E_BASE_URL?.trim();
  if (!value) return undefined;
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`E2E_BASE_URL must be an http(s) URL: ${value}`);
  return url.origin;
}

/**
 * The preview links of `E2E_PREVIEWS` (separated by commas or spaces): links as `deploy --preview`
 * prints them, or `remote=version` pairs signed here with `REMOTE_PREVIEW_SECRET` (valid one hour).
 * Each link must point at `siteUrl`.
 */
export function previewLinks(siteUrl: string, env: NodeJS.ProcessEnv = process.env, now = Date.now()): string[] {
  const entries = (env.E2E_PREVIEWS ?? '').split(/[\s,]+/).filter(Boolean);
  return entries.map((entry) => {
    if (/^https?:\/\//.test(entry)) {
      const link = new URL(entry);
      if (link.origin !== new URL(siteUrl).origin) throw new Error(`E2E_PREVIEWS: ${entry} is not a link of ${siteUrl}`);
      return link.href;
    }
    const match = /^([a-z][a-z0-9-]*)=(.+)$/.exec(entry);
    if (!match) throw new Error(`E2E_PREVIEWS: "${entry}" is neither a preview link nor remote=version`);
    const secret = env.REMOTE_PREVIEW_SECRET?.trim();
    if (!secret) throw new Error('E2E_PREVIEWS: remote=version pairs need REMOTE_PREVIEW_SECRET (the site\'s) to sign them');
    return previewLink({ site: siteUrl, remote: match[1]!, version: match[2]!, secret, expires: now + 60 * 60 * 1000 });
  });
}

/** Opens every preview link in `context` (the site sets its preview cookie); fails when the site refuses one. */
export async function openPreviews(context: BrowserContext, links: readonly string[]): Promise<void> {
  for (const link of links) {
    const response = await context.request.get(link, { maxRedirects: 0 });
    if (response.status() !== 303) throw new Error(`the site refused the preview ${link}: ${response.status()} ${(await response.text()).slice(0, 200)}`);
  }
}

/** A `Stack` that is a running site: only its URL is known (a test of the subset uses nothing else). */
export function runningSiteStack(url: string): Stack {
  return new Proxy({ url } as Stack, {
    get(target, property) {
      if (property === 'url' || property === 'then' || typeof property === 'symbol') return target[property as 'url'];
      throw new Error(`stack.${String(property)} is not known for a running site (E2E_BASE_URL): this test is not in the running-site subset`);
    },
  });
}
