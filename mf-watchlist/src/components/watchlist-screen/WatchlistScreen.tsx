import type { PageBus, PageConfig } from 'contracts';
import type { WatchlistServices } from '../../api/watchlistServices.js';
import { useWatchlistScreen } from '../../hooks/useWatchlistScreen.js';
import { PdfDownloadArea } from './PdfDownloadArea.js';
import { RelatedArticles } from './RelatedArticles.js';
import { SavedArticleList } from './SavedArticleList.js';
import { ShareLinkArea } from './ShareLinkArea.js';
import { WatchlistEmpty } from './WatchlistEmpty.js';
import { WatchlistLoading } from './WatchlistLoading.js';
import '../../styles/watchlist.css';

export interface WatchlistScreenProps {
  bus: PageBus;
  config: Pick<PageConfig, 'calls' | 'i18n'>;
  /** Standalone design mode (no server): dummy data after a failed load. Default false. */
  designMode?: boolean;
  /** Browser services; default the real ones (tests pass their own). */
  services?: WatchlistServices;
  /** Render the headline inside the screen (the shell's page already has one). Default false. */
  showHeadline?: boolean;
}

/**
 * The watchlist screen: loading, then the saved articles with share link and PDF download,
 * or the empty state; related articles below. The page headline comes from the shell page.
 */
export function WatchlistScreen({ bus, config, designMode = false, services, showHeadline = false }: WatchlistScreenProps) {
  const { state, remove, add, copySharingUrl, downloadPdf } = useWatchlistScreen({ bus, config, designMode, services });
  const { i18n } = config;
  const loading = state.status === 'loading';
  return (
    <div className="khs-watchlist-screen" aria-busy={loading} data-status={state.status}>
      {showHeadline ? <h1>{i18n.watchlistHeadline}</h1> : null}
      {loading ? (
        <WatchlistLoading label={i18n.loading} />
      ) : state.entries.length === 0 ? (
        <WatchlistEmpty text={i18n.watchlistEmpty} />
      ) : (
        <>
          <div className="khs-watchlist-screen__tools">
            {state.sharingUrl ? (
              <ShareLinkArea
                sharingUrl={state.sharingUrl}
                label={i18n.watchlistShare}
                copyLabel={i18n.watchlistCopy}
                copiedLabel={i18n.watchlistCopied}
                copied={state.copyConfirmed}
                onCopy={() => void copySharingUrl()}
              />
            ) : null}
            <PdfDownloadArea
              label={i18n.watchlistDownload}
              downloadingLabel={i18n.loading}
              downloading={state.download === 'downloading'}
              onDownload={() => void downloadPdf()}
            />
          </div>
          <SavedArticleList entries={state.entries} label={i18n.watchlistHeadline} onRemove={remove} />
        </>
      )}
      <p className="khs-watchlist-screen__storage-status" role="status">
        {state.storageFailed ? i18n.watchlistStorageFailed : ''}
      </p>
      {loading ? null : <RelatedArticles related={state.related} headline={i18n.watchlistRelated} onAdd={add} />}
    </div>
  );
}
