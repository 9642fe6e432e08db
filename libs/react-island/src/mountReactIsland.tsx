import { Component, type ErrorInfo, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import type { Unmount } from 'contracts';

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
   * it with `hydrateRoot` instead of replacing it. A mismatch is logged and React renders the
   * island on the client instead. Default false.
   */
  hydrate?: boolean;
  /** Where hydration mismatches are logged. Default `console`. */
  log?: Pick<Console, 'warn'>;
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
 * unmounts and the markup it started from is put back.
 * @param name  Used in log lines, e.g. `"mf-watchlist/WatchlistButton"`.
 */
export function mountReactIsland(element: HTMLElement, name: string, node: ReactNode, options: MountReactIslandOptions = {}): Unmount {
  const fallbackHtml = element.innerHTML;
  const log = options.log ?? console;
  let mounted = true;
  const restoreFallback = () => {
    queueMicrotask(() => {
      if (!mounted) return;
      mounted = false;
      root.unmount();
      element.innerHTML = fallbackHtml;
    });
  };
  const tree = islandTree(name, node, restoreFallback);
  const root = options.hydrate
    ? hydrateRoot(element, tree, {
        onRecoverableError(error) {
          // React has already thrown the server HTML away and rendered this island on the client.
          log.warn(`[${name}] server HTML did not match; the island was rendered in the browser instead`, error);
        },
      })
    : createRoot(element);
  if (!options.hydrate) root.render(tree);
  return () => {
    if (!mounted) return;
    mounted = false;
    root.unmount();
  };
}
