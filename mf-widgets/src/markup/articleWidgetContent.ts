import type { CompetenceCard } from './CompetenceSlider.js';
import type { GalleryPicture } from './Gallery.js';

/**
 * What the article widgets are made from: the article (server-only island props, never written
 * into the page) and the site's topics. The shell's article renderer hands them over.
 */
export interface WidgetArticle {
  title: string;
  headline?: string;
  /** Site URL of the article. */
  url: string;
  intro: string;
  /** Paragraphs separated by blank lines. */
  content: string;
  /** Reading time in minutes. */
  readingTime: number;
  /** Site URL of the article image (the video poster). */
  image: string;
  topic: string[];
  gallery?: GalleryPicture[];
}

/** A topic of the site: its name and image (the competence slider's cards). */
export interface SiteTopic {
  name: string;
  image: string;
}

/** Cards in the competence slider of an article page. */
const COMPETENCE_CARDS = 8;

/** The article's paragraphs, as the article page renders them. */
export function articleParagraphs(article: Pick<WidgetArticle, 'content'>): string[] {
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
export function competenceCards(article: Pick<WidgetArticle, 'topic'>, siteTopics: SiteTopic[]): CompetenceCard[] {
  const images = new Map(siteTopics.map((topic) => [topic.name, topic.image]));
  const topics = [...new Set<string>([...article.topic, ...siteTopics.map((topic) => topic.name)])].slice(0, COMPETENCE_CARDS);
  return topics.map((topic) => ({
    title: topic,
    text: article.topic.includes(topic)
      ? `This article's topic: more articles, tips and exercises about ${topic}.`
      : `Articles, tips and exercises about ${topic}.`,
    href: topicSearchHref(topic),
    image: images.get(topic) ?? '',
    imageAlt: '',
  }));
}
