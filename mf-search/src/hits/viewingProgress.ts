/** Progress of the hit list: hits loaded out of all hits. */
export interface HitListProgress {
  loaded: number;
  total: number;
  /** Share loaded, 0..1. */
  share: number;
}

/** Progress for `loaded` hits out of `total` (a loaded count above the total is capped). */
export function hitListProgress(loaded: number, total: number): HitListProgress {
  const safeTotal = Math.max(0, total);
  const safeLoaded = Math.min(Math.max(0, loaded), safeTotal);
  return { loaded: safeLoaded, total: safeTotal, share: safeTotal === 0 ? 0 : safeLoaded / safeTotal };
}

/** The "viewing X of Y" text: `{count}` and `{total}` of the i18n template substituted. */
export function formatViewing(template: string, count: number, total: number): string {
  return template.replaceAll('{count}', String(count)).replaceAll('{total}', String(total));
}
