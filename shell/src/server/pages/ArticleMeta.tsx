import { formatDate, formatReadingTime, isoDate } from './format.js';

export interface ArticleMetaProps {
  /** Publication date, unix seconds. */
  date: number;
  /** Reading time in minutes. */
  readingTime: number;
  /** Class of the paragraph (the teaser and the article page style it differently). */
  className: string;
}

/** "12 March 2026, 5 min read". */
export function ArticleMeta({ date, readingTime, className }: ArticleMetaProps) {
  return (
    <p className={className}>
      <time dateTime={isoDate(date)}>{formatDate(date)}</time>, {formatReadingTime(readingTime)}
    </p>
  );
}
