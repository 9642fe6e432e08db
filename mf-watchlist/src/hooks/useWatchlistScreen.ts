import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import {
  COPY_CONFIRMATION_MS,
  WATCHLIST_DESIGN_MODE_DELAY_MS,
  WATCHLIST_PDF_FILE_NAME,
  type LocalWatchlist,
  type PageBus,
  type PageConfig,
  type Teaser,
} from 'contracts';
import { browserWatchlistServices } from '../api/browserWatchlistServices.js';
import { designModeWatchlist } from '../api/designModeWatchlist.js';
import { downloadWatchlistPdf } from '../api/downloadWatchlistPdf.js';
import { loadStoredWatchlist } from '../api/loadStoredWatchlist.js';
import type { WatchlistServices } from '../api/watchlistServices.js';
import { connectWatchlist, isSaved } from '../connectors/connectWatchlist.js';
import { initialWatchlistScreenState, watchlistScreenReducer, type WatchlistScreenAction, type WatchlistScreenState } from './useWatchlistScreenReducer.js';

export interface UseWatchlistScreenOptions {
  bus: PageBus;
  /** Call URLs come from `config.calls`. */
  config: Pick<PageConfig, 'calls'>;
  /** Standalone design mode: a failed load shows dummy data after the design-mode delay. Default false. */
  designMode?: boolean;
  /** Browser services; default the real ones. Read once, at the first render. */
  services?: WatchlistServices;
}

export interface WatchlistScreen {
  state: WatchlistScreenState;
  /** Removes a saved article from the local watchlist (and so from the screen). */
  remove(teaser: Teaser): void;
  /** Adds a related article to the local watchlist. */
  add(teaser: Teaser): void;
  /** Copies the sharing URL; success shows the confirmation for `COPY_CONFIRMATION_MS`. */
  copySharingUrl(): Promise<void>;
  /** Downloads the watchlist as `WATCHLIST_PDF_FILE_NAME`. */
  downloadPdf(): Promise<void>;
}

/** Ids of the screen's entries that `watchlist` no longer holds (removed by a toggle or another tab). */
export function droppedEntryIds(entries: readonly { id: string }[], watchlist: LocalWatchlist): string[] {
  return entries.map((entry) => entry.id).filter((id) => !isSaved(watchlist, id));
}

type Dispatch = (action: WatchlistScreenAction) => void;

/** Timers of the screen, all cleared when it unmounts (a late one must not touch an unmounted screen). */
interface ScreenTimers {
  later(ms: number, run: () => void): ReturnType<typeof setTimeout>;
  cancel(timer: ReturnType<typeof setTimeout>): void;
}

function useScreenTimers(): ScreenTimers {
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending) clearTimeout(timer);
      pending.clear();
    };
  }, []);
  return useMemo(
    () => ({
      later(ms, run) {
        const timer = setTimeout(() => {
          timers.current.delete(timer);
          run();
        }, ms);
        timers.current.add(timer);
        return timer;
      },
      cancel(timer) {
        clearTimeout(timer);
        timers.current.delete(timer);
      },
    }),
    [],
  );
}

/**
 * The watchlist screen's logic: loads the server's view of the local watchlist, and on every change
 * of the list its connector reports (a toggle on this page, the screen's own included, or another
 * tab) drops the removed entries at once and reloads once; copies the sharing link and downloads
 * the PDF. Markup lives in `components/watchlist-screen`.
 */
export function useWatchlistScreen({ bus, config, designMode = false, services: given }: UseWatchlistScreenOptions): WatchlistScreen {
  const [services] = useState(() => given ?? browserWatchlistServices());
  const [state, dispatch] = useReducer(watchlistScreenReducer, initialWatchlistScreenState);
  // Event handlers and async callbacks read the current state through this ref.
  const stateRef = useRef(state);
  stateRef.current = state;
  const mounted = useRef(true);
  const timers = useScreenTimers();
  // The page's watchlist, through the same connector as the watchlist buttons: read, changes, toggles.
  const connection = useMemo(() => connectWatchlist(bus, { logger: services.logger }), [bus, services]);
  const load = useWatchlistLoad({ connection, services, config, designMode, dispatch, mounted, timers });

  useEffect(() => {
    mounted.current = true;
    void load();
    // A change of the list (a toggle on this page, this screen's own included, or another tab):
    // drop what it removed at once, then ask the server once for the new list.
    const unsubscribe = connection.subscribe((watchlist) => {
      for (const id of droppedEntryIds(stateRef.current.entries, watchlist)) dispatch({ type: 'articleDropped', id });
      void load(watchlist);
    });
    return () => {
      mounted.current = false;
      unsubscribe();
    };
  }, [connection, load]);

  // The same toggle as the watchlist buttons' (stores, then emits updated and added; the
  // subscription above reloads the screen).
  const toggle = useCallback(
    (teaser: Teaser, wanted: 'add' | 'remove') => {
      if (isSaved(connection.read(), teaser.id) === (wanted === 'add')) {
        // Already as wanted (changed elsewhere meanwhile): just refresh the screen.
        void load();
        return;
      }
      const outcome = connection.toggle({ id: teaser.id, title: teaser.title }, { source: 'mf-watchlist/WatchlistScreen' });
      dispatch({ type: outcome.ok ? 'storageSucceeded' : 'storageFailed' });
    },
    [connection, load],
  );

  return {
    state,
    remove: useCallback((teaser: Teaser) => toggle(teaser, 'remove'), [toggle]),
    add: useCallback((teaser: Teaser) => toggle(teaser, 'add'), [toggle]),
    copySharingUrl: useCopySharingUrl({ services, stateRef, dispatch, mounted, timers }),
    downloadPdf: usePdfDownload({ connection, services, config, dispatch, mounted }),
  };
}

