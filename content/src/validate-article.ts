import type { Article, GalleryImage } from './article.js';
import { ContentValidationError } from './content-validation-error.js';
import { isTopic, TOPICS } from './topics.js';

/** Ids are used verbatim in URLs and as map keys, so they are restricted to a URL-safe alphabet. */
const URL_SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

type Fields = Record<string, unknown>;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? `the string ${JSON.stringify(value.slice(0, 40))}` : `a ${typeof value}`;
}

function subjectOf(x: Fields): string {
  return typeof x.id === 'string' ? `Invalid article "${x.id}"` : 'Invalid article';
}

function requireString(x: Fields, field: string, subject: string, options: { allowEmpty?: boolean } = {}): string {
  const value = x[field];
  if (typeof value !== 'string') {
    throw new ContentValidationError(subject, field, `must be a string, got ${value === undefined ? 'nothing' : describe(value)}`);
  }
  if (!options.allowEmpty && value.trim() === '') {
    throw new ContentValidationError(subject, field, 'must not be empty');
  }
  return value;
}

function requirePositiveInteger(x: Fields, field: string, subject: string): number {
  const value = x[field];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new ContentValidationError(subject, field, `must be a positive integer, got ${describe(value)}${typeof value === 'number' ? ` ${value}` : ''}`);
  }
  return value;
}

function validateGallery(value: unknown, subject: string): GalleryImage[] {
  if (!Array.isArray(value)) throw new ContentValidationError(subject, 'gallery', `must be an array, got ${describe(value)}`);
  return value.map((entry: unknown, index) => {
    const field = `gallery[${index}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      throw new ContentValidationError(subject, field, `must be an object, got ${describe(entry)}`);
    }
    const image = entry as Fields;
    for (const key of ['src', 'alt', 'caption'] as const) {
      if (typeof image[key] !== 'string' || (image[key] as string).trim() === '') {
        throw new ContentValidationError(subject, `${field}.${key}`, `must be a non-empty string, got ${describe(image[key])}`);
      }
    }
    return { src: image.src as string, alt: image.alt as string, caption: image.caption as string };
  });
}

/**
 * Checks that `x` is a well-formed {@link Article} and returns it as a fresh, typed object
 * (unknown extra fields are dropped). Rules beyond the types:
 * - `id` is URL-safe and `url` is `/articles/<id>`;
 * - `topic` holds 1-3 distinct topics of the fixed list ({@link TOPICS});
 * - `date` is a positive integer (unix seconds) and `readingTime` a positive integer (minutes);
 * - `updated`, when present, is unix seconds not before `date`;
 * - `subline`, `surveyHandle` and `gallery` are optional, but when present must be well typed.
 *
 * @throws {ContentValidationError} naming the first bad field.
 */
export function validateArticle(x: unknown): Article {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) {
    throw new ContentValidationError('Invalid article', '(root)', `must be an object, got ${describe(x)}`);
  }
  const fields = x as Fields;
  const subject = subjectOf(fields);

  const id = requireString(fields, 'id', subject);
  if (!URL_SAFE_ID.test(id)) throw new ContentValidationError(subject, 'id', 'must contain only letters, digits, "-" and "_"');
  const headline = requireString(fields, 'headline', subject);
  const title = requireString(fields, 'title', subject);
  const intro = requireString(fields, 'intro', subject);
  const content = requireString(fields, 'content', subject);
  const image = requireString(fields, 'image', subject);
  const imageAlt = requireString(fields, 'imageAlt', subject);
  const cta = requireString(fields, 'cta', subject);
  const url = requireString(fields, 'url', subject);
  if (url !== `/articles/${id}`) throw new ContentValidationError(subject, 'url', `must be "/articles/${id}", got ${JSON.stringify(url)}`);

  const topic = fields.topic;
  if (!Array.isArray(topic)) throw new ContentValidationError(subject, 'topic', `must be an array, got ${describe(topic)}`);
  if (topic.length < 1 || topic.length > 3) throw new ContentValidationError(subject, 'topic', `must hold 1 to 3 topics, got ${topic.length}`);
  topic.forEach((t: unknown, index) => {
    if (!isTopic(t)) throw new ContentValidationError(subject, `topic[${index}]`, `must be one of ${TOPICS.join(', ')}; got ${describe(t)}`);
  });
  if (new Set(topic).size !== topic.length) throw new ContentValidationError(subject, 'topic', 'must not repeat a topic');

  const date = requirePositiveInteger(fields, 'date', subject);
  const readingTime = requirePositiveInteger(fields, 'readingTime', subject);

  const article: Article = { id, headline, title, intro, content, image, topic: [...(topic as string[])], date, url, readingTime, cta, imageAlt };
  if (fields.subline !== undefined) article.subline = requireString(fields, 'subline', subject);
  if (fields.surveyHandle !== undefined) article.surveyHandle = requireString(fields, 'surveyHandle', subject);
  if (fields.gallery !== undefined) article.gallery = validateGallery(fields.gallery, subject);
  if (fields.bodyHtml !== undefined) article.bodyHtml = requireString(fields, 'bodyHtml', subject);
  if (fields.draft !== undefined) {
    if (typeof fields.draft !== 'boolean') throw new ContentValidationError(subject, 'draft', `must be true or false, got ${describe(fields.draft)}`);
    article.draft = fields.draft;
  }
  if (fields.updated !== undefined) {
    const updated = requirePositiveInteger(fields, 'updated', subject);
    if (updated < date) throw new ContentValidationError(subject, 'updated', `must not be before date (${date}), got ${updated}`);
    article.updated = updated;
  }
  if (fields.lastModified !== undefined) {
    if (typeof fields.lastModified !== 'number' || !Number.isFinite(fields.lastModified)) throw new ContentValidationError(subject, 'lastModified', 'must be unix milliseconds');
    article.lastModified = fields.lastModified;
  }
  return article;
}
