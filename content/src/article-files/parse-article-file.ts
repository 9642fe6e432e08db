import { isMap, LineCounter, parseDocument, type Document } from 'yaml';
import type { Article, GalleryImage } from '../article.js';
import path from 'node:path';
import { ARTICLE_IMAGE_EXTENSIONS, articleImageUrl, CONTENT_IMAGES_BASE_URL } from '../content-paths.js';
import { computeReadingTime } from '../reading-time.js';
import { isTopic, TOPICS } from '../topics.js';
import { renderArticleBody } from './markdown.js';

/** One thing an editor has to fix: the file, the line (1-based) and what is expected there. */
export interface ArticleProblem {
  /** The file's path as the editor knows it (relative to the content folder). */
  file: string;
  line: number;
  /** The column (1-based), where the check knows it (YAML syntax errors). */
  column?: number;
  /** The front-matter field, when the problem is in one (`gallery[0].alt`). */
  field?: string;
  message: string;
  /** True when the file was valid before this edit and its last good version stays live until it is fixed (the live store). */
  keptLastGood?: boolean;
}

/** Formats a problem the way editors and compilers expect: `articles/x.md:7: topic[1]: …` (`x.md:7:12: …` with a column). */
export function formatArticleProblem(problem: ArticleProblem): string {
  return `${problem.file}:${problem.line}:${problem.column === undefined ? '' : `${problem.column}:`} ${problem.field ? `${problem.field}: ` : ''}${problem.message}`;
}

/**
 * A log line of a running site for a problem: what visitors get (the article left out, or its last
 * good version kept) and the problem as {@link formatArticleProblem} writes it.
 */
export function formatLiveArticleProblem(problem: ArticleProblem): string {
  return `content problem (${problem.keptLastGood ? 'its last good version stays live' : 'article left out'}): ${formatArticleProblem(problem)}`;
}

/** What the checks of one file need to know about the rest of the content. */
export interface ArticleFileContext {
  /** True when a survey with this form handle exists. */
  surveyExists(handle: string): boolean;
  /** True when a `/content-images/…` or `/content-article-images/…` URL names a file that is there. */
  imageExists(url: string): boolean;
}

/** The front-matter keys, as named in the article data. */
export const FRONT_MATTER_KEYS = ['headline', 'title', 'subline', 'intro', 'topic', 'date', 'updated', 'image', 'imageAlt', 'cta', 'surveyHandle', 'gallery', 'draft'] as const;

/** Ids are used verbatim in URLs and as keys of watchlists and survey results. */
export const ARTICLE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;

/**
 * Reads a front-matter `date`: `2025-03-14` (midnight UTC) or an ISO 8601 time with its zone
 * (`2025-03-14T09:30:00Z`, `2025-03-14T09:30:00+01:00`). Returns unix seconds, or undefined when it
 * is not a real date (`2025-02-30` is not).
 */
export function parseArticleDate(value: string): number | undefined {
  const match = ISO_DATE.exec(value.trim());
  if (!match) return undefined;
  const [, year, month, day, hour, , , zone] = match;
  const ms = Date.parse(hour === undefined ? `${year}-${month}-${day}T00:00:00Z` : value.trim().replace(' ', 'T'));
  if (Number.isNaN(ms)) return undefined;
  // Date.parse rolls 2025-02-30 over to March: the calendar day must survive the round trip.
  const check = new Date(ms + (zone && zone !== 'Z' ? zoneOffsetMs(zone) : 0));
  if (check.getUTCFullYear() !== Number(year) || check.getUTCMonth() + 1 !== Number(month) || check.getUTCDate() !== Number(day)) return undefined;
  return Math.floor(ms / 1000);
}

function zoneOffsetMs(zone: string): number {
  const sign = zone.startsWith('-') ? -1 : 1;
  const [h, m] = zone.slice(1).split(':').map(Number);
  return sign * ((h ?? 0) * 60 + (m ?? 0)) * 60_000;
}

/** Writes unix seconds as the front matter's `date` (an ISO 8601 UTC time, seconds kept). */
export function formatArticleDate(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace('.000Z', 'Z');
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return typeof value === 'object' ? 'a mapping' : `${typeof value} ${String(value)}`;
}

