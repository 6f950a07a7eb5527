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
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
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
      expect(checked).to.match(/SUCCESS: 8 rules found/);
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
      'ConvergeSmsRefused',
      'ConvergeSmsUnbound',
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

  it("fires the texts' alerts, as promtool plays their series, only when they should", () => {
    const [rule] = manifests().filter((manifest) => manifest.kind === 'PrometheusRule');
    const rules = rule!.spec.groups!.flatMap((group) => group.rules);
    /** The alert as it fires: its rule's labels and annotations (none of them templated), no label of a series. */
    const firing = (alert: string) => {
      const one = rules.find((candidate) => candidate.alert === alert)!;
      return [{ exp_labels: one.labels, exp_annotations: one.annotations }];
    };
    const worker = 'program="worker"';
    const sms = (outcome: string) => `converge_sms_texts_total{kind="sms-confirmation",outcome="${outcome}",${worker}}`;
    const tests = [
      {
        // The bind drops at 2m; texts wait from 4m on: pending for 5 minutes, firing at 9m.
        interval: '1m',
        input_series: [
          { series: `converge_sms_bound{${worker}}`, values: '1 1 0x20' },
          { series: `converge_outbox_backlog{kind="sms-confirmation",${worker}}`, values: '0 0 0 0 2x20' },
          { series: `converge_outbox_backlog{kind="confirmation",${worker}}`, values: '5x22' },
        ],
        alert_rule_test: [
          { eval_time: '8m', alertname: 'ConvergeSmsUnbound', exp_alerts: [] },
          { eval_time: '10m', alertname: 'ConvergeSmsUnbound', exp_alerts: firing('ConvergeSmsUnbound') },
        ],
      },
      {
        // Two workers, one bound: texts go. Then neither bound but no text waiting (e-mails do): nothing to say.
        interval: '1m',
        input_series: [
          { series: `converge_sms_bound{${worker},pod="a"}`, values: '0x20' },
          { series: `converge_sms_bound{${worker},pod="b"}`, values: '1x10 0x10' },
          { series: `converge_outbox_backlog{kind="sms-reminder",${worker}}`, values: '3x10 0x10' },
          { series: `converge_outbox_backlog{kind="confirmation",${worker}}`, values: '5x20' },
        ],
        alert_rule_test: [
          { eval_time: '10m', alertname: 'ConvergeSmsUnbound', exp_alerts: [] },
          { eval_time: '20m', alertname: 'ConvergeSmsUnbound', exp_alerts: [] },
        ],
      },
      {
        // One text in three refused (a third of 30 minutes' tries): firing once that has held for 5 minutes.
        interval: '1m',
        input_series: [
          { series: sms('sent'), values: '0+2x60' },
          { series: sms('refused'), values: '0+1x60' },
          { series: sms('throttled'), values: '0+20x60' },
        ],
        alert_rule_test: [
          { eval_time: '3m', alertname: 'ConvergeSmsRefused', exp_alerts: [] },
          { eval_time: '40m', alertname: 'ConvergeSmsRefused', exp_alerts: firing('ConvergeSmsRefused') },
        ],
      },
      {
        // One in eleven refused, however many; and a few refused among none sent: neither is many.
        interval: '1m',
        input_series: [
          { series: sms('sent'), values: '0+10x60' },
          { series: sms('refused'), values: '0+1x60' },
          { series: `converge_sms_texts_total{kind="sms-reminder",outcome="refused",${worker}}`, values: '0x60' },
        ],
        alert_rule_test: [{ eval_time: '40m', alertname: 'ConvergeSmsRefused', exp_alerts: [] }],
      },
      {
        interval: '1m',
        input_series: [{ series: sms('refused'), values: '0 1 2 3 3x60' }],
        alert_rule_test: [{ eval_time: '20m', alertname: 'ConvergeSmsRefused', exp_alerts: [] }],
      },
    ];
    const folder = mkdtempSync(path.join(tmpdir(), 'converge-rules-'));
    try {
      writeFileSync(path.join(folder, 'rules.yaml'), stringify({ groups: rule!.spec.groups }));
      writeFileSync(
        path.join(folder, 'tests.yaml'),
        stringify({ rule_files: ['rules.yaml'], evaluation_interval: '1m', tests }),
      );
      // promtool exits non-zero, naming the alert and what it got, when a case fails.
      const played = execFileSync('promtool', ['test', 'rules', path.join(folder, 'tests.yaml')], {
        encoding: 'utf8',
      });
      expect(played).to.match(/SUCCESS/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
