import type { IslandMount } from 'contracts';
import { createBrowserEnv } from '../enhance/env.js';
import { startEnhancer } from '../enhance/engine.js';
import { WIDGETS } from '../widgets/registry.js';

/** User-timing name of the mount, read by the benchmark and visible in DevTools. */
export const MOUNT_MEASURE_NAME = 'mf-widgets:mount';

/**
 * `mf-widgets/PageWidgets`: an empty island at the end of every page. Enhances every widget of
 * the whole document (not only its own element), and widgets added later; unmount removes every
 * listener and puts the server markup back.
 */
const mount: IslandMount = (_element, _props, context) => {
  const start = performance.now();
  const engine = startEnhancer({ root: document, widgets: WIDGETS, env: createBrowserEnv(window, context.bus) });
  performance.measure?.(MOUNT_MEASURE_NAME, { start, end: performance.now() });
  return () => engine.stop();
};

export default mount;
