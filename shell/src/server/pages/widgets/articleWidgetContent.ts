import { CONTENT_IMAGES_BASE_URL, TOPICS, topicSlug, type Article } from '@khs/content';
import type { CompetenceCard } from './CompetenceSlider.js';

/** Cards in the competence slider of an article page. */
const COMPETENCE_CARDS = 8;

/** The article's paragraphs, as the article page renders them. */
export function articleParagraphs(article: Article): string[] {
  return article.content.split(/\n{2,}/).map((p) => p.trim()).filter((p) => p.length > 0);
}

/** First sentence of a paragraph (up to and including its first full stop, ! or ?). */
export function firstSentence(paragraph: string): string {
  const match = /^.*?[.!?](?=\s|$)/s.exec(paragraph.trim());
  return (match ? match[0] : paragraph).trim();
}

/** Number of words in a text. */
export function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** Search page link for a topic. */
export function topicSearchHref(topic: string): string {
  return `/search?q=${encodeURIComponent(topic)}`;
}

/**
 * Competence cards for the slider: the article's own topics first, then the other topics of
 * the site in their fixed order, at most COMPETENCE_CARDS.
 */
export function competenceCards(article: Article): CompetenceCard[] {
  const topics = [...new Set<string>([...article.topic, ...TOPICS])].slice(0, COMPETENCE_CARDS);
  return topics.map((topic) => ({
    title: topic,
    text: article.topic.includes(topic)
      ? `This article's topic: more articles, tips and exercises about ${topic}.`
      : `Articles, tips and exercises about ${topic}.`,
    href: topicSearchHref(topic),
    image: `${CONTENT_IMAGES_BASE_URL}/topic-${topicSlug(topic)}.svg`,
    imageAlt: '',
  }));
}
