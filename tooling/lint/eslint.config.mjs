// The repository's ESLint flat config (the root eslint.config.mjs re-exports it). It lives in this
// workspace because typescript-eslint needs a TypeScript with a JavaScript API (5.x/6.0): the
// workspace's TypeScript 7 (the native port) has none, so npm installs 6.0 here, beside the parser,
// and nowhere else. Rules need no type information: `tsc` (7.0) stays the one type checker.
import './useLintTypeScript.mjs';
import reactHooks from 'eslint-plugin-react-hooks';

// After the redirect above: typescript-eslint must load the TypeScript with a JavaScript API.
const { default: tseslint } = await import('typescript-eslint');

// `expect(getBy…(…)).toBeTruthy()`, `expect(await findBy…(…)).not.toBeNull()` and the like assert
// nothing: a getBy/findBy query throws (or rejects) when nothing matches, so the matcher only ever
// sees an element. The selectors find such a query (bare, `screen.`/`within(…).`/`page.`, awaited or
// not) handed straight to `expect` with a presence-only matcher.
const QUERY = '/^(get|find)(All)?By/';
const presenceOnly = (subject) =>
  [
    `[${subject}.callee.name=${QUERY}]`,
    `[${subject}.callee.property.name=${QUERY}]`,
    `[${subject}.argument.callee.name=${QUERY}]`,
    `[${subject}.argument.callee.property.name=${QUERY}]`,
  ].join(', ');
const NON_ASSERTION_MESSAGE =
  'A getBy…/findBy… query throws when nothing matches, so this expect asserts nothing: assert what matters (its text, state, role or attribute).';
export const nonAssertionSelectors = [
  `CallExpression[callee.property.name=/^(toBeTruthy|toBeDefined)$/][callee.object.callee.name='expect']:matches(${presenceOnly('callee.object.arguments.0')})`,
  `CallExpression[callee.property.name=/^(toBeNull|toBeUndefined|toBeFalsy)$/][callee.object.property.name='not'][callee.object.object.callee.name='expect']:matches(${presenceOnly('callee.object.object.arguments.0')})`,
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/.generated/**',
      '**/.origins/**',
      '**/.e2e-variants/**',
      '**/.data/**',
      '**/.bench/**',
      '**/test-results/**',
      '**/playwright-report/**',
      'shell/public/bench-article-*.html',
    ],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      // A leading underscore marks a value kept on purpose (a rest sibling left out of a copy, a
      // parameter an interface hands over); anything else unused is dead code.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Tests read answers off the wire (JSON, parsed XML) and assert on their shape field by field:
    // `any` there is the subject under test, not a hole in product code's types.
    files: ['**/*.test.{ts,tsx}', '**/test/**', 'e2e/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      'no-restricted-syntax': ['error', ...nonAssertionSelectors.map((selector) => ({ selector, message: NON_ASSERTION_MESSAGE }))],
    },
  },
  {
    // Issue 33: no function of the shell or tooling over 80 lines, no module of the shell over 300
    // (tests, test helpers and benches aside): a longer one does several things.
    files: ['shell/**/*.{ts,tsx,mts,mjs,js}', 'tooling/**/*.{ts,tsx,mts,mjs,js}'],
    ignores: ['**/*.test.*', '**/test/**', '**/testing/**', '**/bench/**'],
    rules: { 'max-lines-per-function': ['error', { max: 80 }] },
  },
  {
    files: ['shell/**/*.{ts,tsx,mts,mjs,js}'],
    ignores: ['**/*.test.*', '**/test/**', '**/testing/**', '**/bench/**'],
    rules: { 'max-lines': ['error', { max: 300 }] },
  },
  {
    files: ['**/*.{ts,tsx,mts,cts}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
);