/** The article file split into its front matter and Markdown body. */
interface SplitFile {
  frontMatter: string;
  /** Line of the file on which the front matter's first line is. */
  frontMatterLine: number;
  body: string;
  /** Line of the file on which the body's first line is. */
  bodyLine: number;
}

function splitFile(text: string): SplitFile | undefined {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (!normalized.startsWith('---\n')) return undefined;
  const end = normalized.indexOf('\n---', 3);
  if (end === -1) return undefined;
  const afterFence = normalized.indexOf('\n', end + 4);
  const frontMatter = normalized.slice(4, end + 1);
  const body = afterFence === -1 ? '' : normalized.slice(afterFence + 1);
  const frontMatterLines = frontMatter.split('\n').length - 1;
  return { frontMatter, frontMatterLine: 2, body, bodyLine: 2 + frontMatterLines + 1 };
}

/** True for an image written relative to the article's file (`./cover.png`, `img/a.png`): no scheme, no leading `/`. */
function isRelativeImage(src: string): boolean {
  return !src.startsWith('/') && !/^[a-z][a-z0-9+.-]*:/i.test(src);
}

/** Markdown percent-encodes a body image's URL (`my%20chart.png`); the file is `my chart.png`. */
function safeDecode(src: string): string {
  try {
    return decodeURI(src);
  } catch {
    return src;
  }
}

/**
 * The site URL of an image written relative to the article file `file` (a path relative to the
 * article folder), or undefined when it points outside the folder (`../../etc/passwd`).
 */
