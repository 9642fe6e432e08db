import type { IslandMount } from 'contracts';
// The styles of every widget's markup: linked in the page head by the shell (from the manifest)
// when this island is rendered on the server, loaded with this module otherwise.
import '../styles/widgets.css';
import { createBrowserEnv } from '../enhance/env.js';
import { startEnhancer, type EnhancerEngine } from '../enhance/engine.js';
import { WIDGETS } from '../widgets/registry.js';

/** User-timing name of the mount, read by the benchmark and visible in DevTools. */
export const MOUNT_MEASURE_NAME = 'mf-widgets:mount';

/**
 * One engine per document, shared by every PageWidgets island on it (a page with two such
 * islands, or two builds of this remote, must not enhance anything twice). Kept on the document
 * under a registry symbol for the same reason the page bus lives on the global object.
 */
const ENGINE_KEY = Symbol.for('khs.mf-widgets.engine.v1');
type EngineHolder = { [ENGINE_KEY]?: { engine: EnhancerEngine; mounts: number } };

/**
 * `mf-widgets/PageWidgets`: an empty island at the end of every page. Enhances every widget of
 * the whole document (not only its own element), and widgets added later; unmount removes every
 * listener and puts the server markup back (when the last PageWidgets island unmounts).
 */
const mount: IslandMount = (_element, _props, context) => {
  const holder = document as Document & EngineHolder;
  const running = holder[ENGINE_KEY];
  if (running) {
    running.mounts += 1;
  } else {
    const start = performance.now();
    const engine = startEnhancer({ root: document, widgets: WIDGETS, env: createBrowserEnv(window, context.bus) });
    performance.measure?.(MOUNT_MEASURE_NAME, { start, end: performance.now() });
    holder[ENGINE_KEY] = { engine, mounts: 1 };
  }
  let unmounted = false;
  return () => {
    const current = holder[ENGINE_KEY];
    if (unmounted || !current) return;
    unmounted = true;
    current.mounts -= 1;
    if (current.mounts > 0) return;
    current.engine.stop();
    delete holder[ENGINE_KEY];
  };
};

export default mount;
