#!/usr/bin/env node
// `npm run map`: writes the architecture map — a table of the slices (owners, remotes, islands, the
// slots they fill, services, ports, calls) and a Mermaid diagram of the parts — from the slices'
// manifests (`<slice>/slice.json`, through the stack registry) into the root README, between the
// markers below, and into each slice's README what its manifest declares. `--check` writes nothing and fails when the README's map differs (scripts/map.test.ts
// runs the same comparison in `npm test`).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SERVICES, SHELL_DEFAULT_PORT, SLICES } from '@khs/stack/registry';

export const MAP_START = '<!-- map:start (written by `npm run map` from the slices\' manifests; edit those, not this) -->';
export const MAP_END = '<!-- map:end -->';
const README = path.join(import.meta.dirname, '..', 'README.md');

const code = (value) => `\`${value}\``;
const list = (values) => (values.length > 0 ? values.join(', ') : '—');

/** What a slice's service lets the edge forward and compose: its calls, pages and form pages. */
function callsOf(service) {
  const policy = service.edgePolicy;
  return [
    ...policy.routes.map((route) => `${route.method} ${route.call}`),
    ...(policy.pages ?? []).map((page) => `page ${page.page}`),
    ...(policy.formPages ?? []).map((page) => `form page ${page.page}`),
  ];
}

function table(slices) {
  const rows = slices.map((slice) => {
    const remote = slice.remote ? `${code(slice.remote.manifestEnv)}, port ${slice.remote.port}` : '—';
    const islands = slice.remote ? list(slice.remote.islands.map(code)) : '—';
    const slots = slice.remote?.slots?.length ? list(slice.remote.slots.map((fill) => `${code(fill.slot)} ← ${fill.island}`)) : '—';
    const service = slice.service ? `${code(slice.service.name)}: ${code(slice.service.urlEnv)}, port ${slice.service.port}${slice.service.reads.length ? `; reads ${slice.service.reads.join(', ')}` : ''}` : '—';
    const calls = slice.service ? list(callsOf(slice.service).map(code)) : '—';
    return `| [${slice.name}](${slice.name}/README.md) | ${slice.team} | ${remote} | ${islands} | ${slots} | ${service} | ${calls} |`;
  });
  return ['| slice | team | remote | islands | slots filled | service | calls and pages at the edge |', '|---|---|---|---|---|---|---|', ...rows].join('\n');
}

const nodeId = (name) => name.replace(/[^A-Za-z0-9]/g, '_');

function diagram(slices) {
  const search = SERVICES.find((service) => service.name === 'search');
  const lines = ['```mermaid', 'flowchart LR', '  browser([Browser])', `  shell["shell :${SHELL_DEFAULT_PORT}<br/>pages, slots, edge proxy"]`, `  search[("search server :${search.defaultPort}")]`, '  browser --> shell', '  browser -- searches --> search'];
  for (const slice of slices) {
    lines.push(`  subgraph ${nodeId(slice.name)}_slice["${slice.name} (${slice.team})"]`);
    if (slice.remote) lines.push(`    ${nodeId(slice.name)}_remote["remote :${slice.remote.port}<br/>${slice.remote.islands.length} island${slice.remote.islands.length === 1 ? "" : "s"}"]`);
    if (slice.service) lines.push(`    ${nodeId(slice.name)}_service["service ${slice.service.name} :${slice.service.port}"]`);
    lines.push('  end');
    if (slice.remote) lines.push(`  shell -- islands --> ${nodeId(slice.name)}_remote`);
    if (slice.service) lines.push(`  shell -- proxy --> ${nodeId(slice.name)}_service`);
    if (slice.service?.reads.includes('searchAdminKey')) lines.push(`  ${nodeId(slice.name)}_service -- indexes --> search`);
  }
  lines.push('```');
  return lines.join('\n');
}

export const SLICE_START = '<!-- slice:start (written by `npm run map` from slice.json) -->';
export const SLICE_END = '<!-- slice:end -->';

