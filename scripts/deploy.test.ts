// The container deployment (deploy/): no container engine runs here, so the Dockerfiles and the
// compose file are checked as text. Each Dockerfile passes dockerfile-utils' linter, copies only
// its deployable's workspace, the workspaces it depends on (read from the package.json files,
// transitively), the root package and lock files, the root TypeScript settings and deploy/'s own
// files, and copies every workspace it needs at run time; its node images are the Node release
// scripts/with-node24.sh pins; its last stage runs as a non-root user
// with a HEALTHCHECK. The compose file is valid against the Compose Specification's JSON schema
// (vendored, deploy/vendor/compose-spec) and wires what the shell reads.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REMOTES, SLICES, TEAM_SERVICES } from '@khs/stack/registry';
import { Ajv } from 'ajv';
import { DockerfileParser, type Instruction } from 'dockerfile-ast';
import { validate as lintDockerfile } from 'dockerfile-utils';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { workspaceFolders } from './workspaces.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const DOCKER_DIR = path.join(ROOT, 'deploy/docker');
/** Files of the repository root an image may copy besides workspaces. */
const ROOT_FILES = ['package.json', 'package-lock.json', 'tsconfig.base.json'];

interface Workspace {
  dir: string;
  pkg: { name: string; dependencies?: Record<string, string>; devDependencies?: Record<string, string>; peerDependencies?: Record<string, string> };
}
const readJson = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'));
const workspaces = new Map<string, Workspace>(
  workspaceFolders().map((dir) => {
    const pkg = readJson(`${dir}/package.json`) as Workspace['pkg'];
    return [pkg.name, { dir, pkg }];
  }),
);
const workspaceByDir = new Map([...workspaces.values()].map((workspace) => [workspace.dir, workspace]));

/**
 * The folders of the workspace at `dir` and of every workspace it depends on, transitively:
 * `dependencies` and `peerDependencies`, plus its own `devDependencies` when `withBuildTools`
 * (what building it needs).
 */
export function workspaceClosure(dir: string, withBuildTools: boolean): string[] {
  const seen = new Set<string>();
  const pending = [dir];
  while (pending.length > 0) {
    const current = pending.pop()!;
    if (seen.has(current)) continue;
    seen.add(current);
    const { pkg } = workspaceByDir.get(current)!;
    const names = Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies, ...(withBuildTools && current === dir ? pkg.devDependencies : {}) });
    for (const name of names) {
      const workspace = workspaces.get(name);
      if (workspace) pending.push(workspace.dir);
    }
  }
  return [...seen].sort();
}

/** A Dockerfile read into what the checks need. */
interface DockerfileFacts {
  /** The `khs.workspace` label of its last stage. */
  workspace: string | undefined;
  /** Sources of every `COPY`/`ADD` from the build context (not `--from` a stage), normalised (`contracts/` → `contracts`). */
  contextSources: string[];
  stages: Instruction[][];
}

