// Makes every `require('typescript')` in the ESLint process load this workspace's TypeScript 6.0.
// typescript-eslint and its helpers nested here already find it, but npm hoists `ts-api-utils` to
// the root (its peer range, >=4.8.4, accepts the workspace's 7.0), where `typescript` is the native
// port: a package whose main module exports only its version, so the parser fails on load.
// Import this before typescript-eslint; ESLint needs no other TypeScript.
import Module, { createRequire } from 'node:module';

const lintTypeScriptEntry = createRequire(import.meta.url).resolve('typescript');
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function resolveLintTypeScript(request, ...rest) {
  return resolveFilename.call(this, request === 'typescript' ? lintTypeScriptEntry : request, ...rest);
};
