import { Fragment, useContext, type ReactNode } from 'react';
import { PAGE_CONFIG_ELEMENT_ID, SEARCH_INPUT_MAX_LENGTH, parseIslandName, type PageConfig } from 'contracts';
import { ConsentBanner } from './ConsentBanner.js';
import { ConsentPanel } from './ConsentPanel.js';
import { PreviewMarker } from './PreviewMarker.js';
import { Slot, SlotFillsContext, SlotPageConfigContext } from './Slot.js';
import { SITE_FOOTER_LINKS } from './footerLinks.js';
import { SITE_SLOT_FILLS, type SlotFills } from '../slots/slotFills.js';
import { IslandCollectorContext } from '../federation/islandCollector.js';
import { serializeJsonForHtml } from '../federation/serializeJsonForHtml.js';
import { PageMetadata, type PageMetadataProps } from '../seo/PageMetadata.js';

export interface LayoutProps {
  title: string;
  config: PageConfig;
  /** URL of the shell's client runtime script. */
  runtimeUrl: string;
  /** Initial value of the header search box. Default empty. */
  query?: string;
  /** Extra class on `<body>`, e.g. `page-article`. */
  pageClass?: string;
  /**
   * Remotes of the islands this page hydrates at once in its first view, preloaded in the head.
   * Default: those of the header's islands (`firstViewRemotesOf` the page's fills); a page adds the remote of its main island to `FIRST_VIEW_REMOTES`.
   */
  firstViewRemotes?: readonly string[];
  /** CSS of a team service's page content (`PageFragment.styles`), in a `<style>` after the site's. Default none. */
  contentStyles?: string;
  /** What search engines and social networks read (description, canonical, cards, JSON-LD). Default: `noindex`, the site's description. */
  metadata?: PageMetadataProps;
  children: ReactNode;
}

/**
 * Remotes whose islands hydrate at once in the first view of every page (the islands filling the
 * header's slots that hydrate immediately; a search box waiting for an interaction is not one): their manifests and entries are preloaded so the runtime finds them in the cache
 * instead of asking only after the page is parsed. The manifest as the runtime's own `fetch` asks
 * for it (`crossOrigin="anonymous"`); the entry as the classic script the runtime adds next to it.
 * Entry names are content-hashed: the entry is preloaded only when the server has loaded the
 * manifest that names it, never guessed. A remote whose islands all wait is not preloaded: its
 * entry must not compete with what the first view needs.
 */
export function firstViewRemotesOf(fills: SlotFills): string[] {
  const header = [...(fills.get('header.search') ?? []), ...(fills.get('header.actions') ?? [])];
  const immediate = header.filter((fill) => (fill.hydrate ?? 'immediate') === 'immediate');
  return [...new Set(immediate.map((fill) => remoteOfIsland(fill.island)))];
}

/** The remote of an island name (`remote/Module`) a template places. */
export function remoteOfIsland(islandName: string): string {
  const parsed = parseIslandName(islandName);
  if (!parsed) throw new Error(`not an island name: ${islandName}`);
  return parsed.remote;
}

/** The site's first-view remotes (`firstViewRemotesOf` the slices' fills): a page adds the remote of its main island to them. */
export const FIRST_VIEW_REMOTES: readonly string[] = firstViewRemotesOf(SITE_SLOT_FILLS);

/** The frame of every page: header with the `header.search` and `header.actions` slots, main, footer with the `footer.links` slot, the `page.end` slot. */
export function Layout({ title, config, runtimeUrl, query = '', pageClass, firstViewRemotes, contentStyles, metadata, children }: LayoutProps) {
  const fills = useContext(SlotFillsContext);
  return (
    <html lang="en">
      <PageHead title={title} config={config} runtimeUrl={runtimeUrl} firstViewRemotes={firstViewRemotes ?? firstViewRemotesOf(fills)} contentStyles={contentStyles} metadata={metadata} />
      <body className={pageClass}>
        <SlotPageConfigContext.Provider value={config}>
          <a className="skip-link" href="#main">
            Skip to content
          </a>
          <PreviewMarker />
          <SiteHeader config={config} query={query} />
          <main id="main" tabIndex={-1}>
            {children}
          </main>
          <footer className="site-footer">
            <p>
              © {config.siteName} ·{' '}
              {SITE_FOOTER_LINKS.map((link) => (
                <Fragment key={link.href}>
                  <a href={link.href}>{link.text}</a> ·{' '}
                </Fragment>
              ))}
              <a href="#cookie-banner">Cookie settings</a>
            </p>
            <Slot name="footer.links" context={{}} />
          </footer>
          <ConsentPanel />
          <Slot name="page.end" context={{}} />
          <ConsentBanner />
        </SlotPageConfigContext.Provider>
      </body>
    </html>
  );
}

