import type { Article, GalleryImage } from './article.js';
import { CONTENT_IMAGES_BASE_URL } from './content-paths.js';
import { listArticles, listSurveys } from './content-store.js';
import { createRandom, type Random } from './prng.js';
import { readingTimeForWordCount } from './reading-time.js';
import { TOPICS, type Topic, topicSlug } from './topics.js';
import { WORD_LIST } from './word-list.js';

/** Options of {@link generateArticles} / {@link iterateGeneratedArticles}. */
export interface GenerateArticlesOptions {
  /** PRNG seed; the same seed and count always give the same articles. Default `1`. */
  seed?: number;
}

/** Newest generated date (2026-11-15 09:00 UTC); fixed so output never depends on the clock. */
const NEWEST_DATE = Date.UTC(2026, 10, 15, 9, 0, 0) / 1000; // same as the seeded corpus
/** Generated dates are spread over the two years before {@link NEWEST_DATE}. */
const DATE_SPAN_SECONDS = 730 * 24 * 3600;

interface Sentence {
  text: string;
  words: number;
}

/** A corpus paragraph split into sentences (generated paragraphs reuse contiguous runs of them). */
type Passage = Sentence[];

/** Paragraphs of the seeded corpus grouped by topic, built once on first use. */
interface Vocabulary {
  passagesByTopic: Map<Topic, Passage[]>;
  /** Paragraphs that fit any topic (e.g. closing paragraphs shared by unrelated articles). */
  genericPassages: Passage[];
  galleries: GalleryImage[][];
  surveyHandles: string[];
}

let vocabulary: Vocabulary | undefined;

function wordCount(text: string): number {
  let count = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = text.charCodeAt(i) <= 32;
    if (!space && !inWord) count++;
    inWord = !space;
  }
  return count;
}

function toPassage(paragraph: string): Passage {
  // Split after sentence punctuation followed by whitespace; the corpus has no abbreviations with dots.
  return paragraph.split(/(?<=[.!?])\s+/).map((text) => ({ text, words: wordCount(text) }));
}

/**
 * Groups corpus paragraphs by topic. A paragraph used by several articles belongs to the topics all
 * those articles share, which recovers the topic of shared body paragraphs; when they share none
 * (closing paragraphs), it is generic.
 */
