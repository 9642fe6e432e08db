#!/usr/bin/env node
// Fails when a team's slice (`mf-*`: its browser remote and its service under `server/`) or a service
// imports another slice or the shell, when the shell imports a slice, or when shared code (`libs/*`,
// `tooling/*`, `contracts`, `content`) imports a slice or the shell: slices talk only through
// contracts and the bus, and the shell reaches them only at run time (their manifests, its proxy to
// their services), never through their source. Inside each part, the folders of its `server/src`,
// `src/server` and `src/` must not import each other in a cycle (test files aside) (a folder is one
// unit of ownership: a cycle means neither can move or ship without the other), and no file may
// import itself back through other files, anywhere (test files aside; type-only imports count: a
// cycle of types still ties the files together). The search engine
// is a generic Typesense-protocol server: it imports neither the site's content nor contracts, and
// the shell does not import it (browsers search it; `tooling/stack` starts it). A package import is
// read by its whole name (`@khs/search-engine`, `@khs/content`) and mapped to its workspace folder.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..'));
const SHELL = 'shell';
/** Team slices without a browser remote (a service and its page content): slices like the `mf-*` ones. */
const SERVICE_SLICE_FOLDERS = ['contact'];
const remotes = [
  ...readdirSync(root).filter((name) => name.startsWith('mf-') && statSync(path.join(root, name)).isDirectory()),
  ...SERVICE_SLICE_FOLDERS.filter((name) => existsSync(path.join(root, name, 'package.json'))),
];
const hasShell = existsSync(path.join(root, SHELL, 'package.json'));
/** Team services outside a remote's folder (deployed alone): they may import neither a remote nor the shell. */
const SERVICE_FOLDERS = ['search-engine'];
/** The generic search server: besides the rules of a service, it imports no application code. */
const SEARCH_ENGINE = 'search-engine';
/** What the search engine may not import: the site's content and contracts (it knows no articles). */
const APPLICATION_PARTS = ['content', 'contracts'];
const services = SERVICE_FOLDERS.filter((name) => existsSync(path.join(root, name, 'package.json')));
/** Code every part may use (infrastructure, contracts, content): it may import neither a slice nor the shell. */
const sharedParts = [
  ...['contracts', 'content'],
  ...['libs', 'tooling'].flatMap((group) =>
    existsSync(path.join(root, group)) ? readdirSync(path.join(root, group)).map((name) => path.join(group, name)) : [],
  ),
].filter((name) => existsSync(path.join(root, name, 'package.json')));

/** Each checked part's package name (its package.json `name`) → its folder, e.g. `@khs/content` → `content`. */
const folderByPackageName = new Map(
  [...remotes, ...services, ...sharedParts, ...(hasShell ? [SHELL] : [])].flatMap((part) => {
    const name = JSON.parse(readFileSync(path.join(root, part, 'package.json'), 'utf8')).name;
    return typeof name === 'string' ? [[name, part]] : [];
  }),
);

/**
 * The part a bare specifier or dependency name points at: its package name read whole (`@scope/name`
 * for a scoped package, else the first segment), mapped to that workspace's folder; a name no
 * workspace has stays itself (a folder name such as `shell`, or an npm package).
 */
function partOfPackage(specifier) {
  const segments = specifier.split('/');
  const name = specifier.startsWith('@') ? segments.slice(0, 2).join('/') : segments[0];
  return folderByPackageName.get(name) ?? name;
}

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (/\.(m?[jt]sx?|cjs)$/.test(entry.name)) yield full;
  }
}

/**
 * May a file of `from` (a remote, a service or the shell) import `target` (a top-level folder or
 * package)? No remote or service imports another remote or the shell, benches included (a bench
 * that needs the page starts the site), and the shell imports no remote.
 */
function forbidden(from, target) {
  if (target === from) return false;
  if (sharedParts.includes(from)) return remotes.includes(target) || target === SHELL;
  if (from === SHELL) return remotes.includes(target) || target === SEARCH_ENGINE;
  if (from === SEARCH_ENGINE && APPLICATION_PARTS.includes(target)) return true;
  return remotes.includes(target) || target === SHELL;
}

const importPattern = /(?:from\s*|import\s*\(\s*|require\s*\(\s*|import\s+)['"]([^'"]+)['"]/g;
const violations = [];
/** Every non-test source file → the source files it imports relatively (resolved to files). */
const fileEdges = new Map();
const isTestFile = (file) => /\.test\.[cm]?[jt]sx?$/.test(file);
const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];

/** The source file a relative import names (`./x.js` may be `x.ts` or `x.tsx`; a folder its index), or undefined. */
function resolveSourceFile(from, specifier) {
  const target = path.resolve(path.dirname(from), specifier);
  const stem = target.replace(/\.(m?[jt]sx?|cjs|cts)$/, '');
  const candidates = [target, ...SOURCE_EXTENSIONS.map((extension) => stem + extension), ...SOURCE_EXTENSIONS.map((extension) => path.join(target, `index${extension}`))];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile() && /\.(m?[jt]sx?|cjs|cts)$/.test(candidate));
}

function recordFileEdge(file, specifier) {
  if (isTestFile(file)) return;
  const resolved = resolveSourceFile(file, specifier);
  if (!resolved || isTestFile(resolved)) return;
  if (!fileEdges.has(file)) fileEdges.set(file, new Set());
  fileEdges.get(file).add(resolved);
}

/**
 * One cycle of each strongly connected group of files (Tarjan's algorithm), as
 * `a → b → … → a` from the group's first file by name: each group is one problem to untie.
 */
