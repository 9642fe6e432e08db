import type { StoredWatchlist, Teaser } from 'contracts';

/** A grey 16:9 placeholder, inline so the standalone page needs no image server. */
const PLACEHOLDER_IMAGE =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 9'%3E%3Crect width='16' height='9' fill='%23c9d3de'/%3E%3C/svg%3E";

function dummyTeaser(id: string, title: string, topics: string[], intro: string): Teaser {
  return {
    id,
    overline: topics[0] ?? '',
    title,
    href: `#${id}`,
    tags: topics.map((topic) => ({ title: topic })),
    intro,
    image: { src: PLACEHOLDER_IMAGE, srcSet: `${PLACEHOLDER_IMAGE} 1x`, alt: '' },
    cta: 'Read article',
    labels: { add: 'Add to watchlist', remove: 'Remove from watchlist' },
  };
}

/**
 * Dummy data the screen shows in the remote's standalone design mode (no server), so the
 * team can work on the loaded layout (spec point 8).
 */
export function designModeWatchlist(): StoredWatchlist {
  const saved = [
    dummyTeaser('feedback-that-lands', 'Giving feedback that lands', ['Feedback', 'Communication'], 'Specific, timely and kind: how feedback changes behaviour instead of causing defence.'),
    dummyTeaser('negotiating-with-confidence', 'Negotiating with confidence', ['Negotiation'], 'Preparation, anchors and walking away: the basics that carry most negotiations.'),
  ];
  return {
    articles: Object.fromEntries(saved.map((teaser) => [teaser.id, teaser])),
    relatedArticles: [
      dummyTeaser('active-listening', 'Active listening', ['Communication', 'Coaching'], 'The skill everyone thinks they have, and how to actually practise it.'),
    ],
    sharingUrl: 'https://example.com/watchlist/shared/design-mode-example',
  };
}
