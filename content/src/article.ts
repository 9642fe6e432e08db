import type { SearchHit } from 'contracts';

/** One picture of an article's gallery. */
export interface GalleryImage {
  /** Site URL of the image, e.g. `/content-images/gallery-workshop.svg`. */
  src: string;
  /** Alternative text for screen readers. */
  alt: string;
  /** Visible caption under the image. */
  caption: string;
}

/**
 * An article of the content store: every search-hit field plus the extras the article page renders.
 */
export type Article = SearchHit & {
  /** Alternative text of `image`. */
  imageAlt: string;
  /** Form handle of the survey shown under the article, if any (resolves with `getSurvey`). */
  surveyHandle?: string;
  /** Optional image gallery shown on the article page. */
  gallery?: GalleryImage[];
  /** The body rendered from Markdown to safe HTML (articles read from files; generated ones have none). */
  bodyHtml?: string;
  /** `true` keeps the article off every public page, list and the index (preview links show it). */
  draft?: boolean;
  /** When the article's file last changed (unix ms). Differs per checkout: not for what pages show or tag. */
  lastModified?: number;
  /** When the article was last changed, as its front matter's `updated` says (unix seconds, not before `date`). Absent: never changed. */
  updated?: number;
};
