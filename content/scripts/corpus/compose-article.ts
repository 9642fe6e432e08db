import type { Article } from '../../src/article.js';
import { CONTENT_IMAGES_BASE_URL } from '../../src/content-paths.js';
import { createRandom } from '../../src/prng.js';
import { computeReadingTime, countWords } from '../../src/reading-time.js';
import { topicSlug } from '../../src/topics.js';
import type { ArticleSpec } from './article-specs.js';
import { CLOSING_PARAGRAPHS } from './closing-paragraphs.js';
import { GALLERY_SETS } from './gallery-sets.js';
import { PARAGRAPH_BANKS } from './paragraph-banks.js';

/** Word range the seeded article bodies are kept in. */
const MIN_WORDS = 250;
const MAX_WORDS = 600;

/** Stable 32-bit hash (FNV-1a), so an article's composition depends only on its own id. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * Builds the full article from its hand-written spec: the article's own opening, 3-5 paragraphs of
 * its primary topic, 1-2 paragraphs per further topic, the spec's extra paragraphs and a closing paragraph, all chosen by a
 * PRNG seeded with the id (so reordering the specs never changes an article's text).
 */
export function composeArticle(spec: ArticleSpec, date: number): Article {
  const random = createRandom(hashString(spec.id));
  const [primary, ...secondary] = spec.topics;
  if (!primary) throw new Error(`${spec.id}: needs at least one topic`);

  const primaryBank = random.sample(PARAGRAPH_BANKS[primary], PARAGRAPH_BANKS[primary].length);
  const paragraphs = [spec.opening, ...primaryBank.splice(0, spec.long ? primaryBank.length : random.between(3, 5))];
  for (const topic of secondary) paragraphs.push(...random.sample(PARAGRAPH_BANKS[topic], spec.long ? 0 : random.between(1, 2)));
  paragraphs.push(...(spec.extra ?? []));
  const closing = random.pick(CLOSING_PARAGRAPHS);
  // Top up from the primary bank until the body is long enough to read as a real article.
  while (countWords([...paragraphs, closing].join(' ')) < MIN_WORDS && primaryBank.length > 0) {
    paragraphs.push(primaryBank.shift() as string);
  }
  paragraphs.push(closing);
  const content = paragraphs.join('\n\n');
  const words = countWords(content);
  if (words < MIN_WORDS || words > MAX_WORDS) throw new Error(`${spec.id}: body has ${words} words, outside ${MIN_WORDS}-${MAX_WORDS}`);

  const article: Article = {
    id: spec.id,
    headline: spec.headline,
    title: spec.title,
    ...(spec.subline !== undefined ? { subline: spec.subline } : {}),
    intro: spec.intro,
    content,
    image: `${CONTENT_IMAGES_BASE_URL}/topic-${topicSlug(primary)}.svg`,
    topic: [...spec.topics],
    date,
    url: `/articles/${spec.id}`,
    readingTime: computeReadingTime(content),
    cta: spec.cta ?? (random.chance(0.25) ? 'Read more' : 'Read article'),
    imageAlt: `Abstract illustration for the topic ${primary}`,
  };
  if (spec.surveyHandle !== undefined) article.surveyHandle = spec.surveyHandle;
  if (spec.gallery !== undefined) article.gallery = GALLERY_SETS[spec.gallery].map((image) => ({ ...image }));
  return article;
}
