import { Component, startTransition, useEffect, type ErrorInfo, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { ISLAND_HYDRATION_MISMATCH_EVENT, type Unmount } from 'contracts';

interface BoundaryProps {
  name: string;
  onError: () => void;
  children: ReactNode;
}

/** Catches a render error of the island so it never reaches the rest of the page. */
export class IslandErrorBoundary extends Component<BoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(`[${this.props.name}] island failed while rendering; its fallback is shown`, error, info.componentStack);
    this.props.onError();
  }

  override render(): ReactNode {
    return this.state.failed ? null : this.props.children;
  }
}

export interface MountReactIslandOptions {
  /**
   * The element holds this island's own server render (`context.hydration` was given): attach to
   * it with `hydrateRoot` instead of replacing it. A mismatch is logged, signalled once per mount
   * as `ISLAND_HYDRATION_MISMATCH_EVENT` on the element (the shell reports it as `KHS-ISLAND-010`),
   * and React renders the island on the client instead. Default false.
   */
  hydrate?: boolean;
  /** Where hydration mismatches are logged. Default `console`. */
  log?: Pick<Console, 'warn'>;
  /**
   * Longest wait for the first commit (and its effects) before the mount settles anyway (ms);
   * `Infinity` settles only then. A caller that hands the island what the visitor did meanwhile (typed text a
   * controlled input must see as a change) needs the commit itself: on a slow device hydration can
   * take longer than the default. Default `FIRST_COMMIT_TIMEOUT_MS`.
   */
  firstCommitTimeoutMs?: number;
}

/**
 * Longest wait for an island's first commit before its mount settles anyway (ms): a tree that
 * suspends for good must not keep the page's runtime waiting on it.
 */
export const FIRST_COMMIT_TIMEOUT_MS = 5000;

/**
 * Calls `onCommit` once React committed the tree inside and ran its passive effects (`useEffect`:
 * a parent's run after its children's). Only then does the island handle input as it should:
 * a store's subscription (`useSyncExternalStore`) is made in a passive effect, and until it is
 * there a controlled input's change goes to no listener and React puts the old value back into
 * the box (text typed then was lost or mixed with the server's). Renders no DOM of its own.
 */
function CommitSignal({ onCommit, children }: { onCommit: () => void; children: ReactNode }): ReactNode {
  useEffect(onCommit, [onCommit]);
  return children;
}

/** The tree an island renders, identical on the server and in the browser (hydration needs that). */
export function islandTree(name: string, node: ReactNode, onError: () => void = () => {}): ReactNode {
  return (
    <IslandErrorBoundary name={name} onError={onError}>
      {node}
    </IslandErrorBoundary>
  );
}

/**
 * Renders `node` into `element`: replacing the server fallback once React commits, or (with
 * `hydrate`) hydrating the island's server-rendered HTML. If the tree throws, the island
 * unmounts and the markup it started from is put back. Resolves with the unmount function once
 * React committed the island (hydration included) and ran its effects, so the page's runtime
 * knows when the island really handles input (it replays a reader's early clicks then, the
 * search list hands typed text over); at the latest after `firstCommitTimeoutMs`. Hydration
 * runs as a transition, in slices that let the browser handle input between them.
 * @param name  Used in log lines, e.g. `"mf-watchlist/WatchlistButton"`.
 */
export function mountReactIsland(element: HTMLElement, name: string, node: ReactNode, options: MountReactIslandOptions = {}): Promise<Unmount> {
  const fallbackHtml = element.innerHTML;
  const log = options.log ?? console;
  let mounted = true;
  const restoreFallback = () => {
    queueMicrotask(() => {
      if (!mounted) return;
      mounted = false;
      root?.unmount();
      element.innerHTML = fallbackHtml;
    });
  };
  let committed: () => void = () => {};
  const timeoutMs = options.firstCommitTimeoutMs ?? FIRST_COMMIT_TIMEOUT_MS;
  const firstCommit = new Promise<void>((resolve) => {
    committed = resolve;
    if (Number.isFinite(timeoutMs)) setTimeout(resolve, timeoutMs);
  });
  // Outside the island's tree: no DOM, so the server's markup (rendered without it) still matches.
  const tree = <CommitSignal onCommit={() => committed()}>{islandTree(name, node, restoreFallback)}</CommitSignal>;
  let mismatchSignalled = false;
  const hydrateServerMarkup = () =>
    hydrateRoot(element, tree, {
      onRecoverableError(error) {
        // React has already thrown the server HTML away and rendered this island on the client.
        log.warn(`[${name}] server HTML did not match; the island was rendered in the browser instead`, error);
        // One signal per mount: React may report one mismatch as several recoverable errors.
        if (mismatchSignalled) return;
        mismatchSignalled = true;
        element.dispatchEvent(new CustomEvent(ISLAND_HYDRATION_MISMATCH_EVENT, { bubbles: true }));
      },
    });
  let root: ReturnType<typeof createRoot> | undefined;
  if (options.hydrate) {
    // A transition: React hydrates in slices of a few ms and lets the browser handle input in
    // between (a plain hydrateRoot hydrates the whole island in one task: a key pressed meanwhile
    // waits for all of it).
    startTransition(() => {
      root = hydrateServerMarkup();
    });
  } else {
    root = createRoot(element);
    root.render(tree);
  }
  const unmount: Unmount = () => {
    if (!mounted) return;
    mounted = false;
    root?.unmount();
  };
  return firstCommit.then(() => unmount);
}
