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
  /** The file each article was read from (relative to the folder), by id: who holds the id. */
  filesById: Map<string, string>;
  /** What editors have to fix; a file with problems is left out (or its last good version kept), the others are served. */
  problems: ArticleProblem[];
}

/** One article file as read. */
export interface ArticleFileEntry {
  /** The file's path relative to the folder (`2026/x.md`). */
  file: string;
  /** Content hash of the article's text. */
  hash: string;
  /** The file's modification time (unix ms): the older of two files with one id keeps it on a first read. */
  mtimeMs: number;
  /** The article served from this file: absent when the file has problems (unless a last good version is kept). */
  article?: Article;
  /** What is wrong with the file (empty when it is valid). */
  problems: ArticleProblem[];
}

/** What one pass over the folder found, before ids are given out. */
export interface ArticleFolderFiles {
  /** Every article file, sorted by path. */
  files: ArticleFileEntry[];
  /** Set when the folder itself cannot be read. */
  folderProblem?: ArticleProblem;
}

/**
 * Gives out the ids and builds the snapshot. An id is a file name, so two files can claim one
 * (`2026/x.md` beside `x.md`): the file that held the id before (`holders`, the previous
 * snapshot's `filesById`) keeps it, so a new file never takes over a published article, whichever
 * sorts first; with no holder (a first read) the older file keeps it (then the one that sorts
 * first). The other files are refused, each with a problem naming both files.
 */
export function assembleArticleFolder(read: ArticleFolderFiles, holders: ReadonlyMap<string, string> = new Map()): ArticleFolderSnapshot {
  if (read.folderProblem) return { articles: [], articlesById: new Map(), hashesById: new Map(), filesById: new Map(), problems: [read.folderProblem] };
  const claims = new Map<string, ArticleFileEntry[]>();
  for (const entry of read.files) {
    if (!entry.article) continue;
    const claimants = claims.get(entry.article.id);
    if (claimants) claimants.push(entry);
    else claims.set(entry.article.id, [entry]);
  }
  const holderOf = new Map<string, ArticleFileEntry>();
  for (const [id, claimants] of claims) {
    const previous = claimants.find((entry) => entry.file === holders.get(id));
    holderOf.set(id, previous ?? claimants.reduce((oldest, entry) => (entry.mtimeMs < oldest.mtimeMs ? entry : oldest)));
  }

  const problems: ArticleProblem[] = [];
  const articlesById = new Map<string, Article>();
  const hashesById = new Map<string, string>();
  const filesById = new Map<string, string>();
  for (const entry of read.files) {
    problems.push(...entry.problems);
    if (!entry.article) continue;
    const { id } = entry.article;
    const holder = holderOf.get(id)!;
    if (holder !== entry) {
      problems.push({ file: entry.file, line: 1, message: `the id "${id}" is already used by ${holder.file}, which stays live: this file is refused; ids are file names and must be unique across folders, rename or remove one` });
      continue;
    }
    articlesById.set(id, entry.article);
    hashesById.set(id, entry.hash);
    filesById.set(id, entry.file);
  }
  // Newest first; equal dates fall back to id for a stable order.
  const articles = [...articlesById.values()].sort((a, b) => b.date - a.date || a.id.localeCompare(b.id));
  return { articles, articlesById, hashesById, filesById, problems };
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

  /** Reads the folder now (no history: see {@link assembleArticleFolder}). A missing folder is one problem, not an exception. */
  read(): ArticleFolderSnapshot {
    return assembleArticleFolder(this.readFiles());
  }

  /** Reads every article file now, parsing only the changed ones; ids are not given out yet. */
  readFiles(): ArticleFolderFiles {
    let files: string[];
    try {
      files = listMarkdownFiles(this.dir).sort();
    } catch (error) {
      return { files: [], folderProblem: { file: this.dir, line: 1, message: `the content folder cannot be read: ${(error as Error).message}` } };
    }
    const seen = new Set(files);
    for (const cached of this.cache.keys()) if (!seen.has(cached)) this.cache.delete(cached);
    const entries: ArticleFileEntry[] = [];
    for (const file of files) {
      const entry = this.readFile(file);
      if (!entry) continue; // removed between the listing and the read
      entries.push({ file, hash: entry.hash, mtimeMs: entry.mtimeMs, ...(entry.parsed.article ? { article: entry.parsed.article } : {}), problems: entry.parsed.problems });
    }
    return { files: entries };
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