function loadVocabulary(): Vocabulary {
  if (vocabulary) return vocabulary;
  const topicsOfParagraph = new Map<string, Set<string>>();
  const galleries: GalleryImage[][] = [];
  for (const article of listArticles()) {
    for (const paragraph of article.content.split('\n\n')) {
      if (paragraph.includes('<')) continue;
      const known = topicsOfParagraph.get(paragraph);
      topicsOfParagraph.set(paragraph, known ? new Set(article.topic.filter((t) => known.has(t))) : new Set(article.topic));
    }
    if (article.gallery && !galleries.some((g) => g[0]?.src === article.gallery?.[0]?.src)) galleries.push(article.gallery);
  }
  const passagesByTopic = new Map<Topic, Passage[]>(TOPICS.map((t) => [t, []]));
  const genericPassages: Passage[] = [];
  for (const [paragraph, topics] of topicsOfParagraph) {
    const passage = toPassage(paragraph);
    if (topics.size === 0) genericPassages.push(passage);
    for (const topic of topics) passagesByTopic.get(topic as Topic)?.push(passage);
  }
  vocabulary = { passagesByTopic, genericPassages, galleries, surveyHandles: listSurveys().map((s) => s.formHandle) };
  return vocabulary;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const TITLE_TEMPLATES: ((r: Random, topic: string) => string)[] = [
  (r) => `How to ${r.pick(WORD_LIST.verbs)} ${r.pick(WORD_LIST.adjectives)} ${r.pick(WORD_LIST.nouns)}`,
  (r) => `${r.between(3, 12)} ways to ${r.pick(WORD_LIST.verbs)} ${r.pick(WORD_LIST.nouns)} in ${r.pick(WORD_LIST.contexts)}`,
  (r) => `Why ${r.pick(WORD_LIST.adjectives)} ${r.pick(WORD_LIST.nouns)} matter for ${r.pick(WORD_LIST.audiences)}`,
  (r, topic) => `${topic} for ${r.pick(WORD_LIST.audiences)}: ${r.pick(WORD_LIST.adjectives)} ${r.pick(WORD_LIST.nouns)}`,
  (r) => `The ${r.pick(WORD_LIST.adjectives)} guide to ${r.pick(WORD_LIST.nouns)}`,
  (r, topic) => `${capitalise(r.pick(WORD_LIST.nouns))} and ${topic.toLowerCase()}: what ${r.pick(WORD_LIST.audiences)} should know`,
];

const SYNTHETIC_SENTENCES: ((r: Random, topic: string) => string)[] = [
  (r) => `For ${r.pick(WORD_LIST.audiences)}, ${r.pick(WORD_LIST.adjectives)} ${r.pick(WORD_LIST.nouns)} are often the first place to ${r.pick(WORD_LIST.verbs)} the way work gets done.`,
  (r, topic) => `In ${r.pick(WORD_LIST.contexts)}, ${topic.toLowerCase()} depends on ${r.pick(WORD_LIST.adjectives)} ${r.pick(WORD_LIST.nouns)} more than on any single tool.`,
  (r) => `Teams that ${r.pick(WORD_LIST.verbs)} their ${r.pick(WORD_LIST.nouns)} regularly report fewer surprises and calmer ${r.pick(WORD_LIST.nouns)}.`,
  (r) => `Some practitioners borrow the idea of ${r.pick(WORD_LIST.rareWords)} to ${r.pick(WORD_LIST.verbs)} ${r.pick(WORD_LIST.nouns)} step by step.`,
  (r) => `A ${r.pick(WORD_LIST.adjectives)} first step is to ${r.pick(WORD_LIST.verbs)} ${r.pick(WORD_LIST.nouns)} together with ${r.pick(WORD_LIST.audiences)}.`,
];

/** Multiplier coprime to `count`, used to scatter dates so generated order is not date order. */
function coprimeStride(count: number): number {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  let stride = Math.max(1, Math.floor(count * 0.618)) | 1;
  while (count > 1 && gcd(stride, count) !== 1) stride += 2;
  return stride;
}

const FALLBACK_PASSAGE: Passage = [{ text: 'Small, consistent steps are more likely to stick than an ambitious plan.', words: 12 }];

function pickPassage(r: Random, vocab: Vocabulary, topics: Topic[]): Passage {
  const pool = r.chance(0.1) ? vocab.genericPassages : vocab.passagesByTopic.get(r.pick(topics));
  return pool && pool.length > 0 ? r.pick(pool) : FALLBACK_PASSAGE;
}

function generateOne(index: number, count: number, seed: number, stride: number, vocab: Vocabulary): Article {
  // One PRNG per article (seed and index mixed): article i has the same text whatever `count` is;
  // only its date slot depends on count.
  const r = createRandom(Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35));
  const topics = r.sample(TOPICS, r.pick([1, 1, 2, 2, 2, 3])) as Topic[];
  const primary = topics[0] as Topic;

  const paragraphs: string[] = [];
  let words = 0;
  const paragraphCount = r.between(3, 6);
  for (let p = 0; p < paragraphCount; p++) {
    // A contiguous run of 2-5 sentences of one corpus paragraph reads coherently; one synthetic
    // sentence from the word list is sometimes added to widen the vocabulary.
    const passage = pickPassage(r, vocab, topics);
    const length = Math.min(passage.length, r.between(2, 5));
    const start = r.int(passage.length - length + 1);
    const sentences: string[] = [];
    for (const sentence of passage.slice(start, start + length)) {
      sentences.push(sentence.text);
      words += sentence.words;
    }
    if (r.chance(0.35)) {
      const text = r.pick(SYNTHETIC_SENTENCES)(r, primary);
      sentences.splice(r.int(sentences.length + 1), 0, text);
      words += wordCount(text);
    }
    paragraphs.push(sentences.join(' '));
  }
  const content = paragraphs.join('\n\n');

  const id = `gen-${seed}-${index + 1}`;
  const step = Math.max(1, Math.floor(DATE_SPAN_SECONDS / count));
  // Distinct dates: slot (index * stride) mod count is a permutation; jitter stays inside the slot.
  const slot = count > 1 ? (index * stride) % count : 0;
  const date = NEWEST_DATE - slot * step - r.int(step);

  const article: Article = {
    id,
    headline: `${capitalise(r.pick(WORD_LIST.adjectives))} ${r.pick(WORD_LIST.nouns)} for ${r.pick(WORD_LIST.audiences)}`,
    title: r.pick(TITLE_TEMPLATES)(r, primary),
    intro: `${r.pick(SYNTHETIC_SENTENCES)(r, primary)} ${r.pick(pickPassage(r, vocab, topics)).text}`,
    content,
    image: `${CONTENT_IMAGES_BASE_URL}/topic-${topicSlug(primary)}.svg`,
    topic: topics,
    date,
    url: `/articles/${id}`,
    readingTime: readingTimeForWordCount(words),
    cta: r.chance(0.8) ? 'Read article' : 'Read more',
    imageAlt: `Abstract illustration for the topic ${primary}`,
  };
  if (r.chance(0.6)) article.subline = `${capitalise(r.pick(WORD_LIST.adjectives))} ideas for ${r.pick(WORD_LIST.contexts)}`;
  if (vocab.surveyHandles.length > 0 && r.chance(1 / 3)) article.surveyHandle = r.pick(vocab.surveyHandles);
  if (vocab.galleries.length > 0 && r.chance(0.1)) article.gallery = r.pick(vocab.galleries).map((g) => ({ ...g }));
  return article;
}

/**
 * Lazily yields `count` generated articles (ids `gen-<seed>-1` .. `gen-<seed>-<count>`), one at a
 * time, so callers can stream 100k articles without holding them all. Same rules as the seeded
 * corpus: topics from {@link TOPICS}, `url` = `/articles/<id>`, `readingTime` from the word count,
 * distinct dates within the two years before 2026-11-15, survey handles and galleries that resolve.
 * Text is assembled from runs of the seeded corpus' sentences plus {@link WORD_LIST}.
 */
export function* iterateGeneratedArticles(count: number, options: GenerateArticlesOptions = {}): Generator<Article> {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`count must be a non-negative integer, got ${count}`);
  const seed = options.seed ?? 1;
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  const vocab = loadVocabulary();
  const stride = coprimeStride(count);
  for (let index = 0; index < count; index++) yield generateOne(index, count, seed, stride, vocab);
}

/**
 * Generates `count` realistic-looking articles for benchmarks (10k/100k). Deterministic: the same
 * `count` and `seed` (default 1) always give identical output. See {@link iterateGeneratedArticles}
 * for the rules and a streaming variant.
 */
export function generateArticles(count: number, options: GenerateArticlesOptions = {}): Article[] {
  return Array.from(iterateGeneratedArticles(count, options));
}
