import { expect } from 'chai';
import MailComposer from 'nodemailer/lib/mail-composer';
import PostalMime, { type Email } from 'postal-mime';
import { renderConfirmation } from './email/confirmation.js';
import { composeMime } from './mime.js';
import type { OutgoingMail } from './send-mail.js';
import { SAMPLE_BOOKING, SAMPLE_RENDERING } from './email/sample-booking.js';

const booking = SAMPLE_BOOKING;
const options = SAMPLE_RENDERING;

function confirmation(overrides: Partial<typeof booking> = {}): OutgoingMail {
  const request = { ...booking, ...overrides };
  const email = renderConfirmation(request, options);
  return {
    from: options.mailFrom,
    replyTo: 'Converge Sales <sales@converge.example.com>',
    to: { name: email.toName, address: request.email },
    messageId: `<demo-${request.id}@converge.example.com>`,
    headers: { 'Auto-Submitted': 'auto-generated' },
    subject: email.subject,
    text: email.text,
    html: email.html,
    icalEvent: { method: 'REQUEST', filename: 'invite.ics', content: email.ics },
  };
}

/** What a mail client reads from a message: the parts that must not differ from nodemailer's build of it. */
function reading(email: Email) {
  const content = (value: string | ArrayBuffer | Uint8Array) => (typeof value === 'string' ? value : new TextDecoder().decode(value));
  return {
    from: email.from,
    to: email.to,
    replyTo: email.replyTo,
    subject: email.subject,
    messageId: email.messageId,
    autoSubmitted: email.headers.find((header) => header.key === 'auto-submitted')?.value,
    text: email.text,
    html: email.html,
    attachments: email.attachments.map((part) => ({ mimeType: part.mimeType, filename: part.filename, method: part.method, content: content(part.content) })),
  };
}

async function bothWays(mail: OutgoingMail) {
  const ours = composeMime(mail);
  expect(ours, 'built without nodemailer').to.not.equal(null);
  const theirs = await new MailComposer(mail).compile().build();
  return { ours: reading(await PostalMime.parse(ours!.raw)), theirs: reading(await PostalMime.parse(theirs)), raw: ours!.raw, envelope: ours!.envelope };
}

describe('a message built in one pass (worker/mime.ts)', () => {
  it('reads as nodemailer\'s build of it: addresses, subject, Message-ID, text, HTML, the invitation twice', async () => {
    const { ours, theirs, raw, envelope } = await bothWays(confirmation());
    expect(ours).to.deep.equal(theirs);
    expect(ours.attachments.map((part) => part.mimeType)).to.deep.equal(['text/calendar', 'application/ics']);
    expect(raw).to.match(/\r\nContent-Type: text\/calendar; charset=utf-8; method=REQUEST\r\n/);
    expect(envelope).to.deep.equal({ from: 'demos@converge.example.com', to: ['ada@analytical-engines.com'] });
    expect(raw.split('\r\n').every((line) => line.length <= 998)).to.equal(true);
    expect(raw.replace(/\r\n/g, '')).to.not.match(/[\r\n]/);
  });

  it('says what a prospect typed beyond ASCII, quotes and all, the same way', async () => {
    const { ours, theirs } = await bothWays(confirmation({ name: 'José "Pepe" Müller-Łukasiewicz', company: 'Ünïcödé & Söhne <GmbH>' }));
    expect(ours).to.deep.equal(theirs);
    expect(ours.to?.[0]?.name).to.equal('José "Pepe" Müller-Łukasiewicz');
  });

  it('keeps a line longer than SMTP carries, and a long subject, intact', async () => {
    const mail = confirmation();
    const { ours, theirs, raw } = await bothWays({ ...mail, html: `<p>${'x'.repeat(1500)}</p>\n.leading dot`, subject: `${'Word '.repeat(30)}end` });
    expect(ours).to.deep.equal(theirs);
    expect(raw.split('\r\n').every((line) => line.length <= 998)).to.equal(true);
  });

  it('starts no header of its own from what a prospect typed', async () => {
    const mail = confirmation();
    const { ours } = await bothWays({ ...mail, to: { ...mail.to, name: 'Eve X-Injected: yes' }, subject: `${mail.subject} Bcc: eve@example.com` });
    expect(ours.to?.[0]?.name).to.equal('Eve X-Injected: yes');
    expect(composeMime({ ...mail, to: { ...mail.to, name: 'Eve\r\nX-Injected: yes' } }), 'a line break is left to nodemailer').to.equal(null);
  });

  it('carries the sales desk\'s attachment and a reply address of the prospect', async () => {
    const mail = confirmation();
    const { icalEvent: _ignored, ...rest } = mail;
    const notice: OutgoingMail = {
      ...rest,
      to: { name: 'Sales', address: 'sales@converge.example.com' },
      replyTo: { name: 'Ada Lovelace', address: 'ada@analytical-engines.com' },
      attachments: [{ filename: 'demo.ics', content: 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n', contentType: 'text/calendar; charset=utf-8; method=PUBLISH' }],
    };
    const { ours, theirs } = await bothWays(notice);
    expect(ours).to.deep.equal(theirs);
  });
});
