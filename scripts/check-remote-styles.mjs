#!/usr/bin/env node
// Fails when a stylesheet breaks the style isolation between the shell and the remotes
// (README "Style isolation"):
// - a remote's CSS (mf-<x>/src/**/*.css, demo pages under standalone/ excepted) keeps every rule in
//   its cascade layer `khs-remote.<x>`, prefixes its keyframes `khs-<x>-`, imports nothing, and
//   every selector targets its own elements: a `khs-<x>` class, then only descendant or child
//   combinators (`:is()`/`:where()` lists are checked one by one);
// - the shell's CSS (shell/public/*.css) keeps every rule in `khs-shell-base` or `khs-shell`
//   (unlayered CSS would beat every remote), uses no `!important` in `khs-shell-base` (an important
//   declaration in a lower layer beats the layers above it) and never targets a `khs-` class.
// A remote's sheet is checked as the build ships it, with the shared reset it asks for
// (`@khs-remote-reset …;`, tooling/rspack-preset/remoteCssReset.mjs) written in.
// Usage: node scripts/check-remote-styles.mjs [root]
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import postcss from 'postcss';
import { expandRemoteCssReset } from '@khs/rspack-preset/remoteCssReset';

const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..'));

function* cssFiles(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name === 'standalone') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* cssFiles(full);
    else if (entry.name.endsWith('.css')) yield full;
  }
}

/** Splits at top-level occurrences of the characters in `separators` (outside (), [] and quotes). */
function splitTopLevel(text, separators) {
  const parts = [];
  let depth = 0;
  let quote = '';
  let current = '';
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (quote) {
      if (char === '\\') {
        current += char + text[index + 1];
        index += 1;
        continue;
      }
      if (char === quote) quote = '';
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '(' || char === '[') depth += 1;
    else if (char === ')' || char === ']') depth -= 1;
    else if (depth === 0 && separators.includes(char)) {
      parts.push(current, char);
      current = '';
      continue;
    }
    current += char;
  }
  parts.push(current);
  return parts;
}

/** Compounds and the combinators between them: ['a', ' ', 'b', '>', 'c']. */
function compoundsAndCombinators(selector) {
  const tokens = splitTopLevel(selector.trim().replace(/\s*([>+~])\s*/g, '$1'), [' ', '>', '+', '~']).filter((token) => token !== '');
  const result = [];
  for (const token of tokens) {
    const isCombinator = [' ', '>', '+', '~'].includes(token);
    if (isCombinator && result.length > 0 && [' ', '>', '+', '~'].includes(result.at(-1))) {
      if (token !== ' ') result[result.length - 1] = token;
    } else if (!isCombinator || result.length > 0) result.push(token);
  }
  return result;
}

/** The selector with every `:is()`/`:where()` replaced by each of its arguments in turn. */
function expandMatchesAny(selector) {
  const match = /:(?:is|where)\(/i.exec(selector);
  if (!match) return [selector];
  let depth = 1;
  let end = match.index + match[0].length;
  while (end < selector.length && depth > 0) {
    if (selector[end] === '(') depth += 1;
    if (selector[end] === ')') depth -= 1;
    end += 1;
  }
  const inner = selector.slice(match.index + match[0].length, end - 1);
  const before = selector.slice(0, match.index);
  const after = selector.slice(end);
  return splitTopLevel(inner, [','])
    .filter((part) => part !== ',')
    .flatMap((alternative) => expandMatchesAny(`${before}${alternative.trim()}${after}`));
}

/** Whether a compound names the prefix as a class (or a class attribute test). */
function hasPrefix(compound, prefix) {
  const escaped = prefix.replace(/[-]/g, '\\-');
  return new RegExp(`\\.${escaped}(?![\\w])|\\.${escaped}[-_]|\\[class[*^~|]?=['"]?${escaped}`).test(compound);
}

/** Why the selector may reach elements that are not the remote's own, or undefined. */
function selectorProblem(selector, prefix) {
  for (const alternative of expandMatchesAny(selector)) {
    const parts = compoundsAndCombinators(alternative);
    const first = parts.findIndex((part, index) => index % 2 === 0 && hasPrefix(part, prefix));
    if (first === -1) return `"${alternative}" does not name a .${prefix} class`;
    const combinators = parts.slice(first).filter((_, index) => index % 2 === 1);
    if (combinators.some((combinator) => combinator === '+' || combinator === '~')) {
      return `"${alternative}" reaches siblings of the remote's elements`;
    }
  }
  return undefined;
}

/** Names of the layers around a node, outermost first, joined with dots (`a.b` for nested). */
function layerOf(node) {
  const names = [];
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (parent.type === 'atrule' && parent.name.toLowerCase() === 'layer') names.unshift(parent.params.trim());
  }
  return names.join('.');
}

