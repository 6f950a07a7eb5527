/**
 * The Kubernetes manifests, as `kubectl kustomize deploy/overlays/production` renders them: every object valid against
 * the Kubernetes API's schemas (kubernetes-models: validators compiled by Ajv from Kubernetes' OpenAPI), and the
 * rules of operations: locked-down containers with requests and limits, the API's probes, migrations before the
 * API, autoscaling, disruption budgets, TLS, and secrets only by reference.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { expect } from 'chai';
import { parseAllDocuments } from 'yaml';
import { loadApiConfig } from '../api/config.js';
import type { Env } from '../server-shared/settings.js';
import { loadWorkerConfig } from '../worker/config.js';
import { REPO_ROOT } from './dev-services/config.js';
import { REQUIRED_SETTINGS, variablesRead } from '../test/settings-read.js';

const OVERLAY = path.join(REPO_ROOT, 'deploy', 'overlays', 'production');
/** What the programs get from the Secret converge-secrets; never a literal value in a manifest. */
const SECRET_VARIABLES = [
  'DATABASE_URL',
  'PGPASSWORD',
  'REDIS_URL',
  'SMTP_URL',
  'ADMIN_TOKEN',
  'BOOKING_LINK_SECRET',
  'BOOKING_LINK_PREVIOUS_SECRETS',
  'SMPP_URL',
];
/** Set by docker/Dockerfile (ENV), so the pods need not set them. */
const IMAGE_ENV = ['NODE_ENV', 'HOST', 'PORT', 'WEB_ROOT'];

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name: string; key: string; optional?: boolean };
    configMapKeyRef?: { name: string; key: string };
  };
}
interface Container {
  name: string;
  image: string;
  args?: string[];
  command?: string[];
  env?: EnvVar[];
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  ports?: Array<{ name?: string; containerPort: number }>;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: {
    runAsNonRoot?: boolean;
    readOnlyRootFilesystem?: boolean;
    allowPrivilegeEscalation?: boolean;
    capabilities?: { drop?: string[] };
  };
  readinessProbe?: { httpGet?: { path: string; port: string | number } };
  livenessProbe?: { httpGet?: { path: string; port: string | number } };
  lifecycle?: { preStop?: { exec?: { command: string[] }; sleep?: { seconds: number } } };
  volumeMounts?: Array<{ name: string; mountPath: string }>;
}
interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  securityContext?: { runAsNonRoot?: boolean };
  volumes?: Array<{ name: string; emptyDir?: object }>;
  terminationGracePeriodSeconds?: number;
}
interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
}

