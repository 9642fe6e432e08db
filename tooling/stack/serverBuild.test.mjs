import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serverBuild } from './serverBuild.mjs';

// Inside the repository, so the bundle's npm imports resolve as from a slice.
const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
// A fresh clone (npm ci) has no node_modules/.cache yet.
const CACHE_DIR = path.join(REPO_ROOT, 'node_modules/.cache');
mkdirSync(CACHE_DIR, { recursive: true });
const dir = mkdtempSync(path.join(CACHE_DIR, 'khs-server-build-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(file, text) {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  writeFileSync(path.join(dir, file), text);
}

/** Runs the built entry (with its node arguments) and returns what it printed, parsed. */
function run({ file, nodeArgs }) {
  return JSON.parse(execFileSync(process.execPath, [...nodeArgs, file], { cwd: dir, encoding: 'utf8' }));
}

// Imports `./unit.js` meaning `unit.ts`, as the repository's TypeScript does: Node cannot run it as it is.
write('settings/unit.ts', "export const unit: string = 'km';\n");
write('settings/read.ts', "import { unit } from './unit.js';\nexport function readSettings(): string { return unit; }\n");
write(
  'server/src/main.ts',
  [
    "import { parse } from 'yaml';",
    "import { where } from './where.js';",
    "import { page } from './page.js';",
    "const { readSettings } = await import(new URL('../../settings/read.ts', import.meta.url).href);",
    'console.log(JSON.stringify({ where: where(), entry: import.meta.filename, yaml: parse("a: 1"), settings: readSettings(), page: page() }));',
  ].join('\n'),
);
write('server/src/where.ts', 'export const where = (): string => import.meta.dirname;\n');
// JSX as the shell's pages write it (tsconfig.base.json: react-jsx, no React in scope).
write('server/src/page.tsx', "import { renderToStaticMarkup } from 'react-dom/server';\nexport const page = (): string => renderToStaticMarkup(<p className=\"x\">hi</p>);\n");

describe('serverBuild: a server entry built to one JavaScript file', () => {
  it('runs as its sources would: import.meta of each source file, npm packages imported, a runtime import of a TypeScript module loads its build', async () => {
    const built = await serverBuild({ dir, entry: 'server/src/main.ts', runtimeImports: [path.join(dir, 'settings/read.ts')] });
    expect(built.built).toBe(true);
    expect(run(built)).toEqual({ where: path.join(dir, 'server/src'), entry: path.join(dir, 'server/src/main.ts'), yaml: { a: 1 }, settings: 'km', page: '<p class="x">hi</p>' });
    // The npm package stays an import: not copied into the bundle.
    expect(readFileSync(built.file, 'utf8')).toMatch(/from "yaml"/);
  });

  it('is built again when a source changed, and only then', async () => {
    const first = await serverBuild({ dir, entry: 'server/src/main.ts', runtimeImports: [path.join(dir, 'settings/read.ts')] });
    expect(first.built).toBe(false);
    write('server/src/where.ts', "export const where = (): string => 'moved';\n");
    // A modification time after the last build, whatever the file system's resolution.
    const later = new Date(Date.now() + 2_000);
    utimesSync(path.join(dir, 'server/src/where.ts'), later, later);
    const second = await serverBuild({ dir, entry: 'server/src/main.ts', runtimeImports: [path.join(dir, 'settings/read.ts')] });
    expect(second.built).toBe(true);
    expect(run(second).where).toBe('moved');
  });
});
