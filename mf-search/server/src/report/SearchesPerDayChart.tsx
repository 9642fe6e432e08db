/** Drawing size of the chart (the SVG scales to its container). */
const WIDTH = 640;
const HEIGHT = 220;
const PADDING = { top: 16, right: 12, bottom: 40, left: 44 };

/**
 * Searches per day as a server-rendered SVG bar chart: `role="img"` named by its title and
 * described by a text that gives the range, the total and the busiest day; the same numbers are in
 * the table that follows it, for anyone who cannot see the bars.
 */
export function SearchesPerDayChart({ days, id }: { days: Array<{ day: string; searches: number }>; id: string }) {
  const most = Math.max(1, ...days.map((day) => day.searches));
  const plotWidth = WIDTH - PADDING.left - PADDING.right;
  const plotHeight = HEIGHT - PADDING.top - PADDING.bottom;
  const slot = plotWidth / Math.max(1, days.length);
  const total = days.reduce((sum, day) => sum + day.searches, 0);
  const busiest = days.reduce<{ day: string; searches: number } | undefined>((best, day) => (!best || day.searches > best.searches ? day : best), undefined);
  const description =
    days.length === 0
      ? 'No days in the range.'
      : `${total} searches from ${days[0]!.day} to ${days[days.length - 1]!.day}` + (busiest && busiest.searches > 0 ? `; most on ${busiest.day} (${busiest.searches}).` : '.');
  const labelEvery = Math.max(1, Math.ceil(days.length / 8));
  return (
    <svg className="search-report__chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${id}-title ${id}-desc`} data-searches-per-day="">
      <title id={`${id}-title`}>Searches per day</title>
      <desc id={`${id}-desc`}>{description}</desc>
      <line x1={PADDING.left} y1={PADDING.top + plotHeight} x2={WIDTH - PADDING.right} y2={PADDING.top + plotHeight} className="search-report__axis" />
      <text x={PADDING.left - 6} y={PADDING.top + 4} textAnchor="end" className="search-report__tick">
        {most}
      </text>
      <text x={PADDING.left - 6} y={PADDING.top + plotHeight} textAnchor="end" className="search-report__tick">
        0
      </text>
      {days.map((day, index) => {
        const height = (day.searches / most) * plotHeight;
        const x = PADDING.left + index * slot;
        return (
          <g key={day.day}>
            <rect x={x + slot * 0.15} y={PADDING.top + plotHeight - height} width={Math.max(1, slot * 0.7)} height={height} className="search-report__bar" data-day={day.day} data-searches={day.searches}>
              <title>{`${day.day}: ${day.searches}`}</title>
            </rect>
            {index % labelEvery === 0 ? (
              <text x={x + slot / 2} y={HEIGHT - PADDING.bottom + 16} textAnchor="middle" className="search-report__tick">
                {day.day.slice(5)}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}
