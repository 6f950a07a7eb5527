import { expect } from 'chai';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret } from '../../server-shared/webhooks.js';
import { createOwnerLookup, type OwnerLookupFailure } from './owner-lookup.js';

const team = new Map([['dana@converge.test', 'Dana@converge.test']]);

describe("the owner lookup (OWNER_LOOKUP_URL): the company's own service, asked with a signed POST", function () {
  this.timeout(20_000);
  const secret = newWebhookSecret();
  let server: Server;
  let url: string;
  const asked: { url: string; body: { email: string; domain: string }; verified: boolean }[] = [];
  /** What the service answers, by the e-mail asked about. */
  const answers = new Map<string, { status: number; body?: string; delayMs?: number }>();

  const bodyOf = (request: IncomingMessage) =>
    new Promise<string>((resolve) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });

  before(async () => {
    server = createServer((request, response) => {
      void bodyOf(request).then((text) => {
        let verified = true;
        try {
          new Webhook(secret).verify(text, request.headers as Record<string, string>);
        } catch {
          verified = false;
        }
        const body = JSON.parse(text) as { email: string; domain: string };
        asked.push({ url: request.url ?? '', body, verified });
        const answer = answers.get(body.email) ?? { status: 404 };
        setTimeout(
          () => response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body),
          answer.delayMs ?? 0,
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/owner`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => (asked.length = 0));

  const lookup = (failures: OwnerLookupFailure[], at = url) =>
    createOwnerLookup({ url: at, secret, team, failed: (why) => failures.push(why), timeoutMs: 300 });

  it('answers the owner the service names, as the team file writes the host, and keeps the answer a while', async () => {
    answers.set('cfo@bank.example', { status: 200, body: JSON.stringify({ owner: 'DANA@converge.test' }) });
    const failures: OwnerLookupFailure[] = [];
    const owners = lookup(failures);
    const [first, ...rest] = await Promise.all(
      Array.from({ length: 5 }, () => owners.ownerOf('cfo@bank.example', 'bank.example')),
    );
    expect(first).to.equal('Dana@converge.test');
    expect(rest).to.deep.equal([
      'Dana@converge.test',
      'Dana@converge.test',
      'Dana@converge.test',
      'Dana@converge.test',
    ]);
    expect(await owners.ownerOf('CFO@bank.example', 'bank.example')).to.equal('Dana@converge.test');
    // One question for all six, signed, the address in its body and nowhere in its URL.
    expect(asked).to.deep.equal([
      { url: '/owner', body: { email: 'cfo@bank.example', domain: 'bank.example' }, verified: true },
    ]);
    expect(failures).to.deep.equal([]);
  });

  it('answers none when the service knows none (404), and keeps that too', async () => {
    const owners = lookup([]);
    expect(await owners.ownerOf('ceo@shop.example', 'shop.example')).to.equal(null);
    expect(await owners.ownerOf('ceo@shop.example', 'shop.example')).to.equal(null);
    expect(asked).to.have.length(1);
  });

  it('fails, counted by why, on an error, a slow answer, an answer naming no host and no service; and asks again next time', async () => {
    answers.set('a@error.example', { status: 500, body: '{}' });
    answers.set('b@slow.example', { status: 200, body: JSON.stringify({ owner: 'dana@converge.test' }), delayMs: 600 });
    answers.set('c@stranger.example', { status: 200, body: JSON.stringify({ owner: 'lina@converge.test' }) });
    answers.set('d@garbled.example', { status: 200, body: '<html>' });
    const failures: OwnerLookupFailure[] = [];
    const owners = lookup(failures);
    expect(await owners.ownerOf('a@error.example', 'error.example')).to.equal(undefined);
    expect(await owners.ownerOf('a@error.example', 'error.example')).to.equal(undefined);
    expect(await owners.ownerOf('b@slow.example', 'slow.example')).to.equal(undefined);
    expect(await owners.ownerOf('c@stranger.example', 'stranger.example')).to.equal(undefined);
    expect(await owners.ownerOf('d@garbled.example', 'garbled.example')).to.equal(undefined);
    // A port just freed: nothing listens there.
    const spare = createServer();
    await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve));
    const { port } = spare.address() as AddressInfo;
    await new Promise((resolve) => spare.close(resolve));
    const closed = lookup(failures, `http://127.0.0.1:${port}/owner`);
    expect(await closed.ownerOf('e@down.example', 'down.example')).to.equal(undefined);
    expect(failures).to.deep.equal(['status', 'status', 'timeout', 'answer', 'answer', 'unreachable']);
  });
});
