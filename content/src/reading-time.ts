/** Reading speed used for `readingTime`, in words per minute. */
export const WORDS_PER_MINUTE = 200;

/** Number of whitespace-separated words in `text`. */
export function countWords(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed.split(/\s+/).length;
}

/**
 * Reading time in whole minutes for `wordCount` words at {@link WORDS_PER_MINUTE}, rounded to the
 * nearest minute and never below 1 (a teaser saying "0 min" reads as broken).
 */
export function readingTimeForWordCount(wordCount: number): number {
  return Math.max(1, Math.round(wordCount / WORDS_PER_MINUTE));
}

/** Reading time in minutes of an article body (`content`). */
export function computeReadingTime(content: string): number {
  return readingTimeForWordCount(countWords(content));
}
