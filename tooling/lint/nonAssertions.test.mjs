import { ESLint } from 'eslint';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const eslint = new ESLint({ cwd: root, overrideConfigFile: path.join(root, 'eslint.config.mjs') });

/** The lines of `code` (as a test file) that the non-assertion rule reports. */
async function reportedLines(code) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, 'mf-survey/src/probe.test.tsx') });
  return result.messages.filter((message) => message.ruleId === 'no-restricted-syntax').map((message) => message.line);
}

describe('the non-assertion rule of test files', () => {
  // Loading the config and its plugins takes seconds on a busy machine; once, before the cases.
  beforeAll(() => eslint.lintText('', { filePath: path.join(root, 'mf-survey/src/probe.test.tsx') }), 120_000);

  it('reports a getBy/findBy query handed straight to a presence-only matcher', async () => {
    const code = [
      "import { screen, within } from '@testing-library/react';",
      'export async function probe(page, getByText) {',
      "  expect(screen.getByRole('button')).toBeTruthy();",
      "  expect(await screen.findByRole('button')).toBeTruthy();",
      "  expect(within(document.body).getByText('x')).toBeDefined();",
      "  expect(await screen.findByText('x')).not.toBeNull();",
      "  expect(screen.getAllByRole('meter')).toBeTruthy();",
      "  expect(getByText('x')).toBeTruthy();",
      "  expect(page.getByRole('button')).toBeTruthy();",
      '}',
    ].join('\n');
    expect(await reportedLines(code)).toEqual([3, 4, 5, 6, 7, 8, 9]);
  });

  it('lets assertions on what a query found pass, and presence checks of queries that may find nothing', async () => {
    const code = [
      "import { screen } from '@testing-library/react';",
      'export function probe() {',
      "  expect(screen.getByRole('button').textContent).toBe('Vote');",
      "  expect(screen.getByRole('button').getAttribute('aria-disabled')).toBe('false');",
      "  expect(screen.queryByRole('button')).toBeNull();",
      "  expect(screen.queryByRole('button')).not.toBeNull();",
      '}',
    ].join('\n');
    expect(await reportedLines(code)).toEqual([]);
  });
});
