/**
 * The SMSC of `npm start` and of compose, spoken to over SMPP with npm `smpp`'s client as an ESME would: the bind
 * with its account (and not without), each text a file in the folder, a DELIVRD receipt after it, sent again while
 * the ESME refuses it, and a reply dropped into replies/ arriving as a message from that phone.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import smpp, { type PDU, type Session } from 'smpp';
import { until } from '../test/until.js';
import { dropReply, REPLIES_FOLDER, startFolderSmsc, type FolderSmsc } from './folder.js';

const SYSTEM_ID = 'converge';
const PASSWORD = 'folder-test';

describe('the SMSC writing to a folder (smsc/folder.ts)', function () {
  this.timeout(20_000);
  let dir: string;
  let smsc: FolderSmsc;
  let session: Session;
  const delivered: PDU[] = [];
  /** How the ESME answers the next deliver_sms: ESME_RMSGQFUL while it is above zero. */
  let refuse = 0;

  const bind = (password: string) =>
    new Promise<{ session: Session; status: number }>((resolve) => {
      const client = smpp.connect({ host: '127.0.0.1', port: smsc.port });
      client.on('error', () => {});
      client.on('connect', () =>
        client.bind_transceiver({ system_id: SYSTEM_ID, password }, (pdu) =>
          resolve({ session: client, status: pdu.command_status }),
        ),
      );
    });

  const submit = (fields: Record<string, unknown>) =>
    new Promise<PDU>((resolve) => session.submit_sm(fields, (pdu) => resolve(pdu)));

  const textFiles = async () => (await readdir(dir)).filter((name) => name.endsWith('.txt')).sort();

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'converge-smsc-'));
    smsc = await startFolderSmsc({ systemId: SYSTEM_ID, password: PASSWORD, dir, receiptAfterMs: 100 });
    const bound = await bind(PASSWORD);
    expect(bound.status).to.equal(smpp.ESME_ROK);
    session = bound.session;
    session.on('deliver_sm', (pdu: PDU) => {
      delivered.push(pdu);
      if (refuse > 0) {
        refuse -= 1;
        session.send(pdu.response({ command_status: smpp.ESME_RMSGQFUL }));
      } else session.send(pdu.response());
    });
  });

  after(async () => {
    session.destroy();
    await smsc.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses a bind with another password, and binds no session for it', async () => {
    const wrong = await bind('not-it');
    expect(wrong.status).to.equal(smpp.ESME_RBINDFAIL);
    wrong.session.destroy();
    expect(smsc.bound()).to.equal(1);
  });

  it('writes each text as one file (to, from, encoding and parts, message id, the words), then sends DELIVRD', async () => {
    refuse = 1;
    const answer = await submit({
      source_addr_ton: 5,
      source_addr: 'Converge',
      dest_addr_ton: 1,
      dest_addr_npi: 1,
      destination_addr: '33612345678',
      registered_delivery: 1,
      short_message: 'Converge demo with Dana booked: Tue 1 Dec, 09:00 CET. Manage: https://example.test/b/x',
    });
    expect(answer.command_status).to.equal(smpp.ESME_ROK);
    const messageId = String(answer.message_id);
    const [name] = await textFiles();
    expect(name).to.match(new RegExp(`-${messageId}\\.txt$`));
    const content = await readFile(path.join(dir, name!), 'utf8');
    expect(content).to.equal(
      [
        `Message-Id: ${messageId}`,
        content.split('\n')[1],
        'From: Converge',
        'To: +33612345678',
        'Encoding: GSM-7 (data_coding 1), 86 septets, 1 part',
        'Receipt: requested',
        '',
        'Converge demo with Dana booked: Tue 1 Dec, 09:00 CET. Manage: https://example.test/b/x',
        '',
      ].join('\n'),
    );
    expect(content.split('\n')[1]).to.match(/^Date: \d{4}-\d\d-\d\dT/);
    // Refused once (as a worker does with a receipt for a try it has not recorded yet), it comes again.
    const receipts = await until(
      async () => {
        const mine = delivered.filter((pdu) => pdu.receipted_message_id === messageId);
        return mine.length === 2 ? mine : undefined;
      },
      'the receipt, sent again',
      5000,
    );
    expect(String((receipts[1]!.short_message as { message: string }).message)).to.match(
      new RegExp(`^id:${messageId} .* stat:DELIVRD `),
    );
  });

  it('counts a UCS-2 text sent as message_payload in its parts', async () => {
    const before = new Set(await textFiles());
    const words = 'Démo confirmée avec Łucja 🙂 '.repeat(4);
    const answer = await submit({
      source_addr_ton: 5,
      source_addr: 'Converge',
      dest_addr_ton: 1,
      destination_addr: '48601234567',
      data_coding: 8,
      message_payload: words,
    });
    expect(answer.command_status).to.equal(smpp.ESME_ROK);
    const name = (await textFiles()).find((file) => !before.has(file));
    const content = await readFile(path.join(dir, name!), 'utf8');
    expect(content).to.contain(`Encoding: UCS-2 (data_coding 8), ${words.length} UTF-16 units, 2 parts`);
    expect(content).to.contain('(sent as message_payload)');
    expect(content).to.contain('Receipt: not requested');
    expect(content.endsWith(`\n\n${words}\n`)).to.equal(true);
  });

  it('sends a reply dropped into replies/ as a message from that phone, then removes it; leaves what is not one', async () => {
    const count = delivered.length;
    const file = await dropReply(dir, '+33612345678', 'STOP');
    const message = await until(
      async () => delivered.slice(count).find((pdu) => pdu.esm_class === 0),
      'the reply from the phone',
      5000,
    );
    expect(message).to.include({ source_addr: '33612345678', source_addr_ton: 1 });
    expect((message.short_message as { message: string }).message).to.equal('STOP');
    await until(async () => (existsSync(file) ? undefined : true), 'the reply file removed', 5000);

    const stray = path.join(dir, REPLIES_FOLDER, 'note.txt');
    await writeFile(stray, 'STOP please');
    await until(async () => (existsSync(`${stray}.invalid`) ? true : undefined), 'the stray file set aside', 8000);
    expect(delivered.slice(count)).to.have.length(1);
  });
});