const violations = [];

function checkRemoteFile(file, remote) {
  const name = remote.replace(/^mf-/, '');
  const prefix = `khs-${name}`;
  const layer = `khs-remote.${name}`;
  const where = path.relative(root, file);
  // Checked as the build ships it: with the shared reset written where the sheet asks for it.
  let css;
  try {
    css = expandRemoteCssReset(readFileSync(file, 'utf8'), where);
  } catch (error) {
    violations.push(error.message);
    return;
  }
  const sheet = postcss.parse(css, { from: file });
  sheet.walkAtRules((rule) => {
    const at = rule.name.toLowerCase();
    if (at === 'import') violations.push(`${where}: @import ${rule.params} (a remote's CSS is self-contained)`);
    if (at.endsWith('keyframes') && !rule.params.trim().startsWith(`${prefix}-`)) {
      violations.push(`${where}: @keyframes ${rule.params} must be named ${prefix}-… (keyframe names are global)`);
    }
  });
  sheet.walkRules((rule) => {
    if (rule.parent?.type === 'atrule' && rule.parent.name.toLowerCase().endsWith('keyframes')) return;
    const inLayer = layerOf(rule);
    if (inLayer !== layer && !inLayer.startsWith(`${layer}.`)) {
      violations.push(`${where}: "${rule.selector}" is ${inLayer ? `in layer ${inLayer}` : 'unlayered'}, not in ${layer}`);
    }
    for (const selector of rule.selectors) {
      const problem = selectorProblem(selector, prefix);
      if (problem) violations.push(`${where}: ${problem}`);
    }
  });
}

function checkShellFile(file) {
  const where = path.relative(root, file);
  const sheet = postcss.parse(readFileSync(file, 'utf8'), { from: file });
  sheet.walkRules((rule) => {
    const inLayer = layerOf(rule);
    if (inLayer !== 'khs-shell-base' && inLayer !== 'khs-shell') {
      violations.push(`${where}: "${rule.selector}" is ${inLayer ? `in layer ${inLayer}` : 'unlayered'}, not in khs-shell-base or khs-shell`);
    }
    if (/\.khs-|\[class[*^~|]?=['"]?khs-/.test(rule.selector)) violations.push(`${where}: "${rule.selector}" targets a remote's class`);
    if (inLayer === 'khs-shell-base') {
      rule.walkDecls((declaration) => {
        if (declaration.important) violations.push(`${where}: "${rule.selector}" ${declaration.prop} is !important in khs-shell-base`);
      });
    }
  });
}

const remotes = readdirSync(root).filter((name) => name.startsWith('mf-') && statSync(path.join(root, name)).isDirectory());
for (const remote of remotes) for (const file of cssFiles(path.join(root, remote, 'src'))) checkRemoteFile(file, remote);
const shellPublic = path.join(root, 'shell/public');
if (existsSync(shellPublic)) {
  for (const entry of readdirSync(shellPublic)) {
    const file = path.join(shellPublic, entry);
    if (entry.endsWith('.css')) checkShellFile(file);
  }
}

if (violations.length > 0) {
  console.error(`Style isolation between the shell and the remotes is broken (README "Style isolation"):\n- ${violations.join('\n- ')}`);
  process.exit(1);
}
console.log(`Styles isolated: ${remotes.length} remotes and the shell checked.`);
