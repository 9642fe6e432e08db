#!/usr/bin/env node
// Fails when a remote imports another remote: remotes talk only through contracts and the bus.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..'));
const remotes = readdirSync(root).filter((name) => name.startsWith('mf-') && statSync(path.join(root, name)).isDirectory());

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (/\.(m?[jt]sx?|cjs)$/.test(entry.name)) yield full;
  }
}

const importPattern = /(?:from\s*|import\s*\(\s*|require\s*\(\s*|import\s+)['"]([^'"]+)['"]/g;
const violations = [];
for (const remote of remotes) {
  for (const file of sourceFiles(path.join(root, remote))) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(importPattern)) {
      const specifier = match[1];
      const target = specifier.startsWith('.')
        ? path.relative(root, path.resolve(path.dirname(file), specifier)).split(path.sep)[0]
        : specifier.split('/')[0];
      if (target !== remote && remotes.includes(target)) {
        violations.push(`${path.relative(root, file)} imports "${specifier}" (${target})`);
      }
    }
  }
  const pkg = JSON.parse(readFileSync(path.join(root, remote, 'package.json'), 'utf8'));
  for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })) {
    if (dep !== remote && remotes.includes(dep)) violations.push(`${remote}/package.json depends on ${dep}`);
  }
}

if (violations.length > 0) {
  console.error(`Remotes must not import each other (use contracts and the bus):\n- ${violations.join('\n- ')}`);
  process.exit(1);
}
console.log(`remote independence: ${remotes.length} remotes checked, no cross-remote imports`);
