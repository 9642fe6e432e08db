import { Component, type ErrorInfo, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import type { Unmount } from 'contracts';

interface BoundaryProps {
  name: string;
  onError: () => void;
  children: ReactNode;
}

/** Catches a render error of the island so it never reaches the rest of the page. */
class IslandErrorBoundary extends Component<BoundaryProps, { failed: boolean }> {
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

/**
 * Renders `node` into `element` (replacing the server fallback once React commits). If the tree
 * throws, the island unmounts and the server fallback markup is put back.
 * @param name  Used in log lines, e.g. `"mf-watchlist/WatchlistButton"`.
 */
export function mountReactIsland(element: HTMLElement, name: string, node: ReactNode): Unmount {
  const fallbackHtml = element.innerHTML;
  const root = createRoot(element);
  let mounted = true;
  const restoreFallback = () => {
    queueMicrotask(() => {
      if (!mounted) return;
      mounted = false;
      root.unmount();
      element.innerHTML = fallbackHtml;
    });
  };
  root.render(
    <IslandErrorBoundary name={name} onError={restoreFallback}>
      {node}
    </IslandErrorBoundary>,
  );
  return () => {
    if (!mounted) return;
    mounted = false;
    root.unmount();
  };
}
