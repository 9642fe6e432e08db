import type { VersionSelectionPlugin } from '../versionSelection.js';
import { PREVIEW_COOKIE_NAME, activePreviews } from './previewCookie.js';

/**
 * Renders a remote at the build a valid preview cookie names (`/__preview` sets it from a signed
 * link): reason `preview`, never shared-cacheable. A forged, expired or unreadable cookie changes
 * nothing. Last in the chain: a preview beats the visitor's canary side.
 * @param secret the operators' `REMOTE_PREVIEW_SECRET`.
 */
export function previewSelectionPlugin(secret: string): VersionSelectionPlugin {
  // The cookie is read once per request (the chain runs once per configured remote).
  const parsed = new WeakMap<object, Map<string, string>>();
  return {
    name: 'khs-preview',
    select(request, remote, current) {
      let versions = parsed.get(request);
      if (!versions) {
        versions = new Map(activePreviews(request.cookies[PREVIEW_COOKIE_NAME], secret, request.now).map((preview) => [preview.remote, preview.version]));
        parsed.set(request, versions);
      }
      const version = versions.get(remote);
      return version ? { version, reason: 'preview', cacheable: false } : current;
    },
  };
}
