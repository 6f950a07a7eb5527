/**
 * deploy/monitoring, for the Prometheus Operator: the PodMonitors and the PrometheusRule render with kustomize, the
 * rules pass `promtool check rules` (Debian's prometheus package), each alert has a runbook line in docs/alerts.md,
 * and every metric a rule or a dashboard panel names is one the API or the worker exports.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { Histogram } from 'prom-client';
import { parseAllDocuments, stringify } from 'yaml';
import { createApiMetrics } from '../api/metrics.js';
import { HostCalendars } from '../api/hosts/calendars.js';
import { parseTeam } from '../server-shared/hosts/team.js';
import { silentLogger } from '../test/stack.js';
import { createWorkerMetrics } from '../worker/metrics.js';
import { REPO_ROOT } from './dev-services/config.js';

const FOLDER = path.join(REPO_ROOT, 'deploy', 'monitoring');

interface Rule {
  alert: string;
  expr: string;
}
type Manifest = {
  kind: string;
  metadata: { name: string };
  spec: { groups?: { name: string; rules: Rule[] }[]; podMetricsEndpoints?: { port: string }[] };
};

const manifests = (): Manifest[] =>
  parseAllDocuments(execFileSync('kubectl', ['kustomize', FOLDER], { encoding: 'utf8' })).map(
    (document) => document.toJSON() as Manifest,
  );

/** Every metric the two programs register, with a histogram's series. */
function exported(): Set<string> {
  const team = parseTeam(
    JSON.stringify({
      hosts: [
        {
          name: 'A',
          title: 'T',
          email: 'a@converge.test',
          calendarUrl: 'http://127.0.0.1:1/a/',
          calendarUsername: 'a',
          calendarPassword: 'x',
        },
      ],
    }),
    {},
  ).hosts;
  const api = createApiMetrics(
    new HostCalendars(team, { logger: silentLogger, bookingTimeZone: 'Europe/Berlin' }),
  ).registry;
  // Nothing is scraped here: the database and the queue are never asked.
  const worker = createWorkerMetrics({} as never, { getJobCounts: async () => ({}) }).registry;
  const names = new Set<string>();
  for (const metric of [...api.getMetricsAsArray(), ...worker.getMetricsAsArray()]) {
    names.add(metric.name);
    if ((metric as object) instanceof Histogram)
      for (const suffix of ['_bucket', '_count', '_sum']) names.add(`${metric.name}${suffix}`);
  }
  return names;
}

const metricNames = (expr: string): string[] =>
  [...expr.matchAll(/\b(converge_[a-z_]+|process_[a-z_]+|nodejs_[a-z_]+)\b/g)].map((match) => match[1]!);

describe('deploy/monitoring (Prometheus Operator): scraping, alerts and a dashboard', () => {
  it("scrapes the API and the worker by their pods' metrics port, which the deployments name", () => {
    const monitors = manifests().filter((manifest) => manifest.kind === 'PodMonitor');
    expect(monitors.map((monitor) => monitor.metadata.name).sort()).to.deep.equal(['converge-api', 'converge-worker']);
    for (const monitor of monitors)
      expect(monitor.spec.podMetricsEndpoints?.map((endpoint) => endpoint.port)).to.deep.equal(['metrics']);
    for (const deployment of ['api-deployment.yaml', 'worker-deployment.yaml']) {
      expect(readFileSync(path.join(REPO_ROOT, 'deploy', 'base', deployment), 'utf8')).to.match(
        /name: metrics, containerPort: 946[45]/,
      );
    }
  });

  it('has rules promtool accepts, each alert with its runbook line in docs/alerts.md', () => {
    const [rule] = manifests().filter((manifest) => manifest.kind === 'PrometheusRule');
    expect(rule, 'a PrometheusRule').to.not.equal(undefined);
    const folder = mkdtempSync(path.join(tmpdir(), 'converge-rules-'));
    try {
      const file = path.join(folder, 'rules.yaml');
      writeFileSync(file, stringify({ groups: rule!.spec.groups }));
      const checked = execFileSync('promtool', ['check', 'rules', file], { encoding: 'utf8' });
      expect(checked).to.match(/SUCCESS: 6 rules found/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    const runbook = readFileSync(path.join(REPO_ROOT, 'docs', 'alerts.md'), 'utf8');
    const alerts = rule!.spec.groups!.flatMap((group) => group.rules.map((one) => one.alert));
    expect(alerts.sort()).to.deep.equal([
      'ConvergeApiErrors',
      'ConvergeConfirmationsFailing',
      'ConvergeHostCalendarUnreadable',
      'ConvergeNoWorker',
      'ConvergeOutboxStuck',
      'ConvergeWebhookEndpointFailing',
    ]);
    for (const alert of alerts) expect(runbook, alert).to.match(new RegExp(`^- \\*\\*\`${alert}\`\\*\\*`, 'm'));
  });

  it('names in its rules and its dashboard only metrics the code exports', () => {
    const names = exported();
    const [rule] = manifests().filter((manifest) => manifest.kind === 'PrometheusRule');
    const inRules = rule!.spec.groups!.flatMap((group) => group.rules.flatMap((one) => metricNames(one.expr)));
    const dashboard = JSON.parse(readFileSync(path.join(FOLDER, 'grafana-dashboard.json'), 'utf8')) as {
      panels: { targets: { expr: string }[] }[];
    };
    const inPanels = dashboard.panels.flatMap((panel) => panel.targets.flatMap((target) => metricNames(target.expr)));
    expect(inRules.length).to.be.greaterThan(4);
    expect(inPanels.length).to.be.greaterThan(9);
    expect([...new Set([...inRules, ...inPanels])].filter((name) => !names.has(name))).to.deep.equal([]);
  });
});
