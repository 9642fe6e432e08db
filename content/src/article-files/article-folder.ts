import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Article } from '../article.js';
import { articleImagePathOf, CONTENT_IMAGES_BASE_URL } from '../content-paths.js';
import { type ArticleFileContext, type ArticleProblem, parseArticleFile } from './parse-article-file.js';

/** Everything read from an article folder: the valid articles (drafts and scheduled ones too) and the problems. */
export interface ArticleFolderSnapshot {
  /** Every valid article, newest first (drafts and future-dated ones included: see {@link isPublicArticle}). */
  articles: Article[];
  articlesById: Map<string, Article>;
  /** Content hash of each valid article's file, by id (what the search indexer compares). */
  hashesById: Map<string, string>;
  /** What editors have to fix; a file with problems is left out, the others are served. */
  problems: ArticleProblem[];
}

/**
 * True when visitors may see the article: not a draft and its date has come.
 *
 * @param nowMs the current time (unix ms); default `Date.now()`
 */
export function isPublicArticle(article: Article, nowMs: number = Date.now()): boolean {
  return article.draft !== true && article.date * 1000 <= nowMs;
}

/** Settings of {@link ArticleFolderReader}. */
export interface ArticleFolderOptions {
  /** Form handles of the existing surveys. */
  surveyHandles: ReadonlySet<string>;
  /** Folder served at `/content-images/` (images are checked against it). */
  imagesDir: string;
}

interface CachedFile {
  mtimeMs: number;
  size: number;
  hash: string;
  parsed: ReturnType<typeof parseArticleFile>;
}

function listMarkdownFiles(dir: string, relative = ''): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(path.join(dir, relative), { withFileTypes: true })) {
    // Hidden files and editors' temporary copies (.#x.md, x.md~) are not articles.
    if (entry.name.startsWith('.')) continue;
    const child = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...listMarkdownFiles(dir, child));
    else if (entry.isFile() && entry.name.endsWith('.md')) files.push(child);
  }
  return files;
}

/**
 * Reads an article folder (`<id>.md` files, sub-folders allowed) again and again, parsing only the
 * files whose size or modification time changed since the last read, so a re-read of a 10k-file
 * folder after one save costs one parse.
 */
export class ArticleFolderReader {
  private readonly cache = new Map<string, CachedFile>();
  private readonly context: ArticleFileContext;

  constructor(
    /** Absolute path of the folder. */
    readonly dir: string,
    options: ArticleFolderOptions,
  ) {
    this.context = {
      surveyExists: (handle) => options.surveyHandles.has(handle),
      imageExists: (url) => {
        const nextToArticles = articleImagePathOf(url);
        if (nextToArticles !== undefined) return isFileInside(dir, nextToArticles);
        const relative = decodeURIComponent(url.slice(CONTENT_IMAGES_BASE_URL.length + 1).split(/[?#]/)[0] ?? '');
        const file = path.resolve(options.imagesDir, relative);
        return file.startsWith(path.resolve(options.imagesDir) + path.sep) && existsSync(file);
      },
    };
  }

  /** Reads the folder now. A missing folder is one problem, not an exception. */
  read(): ArticleFolderSnapshot {
    const problems: ArticleProblem[] = [];
    let files: string[];
    try {
      files = listMarkdownFiles(this.dir).sort();
    } catch (error) {
      return { articles: [], articlesById: new Map(), hashesById: new Map(), problems: [{ file: this.dir, line: 1, message: `the content folder cannot be read: ${(error as Error).message}` }] };
    }
    const seen = new Set(files);
    for (const cached of this.cache.keys()) if (!seen.has(cached)) this.cache.delete(cached);

    const articlesById = new Map<string, Article>();
    const hashesById = new Map<string, string>();
    const fileOfId = new Map<string, string>();
    for (const file of files) {
      const entry = this.readFile(file);
      if (!entry) continue; // removed between the listing and the read
      if (!entry.parsed.article) {
        problems.push(...entry.parsed.problems);
        continue;
      }
      const { article } = entry.parsed;
      const earlier = fileOfId.get(article.id);
      if (earlier !== undefined) {
        problems.push({ file, line: 1, message: `the id "${article.id}" is already used by ${earlier}: ids are file names and must be unique across folders; rename or remove one` });
        continue;
      }
      fileOfId.set(article.id, file);
      articlesById.set(article.id, article);
      hashesById.set(article.id, entry.hash);
    }
    // Newest first; equal dates fall back to id for a stable order.
    const articles = [...articlesById.values()].sort((a, b) => b.date - a.date || a.id.localeCompare(b.id));
    return { articles, articlesById, hashesById, problems };
  }

  private readFile(file: string): CachedFile | undefined {
    const absolute = path.join(this.dir, file);
    let stats;
    try {
      stats = statSync(absolute);
    } catch {
      return undefined;
    }
    const cached = this.cache.get(file);
    // A file with problems is read again each time: an image it names may have been added since.
    if (cached?.parsed.article && cached.mtimeMs === stats.mtimeMs && cached.size === stats.size) return cached;
    let text: string;
    try {
      text = readFileSync(absolute, 'utf8');
    } catch {
      return undefined;
    }
    const id = path.basename(file, '.md');
    const entry: CachedFile = {
      mtimeMs: stats.mtimeMs,
      size: stats.size,
      hash: createHash('sha256').update(text).digest('base64url').slice(0, 22),
      parsed: parseArticleFile(file, id, text, Math.round(stats.mtimeMs), this.context),
    };
    if (entry.parsed.article) deepFreeze(entry.parsed.article);
    this.cache.set(file, entry);
    return entry;
  }
}

/** True when `relative` names a file inside `dir` (symbolic links followed: one leading out is refused). */
function isFileInside(dir: string, relative: string): boolean {
  try {
    const root = realpathSync(dir);
    const file = realpathSync(path.resolve(dir, relative));
    return file.startsWith(root + path.sep) && statSync(file).isFile();
  } catch {
    return false;
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const nested of Object.values(value)) deepFreeze(nested);
  }
  return value;
}
