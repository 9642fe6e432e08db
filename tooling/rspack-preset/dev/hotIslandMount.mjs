// Browser side of a remote's dev build (never in a production build: only the dev configs'
// expose wrappers import it, tooling/rspack-preset/dev/devBuild.mjs). Each island of the remote is
// mounted through `hotIslandMount`, which remembers it; when the dev starter says the remote was
// rebuilt (an event on the shell's dev event stream, same origin), the remote is registered again
// with the page's one federation runtime and each of its islands is unmounted and mounted from the
// new build in place. The page is not reloaded: the window, the bus, every other island and its
// state stay. The swapped island's React state starts afresh: the page's React is the shell's
// production build, which Fast Refresh cannot patch (see the preset's README, "Dev mode").
/* global __KHS_DEV_EVENTS_PATH__, __KHS_DEV_CHUNK_GLOBAL__ */

/** The page-wide registry, shared by every build of the remote the page loads. */
const REGISTRY = Symbol.for('khs.dev.hotIslands');

function registry() {
  return (globalThis[REGISTRY] ??= { islands: new Map(), listening: new Set(), swapping: Promise.resolve() });
}

/**
 * Wraps an expose's default `mount` so the island can be swapped for a rebuilt one in place.
 * A default export that is no function is returned as it is (the shell reports it as before).
 * @param {Function} mount the expose's `mount(element, props, context) => unmount`
 * @param {{ remote: string, expose: string }} island the island prefix (`mf-search`) and expose name
 */
export function hotIslandMount(mount, { remote, expose }) {
  if (typeof mount !== 'function') return mount;
  return async function mountWithHotSwap(element, props, context) {
    const unmount = await mount(element, props, context);
    const { islands } = registry();
    islands.set(element, { remote, expose, props, context, unmount });
    listen(remote);
    // Whoever holds this (the shell's runtime) unmounts what is mounted now, which may be a later build's.
    return () => {
      const current = islands.get(element);
      islands.delete(element);
      current?.unmount?.();
    };
  };
}

function listen(remote) {
  const state = registry();
  if (state.listening.has(remote) || typeof EventSource !== 'function') return;
  state.listening.add(remote);
  const events = new EventSource(__KHS_DEV_EVENTS_PATH__);
  events.addEventListener('rebuilt', (event) => {
    let notice;
    try {
      notice = JSON.parse(event.data);
    } catch {
      return;
    }
    if (notice?.remote !== remote) return;
    // One swap at a time, in the order of the builds.
    state.swapping = state.swapping.then(() => swapRemote(remote, String(notice.buildVersion), notice.manifestUrl)).catch((error) => {
      console.error(`[dev] ${remote} ${notice.buildVersion} could not be swapped in; reloading the page`, error);
      location.reload();
    });
  });
}

/** The page's federation runtime instance that has `remote` registered (the shell's, or a standalone page's). */
function federationInstanceOf(remote) {
  const instances = globalThis.__FEDERATION__?.__INSTANCES__ ?? [];
  return instances.find((instance) => (instance.options?.remotes ?? []).some((definition) => definition.alias === remote));
}

/** `manifestUrl`: the live manifest the shell loaded the build from (else the one the page registered). */
async function swapRemote(remote, buildVersion, manifestUrl) {
  const instance = federationInstanceOf(remote);
  if (!instance) throw new Error(`no federation runtime on this page has "${remote}" registered`);
  const definition = instance.options.remotes.find((candidate) => candidate.alias === remote);
  // `force` drops the old container and its module cache; the manifest is fetched again (no-cache).
  // The runtime warns on every forced registration by design; the swap means it (see the shell's
  // federation/replacementWarning.ts), so that one line is left out of the console.
  replaceRegistration(instance, { name: definition.name, alias: definition.alias, entry: typeof manifestUrl === 'string' ? manifestUrl : definition.entry });
  // The new container's chunk loader would take the old build's chunks from this global (same ids).
  delete globalThis[__KHS_DEV_CHUNK_GLOBAL__];
  const { islands } = registry();
  const mounted = [...islands].filter(([, island]) => island.remote === remote);
  const scroll = { x: window.scrollX, y: window.scrollY };
  for (const [element, island] of mounted) {
    const module = await instance.loadRemote(`${remote}/${island.expose}`);
    if (typeof module?.default !== 'function') throw new Error(`"${remote}/${island.expose}" has no default mount export`);
    // The island keeps its height while it is empty between the two builds: an island near the
    // page's end would otherwise shorten the page and the browser would pull the view up.
    const held = element.style.minHeight;
    element.style.minHeight = `${element.getBoundingClientRect().height}px`;
    islands.delete(element);
    island.unmount?.();
    // The server's hydration state belongs to the HTML the page came with: the new build renders afresh.
    const { hydration: _hydration, ...context } = island.context;
    await module.default(element, island.props, context);
    await renderedIn(element);
    element.style.minHeight = held;
  }
  if (window.scrollX !== scroll.x || window.scrollY !== scroll.y) window.scrollTo(scroll.x, scroll.y);
  document.documentElement.setAttribute('data-khs-dev-build', `${remote}@${buildVersion}`);
  console.info(`[dev] ${remote} ${buildVersion}: ${mounted.length} island(s) swapped in without a reload`);
}

/** Registers `remote` again with `force`, without the runtime's warning about that one replacement. */
function replaceRegistration(instance, remote) {
  const warn = console.warn;
  console.warn = (...args) => {
    if (typeof args[0] === 'string' && args[0].includes(`The remote "${remote.name}" is already registered.`)) return;
    warn.apply(console, args);
  };
  try {
    instance.registerRemotes([remote], { force: true });
  } finally {
    console.warn = warn;
  }
}

/** The next frame (a timer where there are no frames). */
function nextFrame() {
  return new Promise((resolve) => (typeof requestAnimationFrame === 'function' ? requestAnimationFrame(() => resolve()) : setTimeout(resolve, 16)));
}

/** Resolves once `element` has content again (the new build's first render committed), at most ~20 frames. */
async function renderedIn(element) {
  for (let frame = 0; frame < 20 && element.childNodes.length === 0; frame++) await nextFrame();
  await nextFrame();
}