function render(): K8sObject[] {
  let output: string;
  try {
    output = execFileSync('kubectl', ['kustomize', OVERLAY], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const detail = (err as { stderr?: string; message: string }).stderr || (err as Error).message;
    throw new Error(
      `kubectl kustomize ${path.relative(REPO_ROOT, OVERLAY)} failed (kubectl 1.22+ is needed, for kustomize 4.2+): ${detail}`,
      { cause: err },
    );
  }
  return parseAllDocuments(output).map((document) => document.toJSON() as K8sObject);
}

const objects = render();

function find(kind: string, name: string): K8sObject {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in the rendered manifests`);
  return found;
}

function podSpecOf(object: K8sObject): PodSpec {
  return (object.spec as { template: { spec: PodSpec } }).template.spec;
}

const workloads = objects.filter((o) => ['Deployment', 'Job', 'StatefulSet', 'DaemonSet'].includes(o.kind));
const containersOf = (object: K8sObject) => [
  ...(podSpecOf(object).initContainers ?? []),
  ...podSpecOf(object).containers,
];
const mainContainer = (name: string) => podSpecOf(find('Deployment', name)).containers[0]!;

/** The validator kubernetes-models generated from the Kubernetes OpenAPI for this apiVersion and kind. */
const require = createRequire(import.meta.url);
function modelOf(object: K8sObject): new (data: unknown) => { validate(): void } {
  const module = require(`kubernetes-models/${object.apiVersion}/${object.kind}`) as Record<
    string,
    new (data: unknown) => { validate(): void }
  >;
  const model = module[object.kind];
  if (!model) throw new Error(`kubernetes-models has no ${object.apiVersion} ${object.kind}`);
  return model;
}

/** The environment a container starts with: its ConfigMaps, its literal values, and a stand-in for each secret. */
function environmentOf(container: Container): Env {
  const env: Env = {};
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef) Object.assign(env, find('ConfigMap', source.configMapRef.name).data);
  }
  for (const variable of container.env ?? []) {
    if (variable.value !== undefined) env[variable.name] = variable.value;
    else if (variable.valueFrom?.secretKeyRef) env[variable.name] = secretStandIn(variable.name);
  }
  return env;
}

function secretStandIn(name: string): string {
  if (name === 'ADMIN_TOKEN') return 'x'.repeat(64);
  if (name === 'BOOKING_LINK_PREVIOUS_SECRETS') return 'p'.repeat(64);
  if (name === 'WEBHOOK_URL') return 'https://crm.example.com/hooks/converge';
  if (name === 'WEBHOOK_SECRET') return `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
  if (name in REQUIRED_SETTINGS) return REQUIRED_SETTINGS[name] ?? '';
  if (name === 'DATABASE_URL') return 'postgres://converge@db.example.com:5432/converge?sslmode=require';
  if (name === 'REDIS_URL') return 'rediss://:secret@redis.example.com:6380';
  if (name === 'SMTP_URL') return 'smtps://user:secret@smtp.example.com:465';
  if (name === 'REPLY_MAILBOX_URL') return 'imaps://replies:secret@imap.example.com/INBOX';
  if (name === 'REPLY_MAILBOX_ADDRESS') return 'demo-replies@converge.example.com';
  if (name === 'SMPP_URL') return 'smpp://converge:secret@smsc.example.com:2775';
  return 'secret';
}

describe('Kubernetes manifests (kubectl kustomize deploy/overlays/production)', () => {
  it('render the API, the worker, the migration Job and what serves and scales them', () => {
    const names = objects.map((o) => `${o.kind}/${o.metadata.name}`).sort();
    expect(names).to.include.members([
      'Deployment/converge-api',
      'Deployment/converge-worker',
      'Job/converge-migrate',
      'Service/converge-api',
      'Ingress/converge-api',
      'HorizontalPodAutoscaler/converge-api',
      'HorizontalPodAutoscaler/converge-worker',
      'PodDisruptionBudget/converge-api',
      'PodDisruptionBudget/converge-worker',
    ]);
    // PostgreSQL and Redis are managed services, named by URL: nothing here runs them.
    expect(names.filter((name) => /postgres|redis/i.test(name))).to.deep.equal([]);
  });

  describe('every object is valid against the Kubernetes API schema', () => {
    for (const object of objects) {
      it(`${object.apiVersion} ${object.kind} ${object.metadata.name}`, () => {
        const Model = modelOf(object);
        try {
          new Model(object).validate();
        } catch (err) {
          expect.fail(`${object.kind} ${object.metadata.name}: ${err instanceof Error ? err.message : String(err)}`);
        }
        if (object.kind !== 'Namespace') expect(object.metadata.namespace, 'namespace').to.equal('converge');
      });
    }

    it('(and the validation refuses what the API server would)', () => {
      const api = find('Deployment', 'converge-api');
      const broken = JSON.parse(JSON.stringify(api)) as K8sObject & { spec: { replicas: unknown } };
      broken.spec.replicas = 'two';
      expect(() => new (modelOf(broken))(broken).validate()).to.throw(/replicas/);
      const unnamed = JSON.parse(JSON.stringify(api)) as K8sObject;
      delete (podSpecOf(unnamed).containers[0] as Partial<Container>).name;
      expect(() => new (modelOf(unnamed))(unnamed).validate()).to.throw(/name/);
    });
  });

  describe('every container', () => {
    for (const workload of workloads) {
      for (const container of containersOf(workload)) {
        const label = `${workload.kind} ${workload.metadata.name}, container ${container.name}`;

        it(`${label}: requests and limits for CPU and memory`, () => {
          for (const bound of ['requests', 'limits'] as const) {
            expect(container.resources?.[bound], bound).to.include.keys('cpu', 'memory');
          }
        });

        it(`${label}: non-root, read-only root file system with a /tmp of its own, no privilege escalation, no capabilities`, () => {
          const pod = podSpecOf(workload);
          expect(container.securityContext?.runAsNonRoot ?? pod.securityContext?.runAsNonRoot).to.equal(true);
          expect(container.securityContext?.readOnlyRootFilesystem).to.equal(true);
          expect(container.securityContext?.allowPrivilegeEscalation).to.equal(false);
          expect(container.securityContext?.capabilities?.drop).to.deep.equal(['ALL']);
          const tmp = container.volumeMounts?.find((mount) => mount.mountPath === '/tmp');
          expect(tmp, '/tmp mount').to.not.equal(undefined);
          expect(pod.volumes?.find((volume) => volume.name === tmp?.name)?.emptyDir).to.be.an('object');
        });

        it(`${label}: the one image, pinned to a release tag`, () => {
          expect(container.image).to.match(/^registry\.example\.com\/northstar\/converge-app:\d+\.\d+\.\d+$/);
        });

        it(`${label}: secrets only from the Secret converge-secrets, never written into the manifest`, () => {
          for (const variable of container.env ?? []) {
            if (SECRET_VARIABLES.includes(variable.name)) {
              expect(variable.valueFrom?.secretKeyRef?.name, variable.name).to.equal('converge-secrets');
            }
          }
        });
      }
    }
  });

  it('hold no secret: no Secret objects, no secret-looking setting or credential URL in a ConfigMap', () => {
    expect(objects.filter((o) => o.kind === 'Secret').map((o) => o.metadata.name)).to.deep.equal([]);
    for (const configMap of objects.filter((o) => o.kind === 'ConfigMap')) {
      for (const [key, value] of Object.entries(configMap.data ?? {})) {
        expect(SECRET_VARIABLES, `${configMap.metadata.name}: ${key}`).to.not.include(key);
        expect(key, configMap.metadata.name).to.not.match(/PASSWORD|TOKEN|SECRET|KEY/);
        expect(value, `${configMap.metadata.name}: ${key}`).to.not.match(/:\/\/[^/\s]*:[^/\s]*@/);
      }
    }
  });

  for (const [name, load, program] of [
    ['converge-api', loadApiConfig, 'dist/api/main.js'],
    ['converge-worker', loadWorkerConfig, 'dist/worker/main.js'],
  ] as const) {
    it(`${name}: runs ${program} with every setting it reads, and values it accepts`, () => {
      const container = mainContainer(name);
      // The tracing entry is loaded first (docs/traces.md).
      expect(container.args).to.deep.equal([
        'node',
        '--import',
        `./${program.replace(/main\.js$/, 'telemetry.js')}`,
        program,
      ]);
      const environment = environmentOf(container);
      // REPLY_TO defaults to MAIL_FROM; DKIM signing is off unless its settings are added (docs/kubernetes.md).
      // SECRETS_DIR is for docker compose's shared volume: pods take their secrets from converge-secrets, since a
      // folder of each pod's own would give each pod a booking-link secret of its own. TEAM_FILE is a deployment's
      // own team (docs/hosts-and-calendars.md): without it the slots are as before; ACCOUNTS_FILE and OWNER_LOOKUP_*
      // name owners among that team, so they come with it.
      const optional = [
        'REPLY_TO',
        'SECRETS_DIR',
        'DKIM_DOMAIN',
        'DKIM_SELECTOR',
        'DKIM_PRIVATE_KEY',
        'DKIM_PRIVATE_KEY_FILE',
        'TEAM_FILE',
        'ACCOUNTS_FILE',
        'OWNER_LOOKUP_URL',
        'OWNER_LOOKUP_SECRET',
      ];
      const unset = variablesRead(load).filter(
        (variable) => !(variable in environment) && !IMAGE_ENV.includes(variable) && !optional.includes(variable),
      );
      expect(unset).to.deep.equal([]);
      expect(() => load(environment)).to.not.throw();
    });
  }

  describe('the API', () => {
    const api = find('Deployment', 'converge-api');
    const container = mainContainer('converge-api');
    const port = container.ports?.find((p) => p.name === 'http');

    it('runs at least two replicas, rolling without dropping below them', () => {
      expect((api.spec as { replicas: number }).replicas).to.be.at.least(2);
      expect(api.spec).to.have.nested.property('strategy.rollingUpdate.maxUnavailable', 0);
    });

    it('is ready on /readyz and alive on /healthz, on its port', () => {
      expect(port?.containerPort).to.equal(loadApiConfig(environmentOf(container)).port);
      expect(container.readinessProbe?.httpGet).to.deep.equal({ path: '/readyz', port: 'http' });
      expect(container.livenessProbe?.httpGet).to.deep.equal({ path: '/healthz', port: 'http' });
    });

    it('keeps serving a moment after SIGTERM (preStop), within its grace period', () => {
      const preStop = container.lifecycle?.preStop;
      const pause =
        preStop?.sleep?.seconds ??
        Number(/^sleep$/.test(preStop?.exec?.command[0] ?? '') ? preStop?.exec?.command[1] : NaN);
      expect(pause).to.be.within(1, 10);
      // The pause, then the API's 8 s drain, must end before the kubelet's SIGKILL.
      expect(podSpecOf(api).terminationGracePeriodSeconds).to.be.at.least(pause + 10);
    });

    it('starts only after the migration Job: the Job migrates, an init container waits, nothing else migrates', () => {
      const job = podSpecOf(find('Job', 'converge-migrate'));
      expect(job.containers[0]?.args).to.deep.equal(['node', 'dist/api/migrate.js']);
      expect(podSpecOf(api).initContainers?.map((c) => c.args)).to.deep.equal([
        ['node', 'dist/api/migrate.js', '--wait'],
      ]);
      for (const workload of workloads) {
        for (const c of containersOf(workload))
          expect(c.args ?? [], `${workload.metadata.name}/${c.name}`).to.not.include('--migrate');
      }
    });

    it('is reached over TLS through the Ingress, the one proxy TRUST_PROXY counts', () => {
      const service = find('Service', 'converge-api');
      const servicePort = (service.spec as { ports: Array<{ name: string; targetPort: string }> }).ports[0];
      expect(servicePort?.targetPort).to.equal(port?.name);
      expect(service.spec).to.have.property('selector').that.deep.equals({ 'app.kubernetes.io/name': 'converge-api' });
      const ingress = find('Ingress', 'converge-api').spec as {
        tls: Array<{ hosts: string[]; secretName: string }>;
        rules: Array<{
          host: string;
          http: { paths: Array<{ backend: { service: { name: string; port: { name: string } } } }> };
        }>;
      };
      const tlsHosts = ingress.tls.flatMap((entry) => entry.hosts);
      for (const rule of ingress.rules) {
        expect(tlsHosts, rule.host).to.include(rule.host);
        for (const p of rule.http.paths)
          expect(p.backend.service).to.deep.equal({ name: 'converge-api', port: { name: servicePort?.name } });
      }
      expect(ingress.tls.every((entry) => entry.secretName)).to.equal(true);
      expect(loadApiConfig(environmentOf(container)).trustProxy).to.equal(1);
      const publicUrl = new URL(loadApiConfig(environmentOf(container)).publicUrl);
      expect(publicUrl.protocol).to.equal('https:');
      expect(tlsHosts).to.include(publicUrl.hostname);
    });
  });

  for (const name of ['converge-api', 'converge-worker']) {
    it(`${name}: scales on CPU (HPA) and keeps a pod through node drains (PDB)`, () => {
      const deployment = find('Deployment', name);
      const labels = (deployment.spec as { template: { metadata: { labels: Record<string, string> } } }).template
        .metadata.labels;
      const hpa = find('HorizontalPodAutoscaler', name).spec as {
        scaleTargetRef: { kind: string; name: string };
        minReplicas: number;
        maxReplicas: number;
        metrics: Array<{ resource?: { name: string } }>;
      };
      expect(hpa.scaleTargetRef).to.include({ kind: 'Deployment', name });
      expect(hpa.minReplicas).to.be.at.least(2);
      expect(hpa.maxReplicas).to.be.above(hpa.minReplicas);
      expect(hpa.metrics.map((metric) => metric.resource?.name)).to.include('cpu');
      const pdb = find('PodDisruptionBudget', name).spec as {
        minAvailable: number;
        selector: { matchLabels: Record<string, string> };
      };
      expect(pdb.minAvailable).to.be.below(hpa.minReplicas);
      for (const [key, value] of Object.entries(pdb.selector.matchLabels)) expect(labels[key], key).to.equal(value);
    });
  }

  it('the worker stops within its grace period (it exits within 10 s of SIGTERM)', () => {
    expect(podSpecOf(find('Deployment', 'converge-worker')).terminationGracePeriodSeconds).to.be.at.least(15);
  });
});
