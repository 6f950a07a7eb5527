/**
 * The texts as operations see them (issue 40 point 6): the API and the worker with SMPP_URL pointing at a real SMSC
 * (test/smsc.ts) and METRICS_PORT set; the worker's /metrics counts each try of a text by kind and outcome, each
 * delivery receipt by state, and shows the bind (up or not) and its binds and drops as the SMSC makes them happen.
 */
import { expect } from 'chai';
import smpp from 'smpp';
import { bookableSlots, bookWithTexts } from '../../test/booking.js';
import { sample } from '../../test/prometheus.js';
import { startSmsc, type Smsc } from '../../test/smsc.js';
import { startStack, type Stack } from '../../test/stack.js';
import { until } from '../../test/until.js';

describe('the texts and the SMPP bind in the worker’s metrics', function () {
  this.timeout(60_000);
  let smsc: Smsc;
  let stack: Stack;
  const slots = bookableSlots(4);

  before(async () => {
    smsc = await startSmsc();
    stack = await startStack({
      env: { SMPP_URL: smsc.url, SMS_FROM: 'Converge', METRICS_PORT: '0' },
      workerOptions: {
        sweepEveryMs: 500,
        sweepGraceMs: 2000,
        // A rebind slower than a text's wait for the bind: a text sent while the bind is down fails once.
        smpp: { enquireLinkMs: 200, rebindFirstMs: 3000, rebindMaxMs: 3000, submitTimeoutMs: 500 },
      },
    });
  });
  after(async () => {
    await stack?.close();
    await smsc?.stop();
  });

  const scrape = async () => {
    const answer = await fetch(stack.worker!.metricsUrl!);
    expect(answer.status).to.equal(200);
    return answer.text();
  };
  /** Scrapes until `ready` holds of the text; fails with `what` after 20 s. */
  const scrapeUntil = (what: string, ready: (text: string) => boolean) =>
    until(
      async () => {
        const text = await scrape();
        return ready(text) ? text : undefined;
      },
      what,
      20_000,
    );
  const texts = (text: string, kind: string, outcome: string) =>
    sample(text, 'converge_sms_texts_total', { kind, outcome });
  const book = (slot: number, email: string, phone: string) => bookWithTexts(stack.url, slots[slot]!.iso, email, phone);
  const receivedTo = (number: string) =>
    until(async () => smsc.received.find((text) => text.to === number), `a text to ${number}`, 20_000);

  it('shows the bind up once bound, and counts a text sent and its receipt by state', async () => {
    const bound = await scrapeUntil('the bind up', (text) => sample(text, 'converge_sms_bound') === 1);
    expect(sample(bound, 'converge_sms_bind_events_total', { event: 'bound' })).to.equal(1);
    expect(sample(bound, 'converge_sms_bind_events_total', { event: 'dropped' })).to.equal(0);

    await book(0, 'ada@analytical-engines.com', '+33 6 12 34 56 90');
    const text = await receivedTo('+33612345690');
    const sent = await scrapeUntil('the text counted', (t) => texts(t, 'sms-confirmation', 'sent') === 1);
    expect(texts(sent, 'sms-confirmation', 'refused')).to.equal(0);
    expect(sample(sent, 'converge_sms_receipts_total', { state: 'delivered' })).to.equal(0);

    // The receipt is answered once recorded on the row (a receipt that comes before is refused for now, not counted).
    await until(async () => {
      const [row] = await stack.db('deliveries').where({ sms_message_id: text.messageId });
      return row;
    }, 'the message id recorded');
    expect(await smsc.sendReceipt(text.messageId, 'DELIVRD')).to.equal(0);
    expect(await smsc.sendReceipt(text.messageId, 'NOSUCHW')).to.equal(0);
    const receipted = await scrape();
    expect(sample(receipted, 'converge_sms_receipts_total', { state: 'delivered' })).to.equal(1);
    // A word SMPP does not name is counted apart, never as a label of its own.
    expect(sample(receipted, 'converge_sms_receipts_total', { state: 'other' })).to.equal(1);
    expect(receipted).to.not.match(/state="nosuchw"/);
  });

  it('counts a throttled try, then the text sent, and a text the SMSC refuses for good', async () => {
    smsc.refuseNext(1, smpp.ESME_RTHROTTLED, '+33612345691');
    await book(1, 'grace@analytical-engines.com', '+33 6 12 34 56 91');
    await receivedTo('+33612345691');
    const throttled = await scrapeUntil('the second text counted', (t) => texts(t, 'sms-confirmation', 'sent') === 2);
    expect(texts(throttled, 'sms-confirmation', 'throttled')).to.equal(1);

    smsc.refuseNext(1, smpp.ESME_RINVDSTADR, '+33612345692');
    await book(2, 'alan@analytical-engines.com', '+33 6 12 34 56 92');
    const refused = await scrapeUntil('the refusal counted', (t) => texts(t, 'sms-confirmation', 'refused') === 1);
    expect(texts(refused, 'sms-confirmation', 'sent')).to.equal(2);
    expect(texts(refused, 'sms-confirmation', 'throttled')).to.equal(1);
  });

  it('shows the bind down while the SMSC has dropped it, counts the drop, the rebind and a text that found no bind', async () => {
    smsc.dropBinds();
    const down = await scrapeUntil('the bind down', (text) => sample(text, 'converge_sms_bound') === 0);
    expect(down).to.match(/^converge_sms_bound\{[^}]*\} 0$/m);
    expect(sample(down, 'converge_sms_bind_events_total', { event: 'dropped' })).to.equal(1);
    // A text while the bind is down waits for it, longer than the worker lets it, and is tried again once bound.
    await book(3, 'barbara@analytical-engines.com', '+33 6 12 34 56 93');
    const up = await scrapeUntil('the bind up again', (text) => sample(text, 'converge_sms_bound') === 1);
    expect(sample(up, 'converge_sms_bind_events_total', { event: 'bound' })).to.equal(2);
    await receivedTo('+33612345693');
    const resent = await scrapeUntil(
      'the text sent after the rebind',
      (t) => texts(t, 'sms-confirmation', 'sent') === 3,
    );
    expect(texts(resent, 'sms-confirmation', 'unbound')).to.equal(1);
    expect(smsc.received.filter((text) => text.to === '+33612345693')).to.have.length(1);
  });
});
