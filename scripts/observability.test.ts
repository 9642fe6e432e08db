// The operators' observability files (deploy/observability/): Prometheus's scrape configuration
// and alert rules pass `promtool check config` / `check rules` (Debian's `prometheus` package;
// `npm test` installs it when missing), every PromQL query of the Grafana dashboard and of the Argo
// Rollouts analysis parses (checked by promtool as recording rules), the dashboard is valid against
// its JSON schema (deploy/observability/grafana/dashboard.schema.json), and the compose file runs
// Prometheus, Grafana and the OpenTelemetry collector with every part pointed at them.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TEAM_SERVICES } from '@khs/stack/registry';
import { Ajv } from 'ajv';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';

const ROOT = path.resolve(import.meta.dirname, '..');
const DIR = path.join(ROOT, 'deploy/observability');
const PROMTOOL = process.env.PROMTOOL_PATH ?? 'promtool';
const work = mkdtempSync(path.join(tmpdir(), 'khs-observability-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const read = (file: string) => readFileSync(path.join(DIR, file), 'utf8');
const promtoolFound = spawnSync(PROMTOOL, ['--version']).status === 0;

/** Runs promtool; fails the test with its output when it does not pass. */
function promtool(...args: string[]): string {
  if (!promtoolFound) throw new Error(`promtool not found: install Debian's "prometheus" package (apt-get install -y prometheus; npm test does it as root), or set PROMTOOL_PATH`);
  const result = spawnSync(PROMTOOL, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`promtool ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

/** Checks that each PromQL expression parses: promtool reads them as recording rules. */
function checkQueries(name: string, queries: string[]) {
  const file = path.join(work, `${name}.rules.yml`);
  writeFileSync(file, stringifyYaml({ groups: [{ name, rules: queries.map((expr, index) => ({ record: `khs:${name}:${index}`, expr })) }] }));
  expect(promtool('check', 'rules', file)).toContain(`SUCCESS: ${queries.length} rules found`);
}

describe('Prometheus', () => {
  it('the scrape configuration passes promtool check config (its secret files stood in for)', () => {
    const config = parseYaml(read('prometheus.yml')) as { rule_files: string[]; scrape_configs: Array<{ job_name: string; authorization?: { credentials_file?: string } }> };
    // The credential files are compose secrets (mounted at /run/secrets); promtool wants them to exist.
    for (const job of config.scrape_configs) {
      const file = job.authorization?.credentials_file;
      expect(file, `${job.job_name} scrapes with a token`).toMatch(/^\/run\/secrets\//);
      job.authorization!.credentials_file = path.join(work, path.basename(file!));
      writeFileSync(job.authorization!.credentials_file, 'token');
    }
    config.rule_files = [path.join(DIR, 'alerts.yml')];
    const file = path.join(work, 'prometheus.yml');
    writeFileSync(file, stringifyYaml(config));
    expect(promtool('check', 'config', file)).toContain('SUCCESS');
    expect(config.scrape_configs.map((job) => job.job_name)).toEqual(['shell', 'team-services', 'search-server', 'remote-origins']);
  });

  it('the alert rules pass promtool check rules and cover the failure and latency budgets', () => {
    expect(promtool('check', 'rules', path.join(DIR, 'alerts.yml'))).toContain('SUCCESS');
    const alerts = (parseYaml(read('alerts.yml')) as { groups: Array<{ rules: Array<{ alert: string; expr: string }> }> }).groups.flatMap((group) => group.rules);
    const exprs = alerts.map((rule) => rule.expr).join('\n');
    for (const metric of ['khs_island_server_failures_total', 'khs_island_browser_failures_total', 'khs_island_budget_overruns_total', 'khs_island_render_duration_seconds_bucket', 'http_request_duration_seconds_bucket', 'khs_search_query_duration_seconds_bucket']) {
      expect(exprs).toContain(metric);
    }
  });
});

describe('the Grafana dashboard', () => {
  const dashboard = JSON.parse(read('grafana/khs-site.json')) as {
    templating: { list: Array<{ name: string }> };
    panels: Array<{ id: number; type: string; repeat?: string; title: string; targets?: Array<{ expr: string }> }>;
  };

  it('is valid against the dashboard JSON schema', () => {
    const validate = new Ajv({ allErrors: true }).compile(JSON.parse(read('grafana/dashboard.schema.json')));
    expect(validate(dashboard) ? [] : validate.errors).toEqual([]);
  });

  it('has a row per part and per remote (a panel per build version), each repeat over a variable it defines, ids unique', () => {
    const variables = new Set(dashboard.templating.list.map((variable) => variable.name));
    const repeats = dashboard.panels.filter((panel) => panel.repeat).map((panel) => `${panel.type}:${panel.repeat}`);
    expect(repeats).toEqual(expect.arrayContaining(['row:part', 'row:remote', 'timeseries:version']));
    for (const panel of dashboard.panels) if (panel.repeat) expect(variables.has(panel.repeat), `${panel.title} repeats over $${panel.repeat}`).toBe(true);
    const ids = dashboard.panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('asks only queries Prometheus parses (variables filled in)', () => {
    const queries = dashboard.panels.flatMap((panel) => panel.targets ?? []).map((target) => target.expr.replaceAll('$__rate_interval', '5m').replace(/\$\w+/g, 'x'));
    checkQueries('dashboard', queries);
  });
});

describe('the Argo Rollouts analysis template', () => {
  const template = parseYaml(read('argo-rollouts-analysis.yaml')) as {
    apiVersion: string;
    kind: string;
    spec: { args: Array<{ name: string }>; metrics: Array<{ name: string; successCondition: string; provider: { prometheus: { query: string } } }> };
  };

  it('reads the island failure metrics of the canary build, with queries Prometheus parses', () => {
    expect([template.apiVersion, template.kind]).toEqual(['argoproj.io/v1alpha1', 'AnalysisTemplate']);
    const args = new Set(template.spec.args.map((arg) => arg.name));
    const queries = template.spec.metrics.map((metric) => metric.provider.prometheus.query);
    for (const query of queries) {
      expect(query).toContain('khs_island_browser_failures_total');
      for (const [, arg] of query.matchAll(/\{\{args\.([\w-]+)\}\}/g)) expect(args.has(arg!)).toBe(true);
    }
    checkQueries('analysis', queries.map((query) => query.replace(/\{\{args\.[\w-]+\}\}/g, 'x')));
  });
});

describe('the compose file', () => {
  const compose = parseYaml(readFileSync(path.join(ROOT, 'deploy/compose.yaml'), 'utf8'), { merge: true }) as {
    services: Record<string, { environment?: Record<string, string>; volumes?: string[]; secrets?: string[] }>;
    secrets: Record<string, { environment?: string }>;
  };

  it('runs Prometheus, Grafana and the OpenTelemetry collector with the shipped files', () => {
    for (const name of ['prometheus', 'grafana', 'otel-collector']) expect(compose.services[name], name).toBeDefined();
    for (const name of ['prometheus', 'grafana', 'otel-collector']) {
      for (const volume of compose.services[name]!.volumes ?? []) {
        const source = volume.split(':')[0]!;
        if (source.startsWith('./')) expect(existsSync(path.join(ROOT, 'deploy', source)), `${name} mounts ${source}`).toBe(true);
      }
    }
    expect(compose.services.prometheus!.secrets).toEqual(['operator_token', 'search_admin_key']);
    expect(compose.secrets.operator_token).toEqual({ environment: 'OPERATOR_TOKEN' });
  });

  it('points the shell and every team service at the collector and opens their /metrics to the token', () => {
    for (const name of ['shell', ...TEAM_SERVICES.map((service) => service.name)]) {
      expect(compose.services[name]?.environment?.OTEL_EXPORTER_OTLP_ENDPOINT, name).toBe('http://otel-collector:4318');
      expect(compose.services[name]?.environment?.OPERATOR_TOKEN, name).toMatch(/^\$\{OPERATOR_TOKEN/);
    }
  });

  it('the collector takes OTLP over HTTP on 4318 into a traces pipeline', () => {
    const collector = parseYaml(read('otel-collector.yaml')) as { receivers: { otlp: { protocols: { http: { endpoint: string } } } }; service: { pipelines: { traces: { receivers: string[] } } } };
    expect(collector.receivers.otlp.protocols.http.endpoint).toBe('0.0.0.0:4318');
    expect(collector.service.pipelines.traces.receivers).toContain('otlp');
  });
});

it('promtool is the one npm test installs (Debian prometheus)', () => {
  expect(promtoolFound ? execFileSync(PROMTOOL, ['--version'], { encoding: 'utf8' }) : 'missing').toMatch(/promtool, version/);
});
