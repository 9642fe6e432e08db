// Precompresses a build's text outputs next to them (`x.js.br`, `x.js.gz`), so the servers send
// them compressed at no cost per request: @fastify/static `preCompressed` in the shell, sirv
// `brotli`/`gzip` in tooling/static-server (which stands in for the remotes' CDN).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Files worth compressing; smaller ones cost more in headers than they save. */
const COMPRESSIBLE = /\.(js|mjs|css|json|html|svg|txt)$/;
const MIN_BYTES = 1024;

/** Files the federation plugin writes itself (not always compilation assets). */
const EXTRA_FILES = ['mf-manifest.json', 'mf-stats.json'];

/**
 * The brotli (quality 11) and gzip (level 9) copies of `body`, or undefined when it is too small to
 * be worth it. Also used by tooling/deploy for the manifest it switches.
 */
export async function compressedCopies(body) {
  if (body.length < MIN_BYTES) return undefined;
  const [br, gz] = await Promise.all([
    brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    gzip(body, { level: 9 }),
  ]);
  return { br, gz };
}

/** Writes `.br` and `.gz` copies of one file, if it is worth it. */
export async function precompressFile(file) {
  const copies = await compressedCopies(readFileSync(file));
  if (!copies) return;
  const { br, gz } = copies;
  writeFileSync(`${file}.br`, br);
  writeFileSync(`${file}.gz`, gz);
}

/** Rspack plugin: after emit (and after plugins that patch files after emit), precompresses the outputs. */
export class PrecompressPlugin {
  apply(compiler) {
    if (compiler.options.mode === 'development') return;
    compiler.hooks.afterEmit.tapPromise('PrecompressPlugin', async (compilation) => {
      const outDir = compiler.options.output.path;
      const names = new Set([...compilation.getAssets().map((asset) => asset.name), ...EXTRA_FILES]);
      const files = [...names].filter((name) => COMPRESSIBLE.test(name)).map((name) => path.join(outDir, name)).filter((file) => existsSync(file));
      await Promise.all(files.map(precompressFile));
    });
  }
}
