/**
 * The SMSC's window: the worker never has more submits awaiting an answer than SMPP_URL's `window` allows, however
 * many texts it is given at once, and each text past the window goes once a slot comes back. Against a real SMPP
 * server (npm `smpp`'s server side) that holds its answers until the test lets them go.
 */
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import pino from 'pino';
import smpp, { type PDU, type Session } from 'smpp';
import { until } from '../../test/until.js';
import { SmppLink, SmppUnbound } from './smpp-link.js';

describe('the worker’s bind and the SMSC’s window', function () {
  this.timeout(20_000);
  let server: ReturnType<typeof smpp.createServer>;
  let port: number;
  /** Submits taken and not yet answered, and the most there ever were. */
  const held: { pdu: PDU; session: Session }[] = [];
  let mostHeld = 0;
  let link: SmppLink | undefined;

  const answerAll = () => {
    for (const { pdu, session } of held.splice(0))
      session.send(pdu.response({ message_id: `id-${String(pdu.destination_addr)}` }));
  };

  before(async () => {
    server = smpp.createServer((session) => {
      session.on('error', () => {});
      session.on('bind_transceiver', (pdu: PDU) => session.send(pdu.response({ system_id: 'window-test' })));
      session.on('enquire_link', (pdu: PDU) => session.send(pdu.response()));
      session.on('submit_sm', (pdu: PDU) => {
        held.push({ pdu, session });
        mostHeld = Math.max(mostHeld, held.length);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    port = (server.address() as AddressInfo).port;
  });
  afterEach(async () => {
    answerAll();
    await link?.close();
    link = undefined;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const bind = (window: number, submitTimeoutMs = 10_000) => {
    link = new SmppLink({
      settings: { host: '127.0.0.1', port, systemId: 'converge', password: 'secret', from: 'Converge', window },
      logger: pino({ level: 'silent' }),
      onInbound: async () => {},
      submitTimeoutMs,
    });
    link.start();
    return link;
  };

  it('keeps at most the window’s submits unanswered, and sends the rest as answers come back', async () => {
    mostHeld = 0;
    const smsc = bind(3);
    const signal = new AbortController().signal;
    const texts = Array.from({ length: 10 }, (_, index) => smsc.submit(`+3361234560${index}`, 'hello', signal));
    await until(async () => held.length === 3 || undefined, 'three submits at the SMSC');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(held, 'no fourth submit before an answer').to.have.length(3);
    while (held.length > 0 || mostHeld < 3) {
      answerAll();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const ids = await Promise.all(texts);
    expect(ids).to.have.length(10);
    expect(new Set(ids).size, 'each text submitted once').to.equal(10);
    expect(mostHeld).to.equal(3);
  });

  it('gives a text up, as not handed over, when its try ends while the window is full', async () => {
    const smsc = bind(1);
    const first = smsc.submit('+33612345610', 'first', new AbortController().signal);
    await until(async () => held.length === 1 || undefined, 'the first submit at the SMSC');
    // The claim's lease ending aborts the try, as the outbox does.
    const lease = new AbortController();
    setTimeout(() => lease.abort(), 200);
    let secondError: unknown;
    await smsc.submit('+33612345611', 'second', lease.signal).catch((err: unknown) => (secondError = err));
    expect(secondError).to.be.instanceOf(SmppUnbound);
    answerAll();
    expect(await first).to.equal('id-33612345610');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(held, 'the given-up text never reaches the SMSC').to.have.length(0);
    // Its slot is not lost: the next text goes at once.
    const third = smsc.submit('+33612345612', 'third', new AbortController().signal);
    await until(async () => held.length === 1 || undefined, 'the third submit at the SMSC');
    answerAll();
    expect(await third).to.equal('id-33612345612');
  });
});
