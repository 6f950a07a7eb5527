/**
 * The Prometheus endpoint of a program (prom-client): `GET /metrics` on a port of its own (METRICS_PORT), never on
 * the public site, with the process metrics prom-client gives beside the program's own. Label values are bounded:
 * routes as patterns, kinds, outcomes and host names; never an address, an id or an e-mail.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { ConfigError } from './settings.js';

export interface MetricsEndpoint {
  url: string;
  close(): Promise<void>;
}

/** A registry with the process metrics in it (CPU, memory, event-loop lag, handles…). */
export function programRegistry(program: 'api' | 'worker'): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ program });
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** Serves `registry` at /metrics on `port` of `host`; every other path is 404. */
export async function serveMetrics(registry: Registry, port: number, host: string): Promise<MetricsEndpoint> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found: GET /metrics\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': registry.contentType }).end(text),
      (err: unknown) =>
        res
          .writeHead(500, { 'Content-Type': 'text/plain' })
          .end(`metrics could not be collected: ${(err as Error).message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${bound}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** METRICS_PORT: unset or empty, no endpoint; 0, a free port (tests). */
export function parseMetricsPort(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`METRICS_PORT must be a port number, got "${value}"`);
  return port;
}
