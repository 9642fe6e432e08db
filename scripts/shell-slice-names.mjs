#!/usr/bin/env node
// The shell names no slice: no import, identifier or string literal in the shell's non-test
// sources names a slice, one of its islands, its service or one of its variables. The names come
// from the slices' manifests (tooling/stack's registry), never from a list kept here; the sources
// are read with the TypeScript compiler (comments are not code, and are not looked at).
// `node scripts/shell-slice-names.mjs` prints every finding (exit 1 when there is one).
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SITE_ENV, SLICES } from '../tooling/stack/registry.mjs';

// The workspace's TypeScript 7 is the native compiler, without a JavaScript API: the linter's 6.x has one.
const ts = createRequire(path.resolve(import.meta.dirname, '../tooling/lint/package.json'))('typescript');

const ROOT = path.resolve(import.meta.dirname, '..');
const SOURCE = /\.(ts|tsx|mts|cts|mjs|js)$/;
/** Tests and the test helpers (`testing/` folders) may name what they test. */
const IS_TEST = /(\.test\.|\/testing\/|\/test\/)/;

/** Splits an identifier into lower-case words: `searchListIsland`, `SEARCH_LIST_ISLAND` → search, list, island. */
export function identifierWords(text) {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
}

function containsRun(words, run) {
  for (let start = 0; start + run.length <= words.length; start += 1) {
    if (run.every((word, offset) => words[start + offset] === word)) return true;
  }
  return false;
}

/**
 * Every name a slice brings, from the manifests: the slice's, its islands', its service's (words of
 * an identifier or a token of a string), and its variables (exactly; the site-wide ones every part
 * reads, registry `SITE_ENV`, are the site's, not a slice's).
 * @param {readonly import('../tooling/stack/registry.d.ts').SliceManifest[]} slices
 */
export function sliceNames(slices = SLICES, siteEnv = SITE_ENV) {
  const names = [];
  const add = (slice, kind, name) => names.push({ slice: slice.name, kind, name, words: identifierWords(name) });
  for (const slice of slices) {
    add(slice, 'slice', slice.name);
    for (const island of slice.remote?.islands ?? []) add(slice, 'island', island);
    if (slice.service) add(slice, 'service', slice.service.name);
    const variables = [
      ...slice.env,
      ...(slice.remote ? [slice.remote.manifestEnv] : []),
      ...(slice.service ? [slice.service.urlEnv, slice.service.edgeKeyEnv, ...Object.entries(slice.service.deprecatedEnv ?? {}).flat()] : []),
    ];
    for (const variable of new Set(variables)) if (!siteEnv.includes(variable)) add(slice, 'variable', variable);
  }
  return names;
}

/**
 * Whether a string literal's value names `name`: as a token (not inside a longer word or name),
 * case as written. A sentence (a value with spaces, JSX text) is prose: there only a name that is
 * no plain word counts (`mf-search`, `TYPESENSE_HOST`; not "contact", "Survey" or "watchlist").
 */
function stringNames(text, name) {
  if (/\s/.test(text) && /^[A-Za-z]+$/.test(name.name)) return false;
  const boundary = name.kind === 'variable' || name.kind === 'island' ? '[A-Za-z0-9_]' : '[A-Za-z0-9_-]';
  return new RegExp(`(?<!${boundary})${name.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?!${boundary})`).test(text);
}

/**
 * Whether an identifier names `name`: a variable exactly; a slice, a service or an island of two
 * words or more when its words run in the identifier's (`mfSearch`, `getSurvey`, `SEARCH_LIST_ISLAND`);
 * an island of one word (`Dialog`, `Survey`) only as itself (a `dialog` of the shell's own is not it).
 */
function identifierNames(text, name) {
  if (name.kind === 'variable') return text === name.name;
  if (name.kind === 'island' && name.words.length < 2) return text === name.name;
  return containsRun(identifierWords(text), name.words);
}

/** The names contracts declare (its types' fields, its exports): "contracts types aside". */
export function contractsNames(root = ROOT) {
  const declared = new Set();
  for (const file of sourceFiles(path.join(root, 'contracts/src'))) {
    const visit = (node) => {
      if (node.name && ts.isIdentifier(node.name)) declared.add(node.name.text);
      ts.forEachChild(node, visit);
    };
    visit(ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true));
  }
  return declared;
}

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !IS_TEST.test(file.split(path.sep).join('/')))
    .sort();
}

/**
 * Every place in one source text where an identifier or a string literal (an import's module name,
 * a template's text, JSX text) names a slice.
 */
export function findSliceNames(fileName, text, names, exempt = new Set()) {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, fileName.endsWith('x') ? ts.ScriptKind.TSX : undefined);
  const findings = [];
  const report = (node, value, kind) => {
    const named = names.filter((name) => (kind === 'identifier' ? identifierNames(value, name) : stringNames(value, name)));
    if (named.length === 0) return;
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    findings.push({ line: line + 1, kind, text: value, names: named.map((name) => `${name.slice}'s ${name.kind} ${name.name}`).join(', ') });
  };
  const visit = (node) => {
    if ((ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) && !exempt.has(node.text)) report(node, node.text, 'identifier');
    else if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralLike?.(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) report(node, node.text, 'string');
    else if (ts.isJsxText(node) && node.text.trim()) report(node, node.text, 'string');
    ts.forEachChild(node, visit);
  };
  visit(source);
  return findings;
}

/** Every finding in the shell's non-test sources (`shell/src`), each with its file. */
export function checkShell({ root = ROOT, slices = SLICES } = {}) {
  const names = sliceNames(slices);
  const exempt = contractsNames(root);
  const findings = [];
  for (const file of sourceFiles(path.join(root, 'shell/src'))) {
    const relative = path.relative(root, file).split(path.sep).join('/');
    for (const finding of findSliceNames(file, readFileSync(file, 'utf8'), names, exempt)) findings.push({ file: relative, ...finding });
  }
  return findings;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const findings = checkShell();
  for (const finding of findings) console.log(`${finding.file}:${finding.line}: ${finding.kind} "${finding.text.trim().slice(0, 80)}" names ${finding.names}`);
  console.log(findings.length === 0 ? 'The shell names no slice.' : `${findings.length} places in the shell name a slice.`);
  process.exitCode = findings.length === 0 ? 0 : 1;
}
