/**
 * Checks every article file of the content folder (`CONTENT_DIR`, default `content/articles`) and
 * prints each problem as `file:line: field: what is expected`. Exit code 1 when there is one.
 *
 *   npm run check -w @khs/content
 */
import { formatArticleProblem } from '../article-files/parse-article-file.js';
import { articlesDirFromEnv, contentImagesDir, surveysFile } from '../content-paths.js';
import { readContent } from '../read-content.js';

const dir = articlesDirFromEnv();
const snapshot = readContent({ articlesDir: dir, surveys: surveysFile, imagesDir: contentImagesDir });
for (const problem of snapshot.problems) console.error(formatArticleProblem(problem));
console.log(`${dir}: ${snapshot.articles.length} public articles, ${snapshot.problems.length} problem(s)`);
if (snapshot.problems.length > 0) process.exitCode = 1;