function fileCycles(edges) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  const connect = (file) => {
    index.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(file, Math.min(low.get(file), low.get(next)));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file), index.get(next)));
    }
    if (low.get(file) !== index.get(file)) return;
    const group = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || edges.get(file)?.has(file)) groups.push(group);
  };
  for (const file of [...edges.keys()].sort()) if (!index.has(file)) connect(file);
  return groups.map((group) => {
    const members = new Set(group);
    const start = [...group].sort()[0];
    // The shortest way back to `start` inside the group (breadth first).
    const previous = new Map([[start, undefined]]);
    const queue = [start];
    while (queue.length > 0) {
      const file = queue.shift();
      for (const next of [...(edges.get(file) ?? [])].sort()) {
        if (!members.has(next)) continue;
        if (next === start) {
          const trail = [];
          for (let at = file; at !== undefined; at = previous.get(at)) trail.unshift(at);
          return [...trail, start];
        }
        if (!previous.has(next)) {
          previous.set(next, file);
          queue.push(next);
        }
      }
    }
    return [start, start];
  });
}
/** `dir` (e.g. `shell/src/server`) → edges between its top-level folders: `from` → Set of `to`. */
const folderEdges = new Map();

/** The top-level folder of `file` under `part/server/src`, `part/src/server` or `part/src`, with that base. */
function folderOf(part, file) {
  for (const base of [path.join(root, part, 'server', 'src'), path.join(root, part, 'src', 'server'), path.join(root, part, 'src')]) {
    const relative = path.relative(base, file);
    if (relative.startsWith('..')) continue;
    const segments = relative.split(path.sep);
    return segments.length > 1 ? { base, folder: segments[0] } : undefined;
  }
  return undefined;
}

function recordFolderEdge(part, file, resolved) {
  const from = folderOf(part, file);
  const to = folderOf(part, resolved);
  if (!from || !to || from.base !== to.base || from.folder === to.folder) return;
  const edges = folderEdges.get(from.base) ?? new Map();
  folderEdges.set(from.base, edges);
  if (!edges.has(from.folder)) edges.set(from.folder, new Map());
  const targets = edges.get(from.folder);
  if (!targets.has(to.folder)) targets.set(to.folder, path.relative(root, file));
}

/** Every cycle among the folders (each reported once, as `a → b → a`). */
function folderCycles(edges) {
  const cycles = new Set();
  const visit = (folder, trail) => {
    const at = trail.indexOf(folder);
    if (at >= 0) {
      const cycle = trail.slice(at);
      const start = cycle.indexOf([...cycle].sort()[0]);
      const rotated = [...cycle.slice(start), ...cycle.slice(0, start)];
      cycles.add([...rotated, rotated[0]].join(' → '));
      return;
    }
    for (const next of edges.get(folder)?.keys() ?? []) visit(next, [...trail, folder]);
  };
  for (const folder of edges.keys()) visit(folder, []);
  return [...cycles];
}

for (const part of [...remotes, ...services, ...sharedParts, ...(hasShell ? [SHELL] : [])]) {
  for (const file of sourceFiles(path.join(root, part))) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(importPattern)) {
      const specifier = match[1];
      // A test file is a leaf nobody imports: its imports cannot tie two folders' code together.
      if (specifier.startsWith('.') && !/\.test\.[jt]sx?$/.test(file)) recordFolderEdge(part, file, path.resolve(path.dirname(file), specifier));
      if (specifier.startsWith('.')) recordFileEdge(file, specifier);
      const target = specifier.startsWith('.')
        ? path.relative(root, path.resolve(path.dirname(file), specifier)).split(path.sep)[0]
        : partOfPackage(specifier);
      if (forbidden(part, target)) {
        violations.push(`${path.relative(root, file)} imports "${specifier}" (${target})`);
      }
    }
  }
  const pkg = JSON.parse(readFileSync(path.join(root, part, 'package.json'), 'utf8'));
  for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })) {
    if (forbidden(part, partOfPackage(dep))) violations.push(`${part}/package.json depends on ${dep}`);
  }
}

// The folders that are no part (the end-to-end tests, the scripts) count for file cycles too.
for (const folder of ['e2e', 'scripts'].filter((name) => existsSync(path.join(root, name)))) {
  for (const file of sourceFiles(path.join(root, folder))) {
    for (const match of readFileSync(file, 'utf8').matchAll(importPattern)) if (match[1].startsWith('.')) recordFileEdge(file, match[1]);
  }
}

for (const [base, edges] of folderEdges) {
  for (const cycle of folderCycles(edges)) {
    const [first, second] = cycle.split(' → ');
    violations.push(`import cycle between folders of ${path.relative(root, base)}: ${cycle} (e.g. ${edges.get(first).get(second)})`);
  }
}

for (const cycle of fileCycles(fileEdges)) {
  violations.push(`import cycle between files: ${cycle.map((file) => path.relative(root, file)).join(' → ')}`);
}

if (violations.length > 0) {
  console.error(
    `Slices (remotes and their services) must not import each other or the shell (use contracts and the bus), the shell must not import a slice (it loads remotes at run time and proxies to services) nor the search engine (browsers search it), the search engine must import neither content nor contracts (it is a generic server), shared code must import neither, and folders must not import each other in a cycle:\n- ${violations.join('\n- ')}`,
  );
  process.exit(1);
}
console.log(
  `remote independence: ${remotes.length} remotes${services.length ? `, ${services.length} services` : ''}${sharedParts.length ? `, ${sharedParts.length} shared packages` : ''}${hasShell ? ' and the shell' : ''} checked, no imports across them, no import cycles between folders or files`,
);
