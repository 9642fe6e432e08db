#!/usr/bin/env node
// Prints the top functions of a V8 CPU profile (`--cpu-prof`) by self time and by total time,
// grouped by function and file: where a server spends its CPU, without opening DevTools.
//   node scripts/testing/cpu-profile-top.mjs <file.cpuprofile> [count]
import { readFileSync } from 'node:fs';

const [file, countText] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/testing/cpu-profile-top.mjs <file.cpuprofile> [count]');
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
