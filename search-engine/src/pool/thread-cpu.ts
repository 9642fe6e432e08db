import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/**
 * CPU time the calling thread has used, ms: on Linux its own user + system time
 * (`/proc/thread-self/stat`, 10 ms ticks), elsewhere its event loop's busy time (wall time, which
 * also counts time the thread waited for a core). For `/stats.json` and the benchmark's CPU per search.
 */
export function threadCpuMs(): number {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Math.round(performance.eventLoopUtilization().active);
  }
}
