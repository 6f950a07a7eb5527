import { expect } from 'chai';
import { loadWorkerConfig } from '../config.js';
import { bookingInvitation } from '../../server-shared/invitation.js';
import { icsOrganizer } from '../../test/booking.js';
import { carriesReplyTag, replyTag, taggedReplyAddress } from './organizer.js';

const secret = { BOOKING_LINK_SECRET: 's'.repeat(32) };
const mailbox = (env: Record<string, string>) => loadWorkerConfig({ ...secret, ...env }).replyMailbox;

describe('the reply mailbox', () => {
  it('is off without its settings, and needs REPLY_MAILBOX_URL and REPLY_MAILBOX_ADDRESS together', () => {
    expect(mailbox({})).to.equal(undefined);
    expect(() => mailbox({ REPLY_MAILBOX_URL: 'imaps://u:p@imap.example.com/INBOX' })).to.throw(
      "Reading the prospects' replies needs REPLY_MAILBOX_URL and REPLY_MAILBOX_ADDRESS together; not set: REPLY_MAILBOX_ADDRESS",
    );
    expect(() => mailbox({ REPLY_MAILBOX_ADDRESS: 'replies@example.com' })).to.throw(/not set: REPLY_MAILBOX_URL$/);
  });

  it('reads imaps:// anywhere and imap:// on this machine only, with a user and password, INBOX unless the path names a folder', () => {
    const address = { REPLY_MAILBOX_ADDRESS: 'demo-replies@example.com' };
    expect(
      mailbox({ ...address, REPLY_MAILBOX_URL: 'imaps://replies%40example.com:p%2Fw@imap.example.com' }),
    ).to.deep.equal({
      host: 'imap.example.com',
      port: 993,
      secure: true,
      user: 'replies@example.com',
      password: 'p/w',
      folder: 'INBOX',
      address: 'demo-replies@example.com',
      pollMs: 30_000,
    });
    const local = mailbox({
      ...address,
      REPLY_MAILBOX_URL: 'imap://u:p@127.0.0.1:1143/Calendar%20replies',
      REPLY_MAILBOX_IGNORED_FOLDER: 'Not acted on',
      REPLY_MAILBOX_POLL_SECONDS: '5',
    });
    expect(local).to.include({
      port: 1143,
      secure: false,
      folder: 'Calendar replies',
      ignoredFolder: 'Not acted on',
      pollMs: 5000,
    });
    for (const [url, message] of [
      ['imap://u:p@imap.example.com/INBOX', /imap:\/\/ \(no TLS\) only on a loopback address/],
      ['https://u:p@imap.example.com/INBOX', /must start with imaps:\/\//],
      ['imaps://imap.example.com/INBOX', /must name the mailbox user and password/],
      ['not a url', /must be a URL such as imaps:/],
    ] as const)
      expect(() => mailbox({ ...address, REPLY_MAILBOX_URL: url }), url).to.throw(message);
    expect(() => mailbox({ REPLY_MAILBOX_URL: 'imaps://u:p@h.example.com', REPLY_MAILBOX_ADDRESS: 'nobody' })).to.throw(
      /REPLY_MAILBOX_ADDRESS must be an e-mail address/,
    );
    expect(() =>
      mailbox({ ...address, REPLY_MAILBOX_URL: 'imaps://u:p@h.example.com', REPLY_MAILBOX_POLL_SECONDS: '0' }),
    ).to.throw(/REPLY_MAILBOX_POLL_SECONDS must be a number of seconds above 0/);
  });

  it("organises the invitation as the host's name at the mailbox's address, the host a CHAIR attendee", () => {
    const booking = {
      id: '01a22042-ecdc-7131-b4aa-0980613b1d6f',
      name: 'Grace Hopper',
      email: 'grace@hopper-systems.com',
      company: 'Hopper Systems',
      timeSlot: new Date('2026-12-01T09:00:00Z'),
      host: { name: 'Dana Scully', title: 'Solutions engineer', email: 'dana@converge.example' },
    };
    const options = { mailFrom: 'demos@converge.example', now: new Date('2026-11-28T10:00:00Z') };
    const address = taggedReplyAddress('replies@converge.example', booking.id, 's'.repeat(32));
    const ics = bookingInvitation(booking, { ...options, organizerAddress: address }).replace(/\r\n[ \t]/g, '');
    expect(icsOrganizer(ics)).to.equal(`ORGANIZER;CN=Dana Scully:mailto:${address}`);
    expect(ics).to.include('ATTENDEE;CN=Dana Scully;ROLE=CHAIR;PARTSTAT=ACCEPTED:mailto:dana@converge.example');
    expect(ics).to.include(
      'ATTENDEE;CN=Grace Hopper;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:grace@hopper-systems.com',
    );
    // Without the mailbox the host organises, as before.
    expect(icsOrganizer(bookingInvitation(booking, options))).to.equal(
      'ORGANIZER;CN=Dana Scully:mailto:dana@converge.example',
    );
  });

  it("knows the booking's tag in an echoed ORGANIZER, and no other booking's or none", () => {
    const key = 's'.repeat(32);
    const id = '01a22042-ecdc-7131-b4aa-0980613b1d6f';
    const other = '01a22042-ecdc-7131-b4aa-0980613b1d70';
    expect(taggedReplyAddress('replies@converge.example', id, key)).to.equal(
      `replies+${replyTag(id, key)}@converge.example`,
    );
    expect(carriesReplyTag(taggedReplyAddress('replies@converge.example', id, key), id, key)).to.equal(true);
    expect(carriesReplyTag(taggedReplyAddress('replies@converge.example', id, key).toUpperCase(), id, key)).to.equal(
      true,
    );
    expect(carriesReplyTag(taggedReplyAddress('replies@converge.example', other, key), id, key)).to.equal(false);
    expect(carriesReplyTag(taggedReplyAddress('replies@converge.example', id, 't'.repeat(32)), id, key)).to.equal(
      false,
    );
    expect(carriesReplyTag('replies@converge.example', id, key)).to.equal(false);
  });
});
