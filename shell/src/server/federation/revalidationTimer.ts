/**
 * Runs `revalidate` every `intervalMs`, never two at once (a slow origin does not pile polls up);
 * the timer does not keep the process alive. Returns the function that stops it.
 */
export function startRevalidationTimer(revalidate: () => Promise<void>, intervalMs: number): () => void {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    running ??= revalidate().finally(() => (running = undefined));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
