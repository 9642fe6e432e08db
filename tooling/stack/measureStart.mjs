#!/usr/bin/env node
// Measures the stack's start as the e2e harness runs it (free ports, a temporary data folder, each
// remote's dist): the wall-clock time of each phase (`onPhase`, startStack.mjs) and, once the shell
// listens, the CPU time each part's process has used so far (its start's cost: /proc/<pid>/stat,
// utime + stime of the process and of the children it waited for). Prints a table per run and the
// medians; a figure, never a test.
//
//   node tooling/stack/measureStart.mjs [--runs N] [--json] [--starter path/to/startStack.mjs]
//
// Beside a CPU-bound load, e.g.: `yes > /dev/null & yes > /dev/null & node tooling/stack/measureStart.mjs`.
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 1;
const asJson = args.includes('--json');
// Another starter module with the same API (a previous version of startStack.mjs, for a before/after figure).
const starterAt = args.indexOf('--starter');
const { startStack } = await import(starterAt >= 0 ? pathToFileURL(path.resolve(args[starterAt + 1])).href : './startStack.mjs');
const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** CPU seconds `pid` has used (its own and its waited-for children's), or undefined when gone / not Linux. */
function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) in parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime, stime, cutime, cstime are fields 14–17 (1-based), 12–15 here (0-based after the name).
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
    return ticks / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** The descendants of `pid` (their CPU is the part's too: a worker process, esbuild's service). */
function descendants(pid) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  const found = [];
  const walk = (id) => {
    for (const child of children.get(id) ?? []) {
      found.push(child);
      walk(child);
    }
  };
  walk(pid);
  return found;
}

async function measureOnce() {
  const phases = [];
  const startedAt = performance.now();
  const cpuBefore = process.cpuUsage();
  const stack = await startStack({
    env: { TYPESENSE_API_KEY: 'khs-admin-dev-key', TYPESENSE_SEARCH_API_KEY: 'khs-search-dev-key', PAGE_HEAD_BUDGET_MS: '1000' },
    onPhase: (phase) => phases.push(phase),
  });
  const totalMs = performance.now() - startedAt;
  const ownCpu = process.cpuUsage(cpuBefore);
  const cpu = {};
  for (const [part, pid] of Object.entries(stack.pids())) {
    if (pid === undefined) continue;
    cpu[part] = [pid, ...descendants(pid)].reduce((sum, id) => sum + (cpuSeconds(id) ?? 0), 0);
  }
  cpu['stack (this process)'] = (ownCpu.user + ownCpu.system) / 1e6;
  await stack.close();
  return { totalMs, phases, cpu };
}

const results = [];
for (let run = 0; run < runs; run++) {
  const result = await measureOnce();
  results.push(result);
  if (asJson) continue;
  console.log(`run ${run + 1}: started in ${(result.totalMs / 1000).toFixed(1)} s (load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')})`);
  for (const phase of result.phases) console.log(`  ${phase.name.padEnd(36)} ${(phase.ms / 1000).toFixed(1).padStart(6)} s  (from ${(phase.startMs / 1000).toFixed(1)} s)`);
  const totalCpu = Object.values(result.cpu).reduce((a, b) => a + b, 0);
  console.log(`  CPU used by the start: ${totalCpu.toFixed(1)} s`);
  for (const [part, seconds] of Object.entries(result.cpu).sort((a, b) => b[1] - a[1])) console.log(`    ${part.padEnd(34)} ${seconds.toFixed(1).padStart(6)} s`);
}
if (asJson) console.log(JSON.stringify(results));
else if (runs > 1) {
  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  console.log(`median start ${(median(results.map((r) => r.totalMs)) / 1000).toFixed(1)} s over ${runs} runs`);
}
