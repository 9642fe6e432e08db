#!/usr/bin/env node
// Fails when a remote imports another remote or the shell, or the shell imports a remote:
// remotes talk only through contracts and the bus, and the shell reaches them only at run time
// (their manifests), never through their source.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..'));
const SHELL = 'shell';
const remotes = readdirSync(root).filter((name) => name.startsWith('mf-') && statSync(path.join(root, name)).isDirectory());
const hasShell = existsSync(path.join(root, SHELL, 'package.json'));

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (/\.(m?[jt]sx?|cjs)$/.test(entry.name)) yield full;
  }
}

/**
 * May `file` of `from` (a remote or the shell) import `target` (a top-level folder or package)?
 * A remote's `bench/` is a harness that composes the real page, like `e2e/`: it may use the
 * shell's page components, never another remote.
 */
function forbidden(from, target, file = '') {
  if (target === from) return false;
  if (from === SHELL) return remotes.includes(target);
  const harness = path.relative(path.join(root, from), file).split(path.sep)[0] === 'bench';
  return remotes.includes(target) || (target === SHELL && !harness);
}

const importPattern = /(?:from\s*|import\s*\(\s*|require\s*\(\s*|import\s+)['"]([^'"]+)['"]/g;
const violations = [];
for (const part of [...remotes, ...(hasShell ? [SHELL] : [])]) {
  for (const file of sourceFiles(path.join(root, part))) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(importPattern)) {
      const specifier = match[1];
      const target = specifier.startsWith('.')
        ? path.relative(root, path.resolve(path.dirname(file), specifier)).split(path.sep)[0]
        : specifier.split('/')[0];
      if (forbidden(part, target, file)) {
        violations.push(`${path.relative(root, file)} imports "${specifier}" (${target})`);
      }
    }
  }
  const pkg = JSON.parse(readFileSync(path.join(root, part, 'package.json'), 'utf8'));
  for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })) {
    if (forbidden(part, dep)) violations.push(`${part}/package.json depends on ${dep}`);
  }
}

if (violations.length > 0) {
  console.error(
    `Remotes must not import each other or the shell (use contracts and the bus), and the shell must not import a remote (it loads them at run time):\n- ${violations.join('\n- ')}`,
  );
  process.exit(1);
}
console.log(`remote independence: ${remotes.length} remotes${hasShell ? ' and the shell' : ''} checked, no imports across them`);