/** Parses a Dockerfile's stages, its workspace label and the sources it copies from the build context. */
export function readDockerfile(text: string): DockerfileFacts {
  const dockerfile = DockerfileParser.parse(text);
  const stages: Instruction[][] = [];
  for (const instruction of dockerfile.getInstructions()) {
    if (instruction.getKeyword() === 'FROM') stages.push([]);
    stages.at(-1)?.push(instruction);
  }
  const contextSources: string[] = [];
  for (const instruction of dockerfile.getInstructions()) {
    const keyword = instruction.getKeyword();
    if (keyword !== 'COPY' && keyword !== 'ADD') continue;
    // Flags (`--from`, `--chown`) are not arguments; a copy from another stage is not from the context.
    if ((instruction as Instruction & { getFromFlag?: () => unknown }).getFromFlag?.()) continue;
    const paths = instruction.getArguments().map((arg) => arg.getValue());
    contextSources.push(...paths.slice(0, -1).map((source) => source.replace(/^\.\//, '').replace(/\/+$/, '')));
  }
  const label = stages.at(-1)?.find((instruction) => instruction.getKeyword() === 'LABEL');
  const workspace = label && /khs\.workspace="([^"]+)"/.exec(label.getTextContent())?.[1];
  return { workspace, contextSources, stages };
}

/** A slice's manifest (`<slice>/slice.json`): data any image may copy (the registry discovers the slices from them). */
const isSliceManifest = (source: string) => /^[a-z][a-z0-9-]*\/slice\.json$/.test(source);
/** The modules the manifests declare for the shell to run at start (`remote.browserSettings.module`). */
const SHELL_RUN_SLICE_MODULES = SLICES.flatMap((slice) => (slice.remote?.browserSettings ? [`${slice.name}/${slice.remote.browserSettings.module}`] : []));

/** Sources a Dockerfile of `workspace` may not copy (anything but its closure, the root files, deploy/ and slice manifests). */
export function foreignSources(facts: DockerfileFacts, workspace: string): string[] {
  const allowed = new Set(workspaceClosure(workspace, true));
  return facts.contextSources.filter(
    (source) =>
      !ROOT_FILES.includes(source) && !source.startsWith('deploy/') && !allowed.has(source) && !isSliceManifest(source) && !(workspace === 'shell' && SHELL_RUN_SLICE_MODULES.includes(source)),
  );
}

const dockerfiles = readdirSync(DOCKER_DIR).filter((file) => file.endsWith('.Dockerfile')).sort();
const facts = new Map(dockerfiles.map((file) => [file, readDockerfile(readFileSync(path.join(DOCKER_DIR, file), 'utf8'))]));
const keyword = (instruction: Instruction) => instruction.getKeyword();
const lastStage = (file: string) => facts.get(file)!.stages.at(-1)!;

describe('the Dockerfiles (deploy/docker)', () => {
  it('exist for every deployable: the shell, each team service, the search server and each remote\'s origin', () => {
    expect(dockerfiles).toEqual(
      ['shell', 'search-engine', ...TEAM_SERVICES.map((service) => service.name), ...REMOTES.map((remote) => `${remote.name}-origin`)]
        .map((name) => `${name}.Dockerfile`)
        .sort(),
    );
    for (const service of TEAM_SERVICES) expect(facts.get(`${service.name}.Dockerfile`)!.workspace).toBe(service.slice);
    for (const remote of REMOTES) expect(facts.get(`${remote.name}-origin.Dockerfile`)!.workspace).toBe(remote.name);
  });

  it("the shell's image holds every slice's manifest (the registry discovers the slices from them) and the modules they declare for the shell to run, and nothing else of a slice", () => {
    const manifests = facts.get('shell.Dockerfile')!.contextSources.filter(isSliceManifest);
    expect(manifests.sort()).toEqual(SLICES.map((slice) => `${slice.name}/slice.json`));
    const modules = facts.get('shell.Dockerfile')!.contextSources.filter((source) => SHELL_RUN_SLICE_MODULES.includes(source));
    expect(modules.sort()).toEqual([...SHELL_RUN_SLICE_MODULES].sort());
  });

  it.each(dockerfiles)('%s passes the Dockerfile linter (dockerfile-utils)', (file) => {
    const problems = lintDockerfile(readFileSync(path.join(DOCKER_DIR, file), 'utf8')).map(
      (diagnostic) => `line ${diagnostic.range.start.line + 1}: ${diagnostic.message}`,
    );
    expect(problems).toEqual([]);
  });

  it.each(dockerfiles)('%s copies only its workspace, its workspace dependencies, the root package files and deploy/', (file) => {
    const { workspace } = facts.get(file)!;
    expect(workspace && workspaceByDir.has(workspace)).toBe(true);
    expect(facts.get(file)!.contextSources).toContain(workspace);
    expect(facts.get(file)!.contextSources).toEqual(expect.arrayContaining(['package.json', 'package-lock.json']));
    expect(foreignSources(facts.get(file)!, workspace!)).toEqual([]);
  });

  it.each(dockerfiles)('%s is multi-stage, installs with npm ci for its workspace, and its last stage runs as a non-root user with a HEALTHCHECK', (file) => {
    const { stages, workspace } = facts.get(file)!;
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const runs = stages.flat().filter((instruction) => keyword(instruction) === 'RUN').map((instruction) => instruction.getTextContent());
    expect(runs.some((run) => run.includes(`npm ci --workspace ${workspace}`))).toBe(true);
    const users = lastStage(file).filter((instruction) => keyword(instruction) === 'USER').map((instruction) => instruction.getArguments()[0]!.getValue());
    expect(users.length).toBeGreaterThan(0);
    expect(['root', '0']).not.toContain(users.at(-1));
    expect(lastStage(file).filter((instruction) => keyword(instruction) === 'HEALTHCHECK')).toHaveLength(1);
  });

  it.each(['shell', ...TEAM_SERVICES.map((service) => service.name)])('%s.Dockerfile copies every workspace it needs at run time and checks /health', (name) => {
    const file = `${name}.Dockerfile`;
    const { workspace, contextSources } = facts.get(file)!;
    expect(contextSources).toEqual(expect.arrayContaining(workspaceClosure(workspace!, false)));
    const healthcheck = lastStage(file).find((instruction) => keyword(instruction) === 'HEALTHCHECK')!.getTextContent();
    expect(healthcheck).toContain('/health`');
    expect(lastStage(file).map((instruction) => instruction.getTextContent()).join('\n')).toMatch(/tsx@(\S+)/);
  });

  it.each(dockerfiles)('%s builds and runs on the Node release scripts/with-node24.sh pins (its major is .nvmrc)', (file) => {
    const pinned = /^NODE24_VERSION="(\d+)\.(\d+)\.\d+"$/m.exec(readFileSync(path.join(ROOT, 'scripts/with-node24.sh'), 'utf8'));
    expect(pinned?.[1]).toBe(readFileSync(path.join(ROOT, '.nvmrc'), 'utf8').trim());
    const nodeImages = facts
      .get(file)!
      .stages.map((stage) => stage[0]!.getArguments()[0]!.getValue())
      .filter((image) => image.startsWith('node:'));
    expect(nodeImages.length).toBeGreaterThan(0);
    for (const image of nodeImages) expect(image).toMatch(new RegExp(`^node:${pinned![1]}\\.${pinned![2]}-`));
  });

  it('installs the tsx of the root lock file in the images that run TypeScript sources', () => {
    const tsx = (readJson('package.json') as { devDependencies: Record<string, string> }).devDependencies.tsx;
    for (const name of ['shell', ...TEAM_SERVICES.map((service) => service.name)]) {
      const text = lastStage(`${name}.Dockerfile`).map((instruction) => instruction.getTextContent()).join('\n');
      expect(text).toContain(`tsx@${tsx} `);
    }
  });

  it('the copy check catches a Dockerfile that copies another slice, and the linter a broken instruction', () => {
    const copiesAnotherSlice = readDockerfile(
      'FROM node:20 AS a\nCOPY package.json ./\nCOPY mf-survey/ mf-survey/\nCOPY mf-watchlist/server/ mf-watchlist/server/\nCOPY shell shell\nFROM node:20\nLABEL khs.workspace="mf-survey"\n',
    );
    expect(foreignSources(copiesAnotherSlice, 'mf-survey')).toEqual(['mf-watchlist/server', 'shell']);
    expect(lintDockerfile('FROM node:20\nEXPOSE port\nHEALTHCHECK --interval=soon CMD true\n').length).toBeGreaterThan(0);
  });
});

describe('the compose file (deploy/compose.yaml)', () => {
  const compose = parseYaml(readFileSync(path.join(ROOT, 'deploy/compose.yaml'), 'utf8'), { merge: true }) as {
    services: Record<string, { image?: string; build?: { context: string; dockerfile: string }; environment?: Record<string, string> }>;
  };
  // A draft-07 schema (ajv's default draft); its `$schema` names draft-07 by an address ajv does not list.
  const { $schema: _draft, ...schema } = readJson('deploy/vendor/compose-spec/compose-spec.json') as { $schema: string };
  const validateCompose = new Ajv({ allErrors: true, strict: false }).compile(schema);

  it('is valid against the Compose Specification schema', () => {
    const valid = validateCompose(compose);
    expect(validateCompose.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('the schema refuses a broken compose file (the validation can fail)', () => {
    expect(validateCompose({ services: { shell: { image: 'x', ports: 'not a list', restart: 'sometimes', unknown: true } } })).toBe(false);
  });

  it('builds every Dockerfile and runs PostgreSQL and a real Typesense 30.x', () => {
    const built = Object.values(compose.services).flatMap((service) => (service.build ? [path.basename(service.build.dockerfile)] : []));
    expect(built.filter((file) => file !== 'search-engine.Dockerfile').sort()).toEqual(dockerfiles.filter((file) => file !== 'search-engine.Dockerfile'));
    for (const service of Object.values(compose.services)) if (service.build) expect(service.build.context).toBe('..');
    expect(compose.services.typesense!.image).toMatch(/^typesense\/typesense:30\.\d+/);
    expect(compose.services.postgres!.image).toMatch(/^postgres:/);
  });

  it('wires what the shell and the team services read (registry variables, search, database, secret)', () => {
    const shell = compose.services.shell!.environment!;
    for (const remote of REMOTES) expect(shell[remote.manifestEnv]).toMatch(new RegExp(`^http://${remote.name}\\.localhost:${remote.defaultPort}/mf-manifest\\.json$`));
    for (const service of TEAM_SERVICES) {
      expect(shell[service.urlEnv]).toBe(`http://${service.name}:${service.defaultPort}`);
      const environment = compose.services[service.name]!.environment!;
      expect(environment.PORT).toBe(String(service.defaultPort));
      expect(environment.DATABASE_URL).toBe(shell.DATABASE_URL);
      // Its own edge key, the one the shell sends it; never the shell's cookie secret nor another service's key.
      expect(environment[service.edgeKeyEnv]).toBe(shell[service.edgeKeyEnv]);
      expect(environment.COOKIE_SECRET).toBeUndefined();
      for (const other of TEAM_SERVICES) if (other !== service) expect(environment[other.edgeKeyEnv]).toBeUndefined();
    }
    expect(shell.COOKIE_SECRET).toMatch(/^\$\{COOKIE_SECRET:\?/);
    expect(shell.DATABASE_URL).toMatch(/^postgres:\/\/khs:.*@postgres:5432\/khs$/);
    const searchServer = { TYPESENSE_HOST: 'search.localhost', TYPESENSE_PORT: '8108', TYPESENSE_PROTOCOL: 'http' };
    expect(shell).toMatchObject(searchServer);
    expect(Object.keys(shell)).toEqual(expect.arrayContaining(['TYPESENSE_SEARCH_API_KEY', 'PUBLIC_BASE_URL']));
  });

  it("gives Typesense's admin key to the search slice's service alone (it writes the index), never to the shell", () => {
    const shell = compose.services.shell!.environment!;
    expect(shell.TYPESENSE_API_KEY).toBeUndefined();
    for (const service of TEAM_SERVICES) {
      const environment = compose.services[service.name]!.environment!;
      if (service.writesSearchIndex) {
        expect(environment).toMatchObject({ TYPESENSE_HOST: 'search.localhost', TYPESENSE_PORT: '8108', TYPESENSE_PROTOCOL: 'http' });
        expect(environment.TYPESENSE_API_KEY).toMatch(/^\$\{TYPESENSE_API_KEY:\?/);
        expect(environment.TYPESENSE_SEARCH_API_KEY).toBeUndefined();
      } else {
        expect(environment.TYPESENSE_API_KEY).toBeUndefined();
      }
    }
    expect(TEAM_SERVICES.filter((service) => service.writesSearchIndex).map((service) => service.name)).toEqual(['search-team']);
  });
});