/** What one slice's manifest declares, for its own README. */
export function renderSliceSection(slice) {
  const lines = [SLICE_START, '', `## What \`slice.json\` declares`, '', `- **${slice.name}**, owned by the ${slice.team}: ${slice.description}`];
  if (slice.remote) {
    lines.push(`- Remote: port ${slice.remote.port}, manifest URL in ${code(slice.remote.manifestEnv)}; islands ${list(slice.remote.islands.map(code))}.`);
    for (const fill of slice.remote.slots ?? []) {
      const props = Object.entries(fill.props ?? {}).map(([prop, field]) => `${prop} ← ${field}`);
      lines.push(`  - fills ${code(fill.slot)} with ${code(fill.island)} (order ${fill.order}, hydrates ${fill.hydrate ?? 'immediate'}${props.length ? `, props ${props.join(', ')}` : ''})`);
    }
    for (const page of slice.remote.pages ?? []) {
      const query = page.queryParam ? `, query ${code(page.queryParam)} as context` : '';
      lines.push(`  - page ${code(page.path)} "${page.title}": heading and slot ${code(page.slot)}${query}, robots ${page.robots}${page.sharedCache ? ', shared caches may keep it' : ''}`);
    }
    const settings = slice.remote.browserSettings;
    if (settings) lines.push(`  - browser settings: the shell runs ${code(settings.module)} at start and passes its page config ${list(settings.pageConfigFields.map(code))} through`);
  } else lines.push('- No remote.');
  if (slice.service) {
    const service = slice.service;
    const deprecated = Object.entries(service.deprecatedEnv ?? {}).map(([old, now]) => `${code(old)} → ${code(now)}`);
    lines.push(
      `- Service ${code(service.name)}: ${code(service.entry)}, port ${service.port}, URL in ${code(service.urlEnv)}, edge key in ${code(service.edgeKeyEnv)}${service.reads.length ? `; may read ${service.reads.join(', ')}` : ''}${deprecated.length ? `; former names still read for one version: ${deprecated.join(', ')}` : ''}.`,
      `- Edge policy: ${list(callsOf(service).map(code))}.`,
    );
  } else lines.push('- No service.');
  lines.push(`- Environment it reads besides those: ${list(slice.env.map(code))}.`, '', SLICE_END);
  return lines.join('\n');
}

/** `readme` with its slice section replaced (or appended when it has none). */
export function withSliceSection(readme, slice) {
  const section = renderSliceSection(slice);
  const start = readme.indexOf(SLICE_START);
  const end = readme.indexOf(SLICE_END);
  if (start < 0 || end < start) return `${readme.trimEnd()}\n\n${section}\n`;
  return readme.slice(0, start) + section + readme.slice(end + SLICE_END.length);
}

/** The map (table and diagram) of `slices`, between the markers. */
export function renderMap(slices = SLICES) {
  return `${MAP_START}\n\n${table(slices)}\n\n${diagram(slices)}\n\n${MAP_END}`;
}

/** `readme` with its map replaced by `map`; throws when the markers are missing. */
export function withMap(readme, map = renderMap()) {
  const start = readme.indexOf(MAP_START);
  const end = readme.indexOf(MAP_END);
  if (start < 0 || end < start) throw new Error(`README.md has no map markers (${MAP_START} … ${MAP_END})`);
  return readme.slice(0, start) + map + readme.slice(end + MAP_END.length);
}

/** Every README the map writes: the root's and each slice's, with what it should hold. */
export function expectedReadmes(root = path.dirname(README)) {
  return [
    { file: README, expected: (text) => withMap(text) },
    ...SLICES.map((slice) => ({ file: path.join(root, slice.name, 'README.md'), expected: (text) => withSliceSection(text, slice) })),
  ];
}

if (process.argv[1] === import.meta.filename) {
  const stale = [];
  for (const { file, expected } of expectedReadmes()) {
    const text = readFileSync(file, 'utf8');
    const updated = expected(text);
    if (updated === text) continue;
    stale.push(path.relative(path.dirname(README), file));
    if (!process.argv.includes('--check')) writeFileSync(file, updated);
  }
  if (process.argv.includes('--check') && stale.length > 0) {
    console.error(`Differs from the slices' manifests: ${stale.join(', ')}. Run \`npm run map\`.`);
    process.exit(1);
  }
  console.log(stale.length > 0 ? `written from the manifests: ${stale.join(', ')}` : 'the map and the slices\' READMEs match the manifests');
}
