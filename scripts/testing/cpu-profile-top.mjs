#!/usr/bin/env node
// Prints the top functions of a V8 CPU profile (`--cpu-prof`) by self time and by total time,
// grouped by function and file: where a server spends its CPU, without opening DevTools.
//   node scripts/testing/cpu-profile-top.mjs <file.cpuprofile> [count] [--through=<regex>]
// --through: also the share of the busy (not idle) time whose stack passes through a file matching
// the regex (e.g. '@opentelemetry|tracing\.mjs': what tracing costs), by the outermost such function.
import { readFileSync } from 'node:fs';

const through = process.argv.find((arg) => arg.startsWith('--through='))?.slice('--through='.length);
const [file, countText] = process.argv.slice(2).filter((arg) => !arg.startsWith('--through='));
if (!file) {
  console.error('usage: node scripts/testing/cpu-profile-top.mjs <file.cpuprofile> [count] [--through=<regex>]');
  process.exit(2);
}
const count = Number(countText ?? 30);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

// Sample time per node: each sample lasts until the next one.
const selfMicros = new Map();
for (let index = 0; index < profile.samples.length; index += 1) {
  const delta = profile.timeDeltas[index + 1] ?? 0;
  selfMicros.set(profile.samples[index], (selfMicros.get(profile.samples[index]) ?? 0) + delta);
}
const keyOf = (node) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url ? url.replace(/^.*node_modules\//, '~/').replace(/^file:\/\/.*?\/(shell|mf-[a-z]+|libs|contracts)\//, '$1/') : '';
  return `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
};
const self = new Map();
const total = new Map();
let all = 0;
for (const [id, micros] of selfMicros) {
  all += micros;
  const node = byId.get(id);
  self.set(keyOf(node), (self.get(keyOf(node)) ?? 0) + micros);
  // Total: once per distinct function on the sample's stack.
  const seen = new Set();
  for (let at = id; at !== undefined; at = parentOf.get(at)) {
    const key = keyOf(byId.get(at));
    if (seen.has(key)) continue;
    seen.add(key);
    total.set(key, (total.get(key) ?? 0) + micros);
  }
}
const print = (title, map) => {
  console.log(`\n${title} (of ${(all / 1000).toFixed(0)} ms sampled)`);
  for (const [key, micros] of [...map].sort((a, b) => b[1] - a[1]).slice(0, count)) {
    console.log(`${((micros / all) * 100).toFixed(1).padStart(5)} %  ${key}`);
  }
};
print('self time', self);
print('total time', total);

if (through) {
  const pattern = new RegExp(through);
  let busy = 0;
  const byOutermost = new Map();
  for (const [id, micros] of selfMicros) {
    if (byId.get(id).callFrame.functionName === '(idle)') continue;
    busy += micros;
    let outermost;
    for (let at = id; at !== undefined; at = parentOf.get(at)) if (pattern.test(byId.get(at).callFrame.url)) outermost = byId.get(at);
    if (outermost) byOutermost.set(keyOf(outermost), (byOutermost.get(keyOf(outermost)) ?? 0) + micros);
  }
  const within = [...byOutermost.values()].reduce((sum, micros) => sum + micros, 0);
  console.log(`\nthrough /${through}/: ${((within / busy) * 100).toFixed(2)} % of the busy time (${(busy / 1000).toFixed(0)} ms not idle), by the outermost matching function`);
  for (const [key, micros] of [...byOutermost].sort((a, b) => b[1] - a[1]).slice(0, count)) {
    console.log(`${((micros / busy) * 100).toFixed(2).padStart(6)} %  ${key}`);
  }
}
