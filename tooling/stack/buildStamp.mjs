// What a build was made from, to rebuild only when that changed: each input file's size and
// modification time, with the builder's version and Node's. `serverBuild.mjs` (the team services'
// and the shell's bundles) and the search server's build (`search-engine/scripts/build-server.mjs`)
// keep one beside their output; a start that finds it matching the files as they are now runs the
// build it has (it is what those sources compile to), any other start builds first.
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';

/**
 * The stamp of `files` as they are now, for a build by `builder` (a name and version: another
 * version of the bundler builds anew).
 * @param {readonly string[]} files absolute paths
 * @param {string} builder
 */
export function buildStamp(files, builder) {
  const sizes = {};
  for (const file of [...new Set(files)].sort()) {
    try {
      const stat = statSync(file);
      sizes[file] = `${stat.size}:${stat.mtimeMs}`;
    } catch {
      sizes[file] = 'missing';
    }
  }
  return { builder, node: process.versions.node, files: sizes };
}

/** Whether the stamp in `stampFile` matches its files as they are now (false when there is none). */
export function isBuildFresh(stampFile, builder) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
  } catch {
    return false;
  }
  return JSON.stringify(buildStamp(Object.keys(stamp.files ?? {}), builder)) === JSON.stringify(stamp);
}

/** Writes `contents` to `file` whole: through a temporary file renamed (a reader sees the old file or the new one). */
export function writeWhole(file, contents) {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, file);
}

/**
 * Writes the stamp of `files` (taken now) to `stampFile` for a build that read them from
 * `startedAt` (ms since the epoch) on: unless one changed since then (an edit during the build,
 * which the build may or may not have seen), then no stamp, and the next start builds again.
 */
export function writeBuildStamp(stampFile, files, builder, startedAt) {
  const stamp = buildStamp(files, builder);
  if (Object.values(stamp.files).some((sizeAndTime) => Number(sizeAndTime.split(':')[1]) >= startedAt)) return;
  writeWhole(stampFile, JSON.stringify(stamp));
}