function relativeImageUrl(file: string, written: string): { url: string; relativePath: string } | undefined {
  if (/[\\\0]/.test(written)) return undefined;
  const relativePath = path.posix.normalize(path.posix.join(path.posix.dirname(file), written.split(/[?#]/)[0]!));
  if (relativePath === '..' || relativePath.startsWith('../') || relativePath.startsWith('/') || relativePath === '.') return undefined;
  return { url: articleImageUrl(relativePath), relativePath };
}

/** The result of reading one article file: the article, or what is wrong with it (never both). */
export type ParsedArticleFile = { article: Article; problems: [] } | { article?: undefined; problems: ArticleProblem[] };

/**
 * Reads one article file: YAML front matter between `---` lines, then the Markdown body. The id is the
 * file name without `.md`; `url`, `readingTime` and the body's HTML and text are derived. Every
 * problem is reported with its line, so an editor fixes all of them in one go.
 *
 * @param file the path shown in problems (relative to the content folder)
 * @param id the article id (the file's name without `.md`)
 * @param lastModified the file's modification time (unix ms)
 */
export function parseArticleFile(file: string, id: string, text: string, lastModified: number, context: ArticleFileContext): ParsedArticleFile {
  const problems: ArticleProblem[] = [];
  const problem = (line: number, message: string, field?: string, column?: number) => problems.push({ file, line, ...(column === undefined ? {} : { column }), message, ...(field ? { field } : {}) });
  if (!ARTICLE_ID_PATTERN.test(id)) problem(1, `the file name is the article's id and must use only letters, digits, "-" and "_" (got "${id}")`);
  const split = splitFile(text);
  if (!split) {
    problem(1, 'expected front matter first: a line "---", the fields (headline: …), a line "---", then the Markdown body');
    return { problems };
  }
  const lineCounter = new LineCounter();
  // Plain messages (no code frame); the position comes from the error's offset, which is always set.
  const document: Document = parseDocument(split.frontMatter, { lineCounter, uniqueKeys: true, prettyErrors: false });
  for (const error of document.errors) {
    const { line, col } = lineCounter.linePos(error.pos[0]);
    problem(split.frontMatterLine + line - 1, `the front matter is not valid YAML: ${error.message.split('\n')[0]}`, undefined, col);
  }
  if (document.errors.length > 0) return { problems };
  if (!isMap(document.contents)) {
    problem(split.frontMatterLine, 'the front matter must be fields like "headline: …", one per line');
    return { problems };
  }
  const fields = document.toJS() as Record<string, unknown>;
  // Line of a field (or of an element inside it); a missing field points at the front matter's start.
  const lineOf = (path: (string | number)[]): number => {
    for (let length = path.length; length > 0; length--) {
      const node = document.getIn(path.slice(0, length), true) as { range?: [number, number, number] } | undefined;
      const pair = length === 1 ? (document.contents as { items: { key: { value?: unknown; range?: [number] } }[] }).items.find((item) => item.key?.value === path[0]) : undefined;
      const offset = pair?.key?.range?.[0] ?? node?.range?.[0];
      if (offset !== undefined) return split.frontMatterLine + lineCounter.linePos(offset).line - 1;
    }
    return 1;
  };

  for (const key of Object.keys(fields)) {
    if (!(FRONT_MATTER_KEYS as readonly string[]).includes(key)) problem(lineOf([key]), `unknown field; expected one of ${FRONT_MATTER_KEYS.join(', ')}`, key);
  }
  const requireText = (key: string, what = 'a text'): string | undefined => {
    const value = fields[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    problem(lineOf([key]), value === undefined ? `missing: expected ${what}` : `expected ${what}, got ${describe(value)}`, key);
    return undefined;
  };
  const headline = requireText('headline');
  const title = requireText('title');
  const intro = requireText('intro');
  const cta = requireText('cta');
  const imageAsWritten = requireText('image', `an image next to the article (./cover.png) or under ${CONTENT_IMAGES_BASE_URL}/`);
  const imageAlt = requireText('imageAlt', 'alt text describing the image (missing alt text)');
  const image = imageAsWritten === undefined ? undefined : checkImage(imageAsWritten, lineOf(['image']), 'image');
  let subline: string | undefined;
  if (fields.subline !== undefined) subline = requireText('subline');

  const topicValue = fields.topic;
  let topic: string[] | undefined;
  if (!Array.isArray(topicValue)) {
    problem(lineOf(['topic']), topicValue === undefined ? 'missing: expected a list of 1 to 3 topics' : `expected a list of 1 to 3 topics, got ${describe(topicValue)}`, 'topic');
  } else if (topicValue.length < 1 || topicValue.length > 3) {
    problem(lineOf(['topic']), `expected 1 to 3 topics, got ${topicValue.length}`, 'topic');
  } else {
    topicValue.forEach((value: unknown, index) => {
      if (!isTopic(value)) problem(lineOf(['topic', index]), `unknown topic ${describe(value)}; expected one of ${TOPICS.join(', ')}`, `topic[${index}]`);
    });
    if (new Set(topicValue).size !== topicValue.length) problem(lineOf(['topic']), 'a topic is listed twice', 'topic');
    topic = topicValue as string[];
  }

  const readDate = (key: 'date' | 'updated'): number | undefined => {
    const value = fields[key];
    const parsed = typeof value === 'string' ? parseArticleDate(value) : undefined;
    if (parsed === undefined) {
      problem(
        lineOf([key]),
        `${value === undefined ? 'missing' : `${describe(value)} is not a date`}: expected YYYY-MM-DD or an ISO 8601 time with its zone, e.g. 2025-03-14 or 2025-03-14T09:30:00Z`,
        key,
      );
    }
    return parsed;
  };
  const date = readDate('date');
  // Optional: when the article last changed in a way worth telling readers and search engines.
  const updated = fields.updated === undefined ? undefined : readDate('updated');
  if (date !== undefined && updated !== undefined && updated < date) {
    problem(lineOf(['updated']), `${describe(fields.updated)} is before the date (${String(fields.date)}): an article cannot change before it is published`, 'updated');
  }

  let surveyHandle: string | undefined;
  if (fields.surveyHandle !== undefined) {
    surveyHandle = requireText('surveyHandle', 'the form handle of a survey');
    if (surveyHandle !== undefined && !context.surveyExists(surveyHandle)) {
      problem(lineOf(['surveyHandle']), `no survey has the form handle "${surveyHandle}" (surveys are in data/surveys.json)`, 'surveyHandle');
    }
  }

  let gallery: GalleryImage[] | undefined;
  if (fields.gallery !== undefined) {
    if (!Array.isArray(fields.gallery) || fields.gallery.length === 0) {
      problem(lineOf(['gallery']), `expected a list of images (src, alt, caption), got ${describe(fields.gallery)}`, 'gallery');
    } else {
      gallery = [];
      fields.gallery.forEach((entry: unknown, index) => {
        const at = `gallery[${index}]`;
        if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
          problem(lineOf(['gallery', index]), `expected src, alt and caption, got ${describe(entry)}`, at);
          return;
        }
        const picture = entry as Record<string, unknown>;
        const texts: Partial<GalleryImage> = {};
        for (const key of ['src', 'alt', 'caption'] as const) {
          const value = picture[key];
          if (typeof value === 'string' && value.trim() !== '') texts[key] = value.trim();
          else problem(lineOf(['gallery', index, key]), `${key === 'alt' ? 'missing alt text: expected a text describing the image' : `expected a text`}${value === undefined ? '' : `, got ${describe(value)}`}`, `${at}.${key}`);
        }
        for (const key of Object.keys(picture)) {
          if (!['src', 'alt', 'caption'].includes(key)) problem(lineOf(['gallery', index, key]), 'unknown field; expected src, alt, caption', `${at}.${key}`);
        }
        const src = texts.src === undefined ? undefined : checkImage(texts.src, lineOf(['gallery', index, 'src']), `${at}.src`);
        if (src && texts.alt && texts.caption) gallery?.push({ src, alt: texts.alt, caption: texts.caption });
      });
    }
  }

  let draft = false;
  if (fields.draft !== undefined) {
    if (typeof fields.draft === 'boolean') draft = fields.draft;
    else problem(lineOf(['draft']), `expected true or false, got ${describe(fields.draft)}`, 'draft');
  }

  const body = renderArticleBody(split.body, { imageUrl: (src) => (isRelativeImage(src) ? relativeImageUrl(file, safeDecode(src))?.url : undefined) });
  if (body.text.trim() === '') problem(split.bodyLine, 'the article has no body: write its text in Markdown after the closing "---"');
  for (const picture of body.images) {
    const line = split.bodyLine + picture.line - 1;
    if (picture.alt.trim() === '') problem(line, `missing alt text for the image ${picture.src}: write ![what the image shows](${picture.src})`);
    if (picture.src.startsWith('/') || isRelativeImage(picture.src)) checkImage(isRelativeImage(picture.src) ? safeDecode(picture.src) : picture.src, line);
    else if (!/^https:\/\//.test(picture.src)) problem(line, `image ${describe(picture.src)}: expected an image next to the article (./chart.png), ${CONTENT_IMAGES_BASE_URL}/<file> or an https:// URL`);
  }

  /** Checks an image as written and returns the site URL it stands for (undefined after a problem). */
  function checkImage(written: string, line: number, field?: string): string | undefined {
    if (isRelativeImage(written)) {
      const resolved = relativeImageUrl(file, written);
      if (!resolved) {
        problem(line, `the image ${written} is outside the content folder: keep an article's images next to it (./cover.png) or in a folder below it`, field);
        return undefined;
      }
      if (!(ARTICLE_IMAGE_EXTENSIONS as readonly string[]).includes(path.posix.extname(resolved.relativePath).toLowerCase())) {
        problem(line, `the image ${written} is not an image file: expected one of ${ARTICLE_IMAGE_EXTENSIONS.join(', ')}`, field);
        return undefined;
      }
      if (!context.imageExists(resolved.url)) {
        problem(line, `the image ${written} is not there (it is looked for next to this file, at ${resolved.relativePath})`, field);
        return undefined;
      }
      return resolved.url;
    }
    if (!written.startsWith(`${CONTENT_IMAGES_BASE_URL}/`)) problem(line, `expected an image next to the article (./cover.png) or under ${CONTENT_IMAGES_BASE_URL}/, got ${describe(written)}`, field);
    else if (!context.imageExists(written)) problem(line, `the image ${written} is not there (images live in content/images/)`, field);
    else return written;
    return undefined;
  }

  if (problems.length > 0) return { problems };
  const article: Article = {
    id,
    headline: headline!,
    title: title!,
    intro: intro!,
    content: body.text,
    image: image!,
    imageAlt: imageAlt!,
    topic: topic!,
    date: date!,
    url: `/articles/${id}`,
    readingTime: computeReadingTime(body.text),
    cta: cta!,
    bodyHtml: body.html,
    draft,
    lastModified,
  };
  if (subline !== undefined) article.subline = subline;
  if (updated !== undefined) article.updated = updated;
  if (surveyHandle !== undefined) article.surveyHandle = surveyHandle;
  if (gallery !== undefined) article.gallery = gallery;
  return { article, problems: [] };
}
