/**
 * A webhook receiver for tests: a real HTTP server on loopback that verifies every request's signature with the
 * standardwebhooks package, as a customer's CRM would, and keeps what came. It can answer 500, or be down (its port
 * closed) and come back on the same port.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { WebhookEventPayload } from '../server-shared/webhooks.js';

export interface Received {
  headers: Record<string, string>;
  body: string;
  /** The verified payload, or null when the signature did not verify. */
  event: WebhookEventPayload | null;
  /** What it answered. */
  status: number;
}

export interface Receiver {
  url: string;
  secret: string;
  received: Received[];
  /** The events verified and answered with a 2xx (taken), in the order they came. */
  taken(): WebhookEventPayload[];
  /** What it answers: a status (200 unless told), after `delayMs`. */
  answer: { status: number; delayMs: number; body: string };
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

function headersOf(request: IncomingMessage): Record<string, string> {
  return Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.join(', ') : (value ?? ''),
    ]),
  );
}

export async function startReceiver(secret: string): Promise<Receiver> {
  const webhook = new Webhook(secret);
  const received: Received[] = [];
  const answer = { status: 200, delayMs: 0, body: 'ok' };
  const listen = (server: Server, port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
  const make = () =>
    createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const headers = headersOf(request);
        let event: Received['event'];
        try {
          event = webhook.verify(body, headers) as WebhookEventPayload;
        } catch {
          event = null;
        }
        const status = answer.status;
        received.push({ headers, body, event, status });
        setTimeout(() => {
          response.writeHead(status, { 'content-type': 'text/plain' });
          response.end(answer.body);
        }, answer.delayMs);
      });
    });
  let server = make();
  await listen(server, 0);
  const { port } = server.address() as AddressInfo;
  const closeServer = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return {
    url: `http://127.0.0.1:${port}/hooks/converge`,
    secret,
    received,
    taken: () => received.flatMap((one) => (one.event && one.status >= 200 && one.status < 300 ? [one.event] : [])),
    answer,
    down: closeServer,
    async up() {
      server = make();
      await listen(server, port);
    },
    close: closeServer,
  };
}
