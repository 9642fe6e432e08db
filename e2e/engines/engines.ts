import { existsSync } from 'node:fs';
import { CHROMIUM_PATH } from '../harness/chromium.js';
import { launchChromium } from './chromium.js';
import type { Engine, EngineName } from './driver.js';
import { FIREFOX_PATH, launchFirefox } from './firefox.js';
import { MINIBROWSER_PATH, WEBKIT_DRIVER_PATH, launchWebKit } from './webkit.js';

export const ENGINE_NAMES: readonly EngineName[] = ['chromium', 'firefox', 'webkit'];

/** Starts one engine's browser (its adapter). */
export function launchEngine(name: EngineName): Promise<Engine> {
  if (name === 'firefox') return launchFirefox();
  if (name === 'webkit') return launchWebKit();
  return launchChromium();
}

/** Fails early and clearly when a browser of the subset is missing (`npm test` installs them as root). */
export function assertEnginesPresent(): void {
  const wanted: Array<[string, string]> = [
    [CHROMIUM_PATH, 'chromium'],
    [FIREFOX_PATH, 'firefox-esr'],
    [WEBKIT_DRIVER_PATH, 'webkit2gtk-driver'],
    [MINIBROWSER_PATH, 'webkit2gtk-driver'],
    ['/usr/bin/Xvfb', 'xvfb'],
  ];
  const missing = wanted.filter(([file]) => !existsSync(file));
  if (missing.length > 0) {
    throw new Error(`Missing ${missing.map(([file]) => file).join(', ')}. Install with "apt-get install -y ${[...new Set(missing.map(([, pkg]) => pkg))].join(' ')}" (Debian).`);
  }
}
