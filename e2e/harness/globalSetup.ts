import { existsSync } from 'node:fs';
import path from 'node:path';
import { assertChromiumPresent } from './chromium.js';
import { runningSiteUrl } from './runningSite.js';
import { REPO_ROOT, REMOTE_NAMES } from './stack.js';

/** Fails early and clearly when the browser or the builds are missing. */
export default function globalSetup(): void {
  assertChromiumPresent();
  // Against a running site (E2E_BASE_URL) nothing of this checkout is served: no build needed.
  if (runningSiteUrl()) return;
  const missing = [...REMOTE_NAMES.map((name) => path.join(name, 'dist/mf-manifest.json')), 'shell/dist/client/shell-runtime.js'].filter(
    (file) => !existsSync(path.join(REPO_ROOT, file)),
  );
  if (missing.length > 0) {
    throw new Error(`Build first (npm run build). Missing: ${missing.join(', ')}`);
  }
}
