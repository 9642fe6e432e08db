const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });

/** "12 March 2026" from unix seconds. */
export function formatDate(unixSeconds: number): string {
  return dateFormat.format(new Date(unixSeconds * 1000));
}

/** ISO date for `<time dateTime>`. */
export function isoDate(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().slice(0, 10);
}

/** "5 min read". */
export function formatReadingTime(minutes: number): string {
  return `${minutes} min read`;
}
