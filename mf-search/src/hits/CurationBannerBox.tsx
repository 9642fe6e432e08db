import type { CurationBanner } from './curationBanner.js';

/** An editor's banner above the hits: its title as the link, its text below. */
export function CurationBannerBox({ banner }: { banner: CurationBanner }) {
  return (
    <div className="khs-search-banner" data-curation-banner="">
      <p className="khs-search-banner__title">
        <a href={banner.url}>{banner.title}</a>
      </p>
      {banner.text ? <p className="khs-search-banner__text">{banner.text}</p> : null}
    </div>
  );
}