/** The page's head: metadata, the site's styles, the page config, the runtime, the first view's preloads. */
function PageHead({ title, config, runtimeUrl, firstViewRemotes, contentStyles, metadata }: Pick<LayoutProps, 'title' | 'config' | 'runtimeUrl' | 'contentStyles' | 'metadata'> & { firstViewRemotes: readonly string[] }) {
  const collector = useContext(IslandCollectorContext);
  const entryUrl = collector?.remoteEntryUrl ?? (() => undefined);
  // The browser loads each remote at the build this page was rendered with (pinned), not whatever is live by then.
  const remotes = config.remotes.map((remote) => ({ ...remote, entry: collector?.pinnedManifestUrl(remote.name) ?? remote.entry }));
  const pageConfig = remotes.some((remote, index) => remote.entry !== config.remotes[index]!.entry) ? { ...config, remotes } : config;
  return (
    <head>
      <meta charSet="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>{`${title} · ${config.siteName}`}</title>
      <PageMetadata siteName={config.siteName} {...metadata} />
      <link rel="icon" href="/static/favicon.svg" type="image/svg+xml" />
      <link rel="stylesheet" href="/static/site.css" />
      {/* `isPageFragment` refused any `</` in it, so it cannot end the element. */}
      {contentStyles ? <style dangerouslySetInnerHTML={{ __html: contentStyles }} /> : null}
      <script type="application/json" id={PAGE_CONFIG_ELEMENT_ID} dangerouslySetInnerHTML={{ __html: serializeJsonForHtml(pageConfig) }} />
      <script src={runtimeUrl} defer />
      {remotes
        .filter((remote) => firstViewRemotes.includes(remote.name))
        .flatMap((remote) => {
          const entry = entryUrl(remote.name);
          return [
            <link key={`${remote.name}-manifest`} rel="preload" as="fetch" crossOrigin="anonymous" href={remote.entry} />,
            ...(entry ? [<link key={`${remote.name}-entry`} rel="preload" as="script" href={entry} />] : []),
          ];
        })}
    </head>
  );
}

/** The site's header: brand, main navigation, the `header.search` and `header.actions` slots. */
function SiteHeader({ config, query }: { config: PageConfig; query: string }) {
  const { calls, i18n } = config;
  return (
    <header className="site-header" data-site-header="">
      <div className="site-header__inner">
        <a className="site-header__brand" href="/">
          {config.siteName}
        </a>
        <nav className="site-header__nav" aria-label="Main">
          <a href="/">Articles</a>
          <a href={calls.searchPage}>{i18n.searchLabel}</a>
        </nav>
        {/* The site's plain GET search form: usable until the reader reaches for the search box filling the slot (its remote loads then), and alone without one. */}
        <Slot name="header.search" context={{ query }}>
          <form role="search" aria-label="Site search" action={calls.searchPage} method="get" className="header-search">
            <label className="visually-hidden" htmlFor="header-search-input">
              {i18n.searchLabel}
            </label>
            <input id="header-search-input" type="search" name="q" defaultValue={query} maxLength={SEARCH_INPUT_MAX_LENGTH} placeholder={i18n.searchPlaceholder} />
            <button type="submit">{i18n.searchLabel}</button>
          </form>
        </Slot>
        <Slot name="header.actions" context={{}} />
      </div>
    </header>
  );
}