/**
 * Loads the server's view of a watchlist (default: the connector's current one). Only the newest
 * load may change the screen: an older answer arriving late is ignored. A failure shows the
 * error, or in design mode dummy data after `WATCHLIST_DESIGN_MODE_DELAY_MS`.
 */
function useWatchlistLoad({ connection, services, config, designMode, dispatch, mounted, timers }: {
  connection: ReturnType<typeof connectWatchlist>;
  services: WatchlistServices;
  config: Pick<PageConfig, 'calls'>;
  designMode: boolean;
  dispatch: Dispatch;
  mounted: { current: boolean };
  timers: ScreenTimers;
}): (watchlist?: LocalWatchlist) => Promise<void> {
  const { csrfToken, watchlist: watchlistUrl } = config.calls;
  const latestLoad = useRef(0);
  return useCallback(async (watchlist: LocalWatchlist = connection.read()) => {
    const loadId = ++latestLoad.current;
    try {
      const storedWatchlist = await loadStoredWatchlist({
        fetch: services.fetch,
        csrfTokenUrl: csrfToken,
        url: watchlistUrl,
        watchlist,
      });
      if (loadId === latestLoad.current && mounted.current) dispatch({ type: 'loadSucceeded', storedWatchlist });
    } catch (error) {
      if (loadId !== latestLoad.current || !mounted.current) return;
      services.logger.error('[mf-watchlist] the watchlist could not be loaded', error);
      if (designMode) {
        timers.later(WATCHLIST_DESIGN_MODE_DELAY_MS, () => {
          if (loadId === latestLoad.current) dispatch({ type: 'loadSucceeded', storedWatchlist: designModeWatchlist() });
        });
      } else {
        dispatch({ type: 'loadFailed' });
      }
    }
  }, [connection, services, csrfToken, watchlistUrl, designMode, dispatch, mounted, timers]);
}

/** Copies the sharing URL; success shows the confirmation for `COPY_CONFIRMATION_MS` (a second copy restarts it). */
function useCopySharingUrl({ services, stateRef, dispatch, mounted, timers }: {
  services: WatchlistServices;
  stateRef: { current: WatchlistScreenState };
  dispatch: Dispatch;
  mounted: { current: boolean };
  timers: ScreenTimers;
}): () => Promise<void> {
  const copyTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  return useCallback(async () => {
    try {
      await services.writeClipboard(stateRef.current.sharingUrl);
    } catch (error) {
      services.logger.error('[mf-watchlist] the sharing link could not be copied', error);
      return;
    }
    if (!mounted.current) return;
    if (copyTimer.current !== undefined) timers.cancel(copyTimer.current);
    dispatch({ type: 'copyConfirmed' });
    copyTimer.current = timers.later(COPY_CONFIRMATION_MS, () => dispatch({ type: 'copyConfirmationEnded' }));
  }, [services, stateRef, dispatch, mounted, timers]);
}

/** Downloads the watchlist as `WATCHLIST_PDF_FILE_NAME`; one download at a time. */
function usePdfDownload({ connection, services, config, dispatch, mounted }: {
  connection: ReturnType<typeof connectWatchlist>;
  services: WatchlistServices;
  config: Pick<PageConfig, 'calls'>;
  dispatch: Dispatch;
  mounted: { current: boolean };
}): () => Promise<void> {
  const { csrfToken, download: downloadUrl } = config.calls;
  const downloading = useRef(false);
  return useCallback(async () => {
    if (downloading.current) return;
    downloading.current = true;
    dispatch({ type: 'downloadStarted' });
    try {
      const pdf = await downloadWatchlistPdf({
        fetch: services.fetch,
        csrfTokenUrl: csrfToken,
        url: downloadUrl,
        watchlist: connection.read(),
      });
      services.saveFile(pdf, WATCHLIST_PDF_FILE_NAME);
    } catch (error) {
      services.logger.error('[mf-watchlist] the PDF could not be downloaded', error);
    } finally {
      downloading.current = false;
      if (mounted.current) dispatch({ type: 'downloadEnded' });
    }
  }, [connection, services, csrfToken, downloadUrl, dispatch, mounted]);
}
