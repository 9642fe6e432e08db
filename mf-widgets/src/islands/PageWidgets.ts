import type { IslandMount } from 'contracts';
// The styles of every widget's markup: linked in the page head by the shell (from the manifest)
// when this island is rendered on the server, loaded with this module otherwise.
import '../styles/widgets.css';
import { createBrowserEnv } from '../enhance/env.js';
import { startEnhancer, type EnhancerEngine, type WidgetDefinition } from '../enhance/engine.js';
import type { WidgetEnv } from '../enhance/env.js';
import { CONTENT_WIDGET_SELECTOR } from '../widgets/contentWidgetSelectors.js';
import { PAGE_WIDE_WIDGETS } from '../widgets/pageWideWidgets.js';

/** User-timing name of the mount, read by the benchmark and visible in DevTools. */
export const MOUNT_MEASURE_NAME = 'mf-widgets:mount';

/**
 * One engine per document, shared by every PageWidgets island on it (a page with two such
 * islands, or two builds of this remote, must not enhance anything twice). Kept on the document
 * under a registry symbol for the same reason the page bus lives on the global object.
 */
const ENGINE_KEY = Symbol.for('khs.mf-widgets.engine.v1');
type EngineHolder = { [ENGINE_KEY]?: { engine: Pick<EnhancerEngine, 'stop'>; ready: Promise<void>; mounts: number } };

/**
 * The page-wide behaviours at once; the content widgets (their own chunk) only once the page has
 * one, now or later (search results, dialog content): then a second engine takes them over the
 * whole document. `ready` settles when what the page had at the start is enhanced.
 */
function startPageEnhancers(env: WidgetEnv): { engine: Pick<EnhancerEngine, 'stop'>; ready: Promise<void> } {
  let stopped = false;
  let content: EnhancerEngine | undefined;
  let loading: Promise<void> | undefined;
  const loadContentWidgets = () =>
    (loading ??= import(/* webpackChunkName: "content-widgets" */ '../widgets/contentWidgets.js').then(
      ({ CONTENT_WIDGETS }) => {
        if (!stopped) content = startEnhancer({ root: document, widgets: CONTENT_WIDGETS, env });
      },
      (error: unknown) => console.warn('[mf-widgets] the content widgets failed to load; their server markup stays as it is', error),
    ));
  const contentWidgetsFound: WidgetDefinition = {
    name: 'content-widgets',
    selector: CONTENT_WIDGET_SELECTOR,
    enhance: () => {
      void loadContentWidgets();
      return () => {};
    },
  };
  const page = startEnhancer({ root: document, widgets: [...PAGE_WIDE_WIDGETS, contentWidgetsFound], env });
  return {
    ready: loading ?? Promise.resolve(),
    engine: {
      stop() {
        stopped = true;
        page.stop();
        content?.stop();
      },
    },
  };
}

/**
 * `mf-widgets/PageWidgets`: an empty island at the end of every page. Enhances every widget of
 * the whole document (not only its own element), and widgets added later; unmount removes every
 * listener and puts the server markup back (when the last PageWidgets island unmounts). Resolves
 * once the widgets the page has are enhanced (content widgets: after their chunk loaded).
 */
const mount: IslandMount = async (_element, _props, context) => {
  const holder = document as Document & EngineHolder;
  const running = holder[ENGINE_KEY];
  if (running) {
    running.mounts += 1;
  } else {
    const start = performance.now();
    const { engine, ready } = startPageEnhancers(createBrowserEnv(window, context.bus));
    performance.measure?.(MOUNT_MEASURE_NAME, { start, end: performance.now() });
    holder[ENGINE_KEY] = { engine, ready, mounts: 1 };
  }
  await holder[ENGINE_KEY]!.ready;
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
