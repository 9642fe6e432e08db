/**
 * Turns vote counts into integer percentages that sum to exactly 100 (largest-remainder
 * method): each answer gets the floor of its exact share, then the points still missing go
 * to the largest remainders; equal remainders go to the lower answer position first, so the
 * result is deterministic. With no votes at all, every answer gets 0.
 *
 * @param counts answer position -> votes; include every answer position (0 for none).
 * @returns answer position (string key, as JSON sends it) -> integer percentage.
 */
export function largestRemainderPercentages(counts: Record<number, number>): Record<string, number> {
  const entries = Object.entries(counts).map(([position, votes]) => ({ position: Number(position), votes }));
  const total = entries.reduce((sum, entry) => sum + entry.votes, 0);
  const percentages: Record<string, number> = {};
  if (total === 0) {
    for (const entry of entries) percentages[entry.position] = 0;
    return percentages;
  }
  // Integer arithmetic only: floor and remainder of votes * 100 / total are exact.
  const shares = entries.map((entry) => ({
    position: entry.position,
    floor: Math.floor((entry.votes * 100) / total),
    remainder: (entry.votes * 100) % total,
  }));
  let missing = 100 - shares.reduce((sum, share) => sum + share.floor, 0);
  const byRemainder = [...shares].sort((a, b) => b.remainder - a.remainder || a.position - b.position);
  for (const share of byRemainder) {
    if (missing === 0) break;
    share.floor += 1;
    missing -= 1;
  }
  for (const share of shares.sort((a, b) => a.position - b.position)) percentages[share.position] = share.floor;
  return percentages;
}
