/**
 * Prospects' answers to an invitation as their calendars send them (iTIP REPLY, RFC 5546, over e-mail, RFC 6047),
 * shaped after each program's documented messages: Google Calendar (multipart/mixed holding multipart/alternative
 * with text/calendar; method=REPLY, and the same .ics attached as invite.ics), Outlook / Exchange (multipart/alternative,
 * a base64 text/calendar with its VTIMEZONE and X-MICROSOFT-CDO properties, Content-class and Thread-Topic headers),
 * and Apple Calendar (multipart/mixed with the REPLY as an attached .ics, REQUEST-STATUS, a TZID start).
 * Each is delivered as the reply mailbox's server would store it: DKIM-signed by the sender's domain when it
 * signs (a key made for the run), a Return-Path, and the receiving server's Received line naming the client's IP.
 * The DNS those checks ask is answered by `resolver` alone (no network).
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { dkimSign } from 'mailauth';

export type Shape = 'google' | 'outlook' | 'apple';

export interface ReplyOptions {
  shape: Shape;
  uid: string;
  /** The echoed ORGANIZER (the invitation's). */
  organizer: string;
  attendee: { name: string; email: string };
  partstat: string;
  method?: string;
  sequence?: number;
  stamp?: Date;
  /** The From header (the attendee unless told). */
  from?: string;
  /** Signs with this domain's key (one `dns` publishes); unset: unsigned. */
  signedBy?: string;
  /** The client the receiving server saw. */
  clientIp: string;
  /** More attendees in the REPLY than the one answering. */
  extraAttendee?: string;
}

const ics = (time: Date) =>
  time
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
const crlf = (lines: string[]) => `${lines.join('\r\n')}\r\n`;
const b64 = (text: string) =>
  (
    Buffer.from(text)
      .toString('base64')
      .match(/.{1,76}/g) ?? []
  ).join('\r\n');

function calendar(options: ReplyOptions): string {
  const method = options.method ?? 'REPLY';
  const stamp = ics(options.stamp ?? new Date());
  const attendee = (email: string, name: string) =>
    options.shape === 'apple'
      ? `ATTENDEE;CN="${name}";CUTYPE=INDIVIDUAL;EMAIL="${email}";PARTSTAT=${options.partstat}:mailto:${email}`
      : options.shape === 'outlook'
        ? `ATTENDEE;PARTSTAT=${options.partstat};CN=${name}:mailto:${email}`
        : `ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=${options.partstat};CN=${name};X-NUM-GUESTS=0:mailto:${email}`;
  const attendees = [
    attendee(options.attendee.email, options.attendee.name),
    ...(options.extraAttendee ? [attendee(options.extraAttendee, 'Someone Else')] : []),
  ];
  const sequence = options.sequence ?? 0;
  if (options.shape === 'google')
    return crlf([
      'BEGIN:VCALENDAR',
      'PRODID:-//Google Inc//Google Calendar 70.9054//EN',
      'VERSION:2.0',
      'CALSCALE:GREGORIAN',
      `METHOD:${method}`,
      'BEGIN:VEVENT',
      'DTSTART:20261201T090000Z',
      'DTEND:20261201T093000Z',
      `DTSTAMP:${stamp}`,
      `ORGANIZER;CN=Converge:mailto:${options.organizer}`,
      `UID:${options.uid}`,
      ...attendees,
      'CREATED:20261127T100000Z',
      `LAST-MODIFIED:${stamp}`,
      'LOCATION:https://meet.jit.si/ConvergeDemo',
      `SEQUENCE:${sequence}`,
      'STATUS:CONFIRMED',
      'SUMMARY:Converge demo',
      'TRANSP:OPAQUE',
      'END:VEVENT',
      'END:VCALENDAR',
    ]);
  if (options.shape === 'outlook')
    return crlf([
      'BEGIN:VCALENDAR',
      `METHOD:${method}`,
      'PRODID:Microsoft Exchange Server 2010',
      'VERSION:2.0',
      'BEGIN:VTIMEZONE',
      'TZID:W. Europe Standard Time',
      'BEGIN:STANDARD',
      'DTSTART:16010101T030000',
      'TZOFFSETFROM:+0200',
      'TZOFFSETTO:+0100',
      'RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=10',
      'END:STANDARD',
      'BEGIN:DAYLIGHT',
      'DTSTART:16010101T020000',
      'TZOFFSETFROM:+0100',
      'TZOFFSETTO:+0200',
      'RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=3',
      'END:DAYLIGHT',
      'END:VTIMEZONE',
      'BEGIN:VEVENT',
      ...attendees,
      'COMMENT;LANGUAGE=en-US:\\n',
      `SUMMARY;LANGUAGE=en-US:${options.partstat === 'DECLINED' ? 'Declined' : 'Accepted'}: Converge demo`,
      'DTSTART;TZID=W. Europe Standard Time:20261201T100000',
      'DTEND;TZID=W. Europe Standard Time:20261201T103000',
      `UID:${options.uid}`,
      `ORGANIZER;CN=Converge:mailto:${options.organizer}`,
      'CLASS:PUBLIC',
      'PRIORITY:5',
      `DTSTAMP:${stamp}`,
      'TRANSP:OPAQUE',
      'STATUS:CONFIRMED',
      `SEQUENCE:${sequence}`,
      'LOCATION;LANGUAGE=en-US:https://meet.jit.si/ConvergeDemo',
      `X-MICROSOFT-CDO-APPT-SEQUENCE:${sequence}`,
      `X-MICROSOFT-CDO-OWNER-APPT-ID:-${randomBytes(4).readUInt32BE(0)}`,
      `X-MICROSOFT-CDO-REPLYTIME:${stamp}`,
      'END:VEVENT',
      'END:VCALENDAR',
    ]);
  return crlf([
    'BEGIN:VCALENDAR',
    'CALSCALE:GREGORIAN',
    `METHOD:${method}`,
    'PRODID:-//Apple Inc.//macOS 15.1//EN',
    'VERSION:2.0',
    'BEGIN:VTIMEZONE',
    'TZID:Europe/Berlin',
    'BEGIN:STANDARD',
    'DTSTART:19961027T030000',
    'RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10',
    'TZNAME:CET',
    'TZOFFSETFROM:+0200',
    'TZOFFSETTO:+0100',
    'END:STANDARD',
    'BEGIN:DAYLIGHT',
    'DTSTART:19810329T020000',
    'RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3',
    'TZNAME:CEST',
    'TZOFFSETFROM:+0100',
    'TZOFFSETTO:+0200',
    'END:DAYLIGHT',
    'END:VTIMEZONE',
    'BEGIN:VEVENT',
    ...attendees,
    'DTEND;TZID=Europe/Berlin:20261201T103000',
    `DTSTAMP:${stamp}`,
    'DTSTART;TZID=Europe/Berlin:20261201T100000',
    `ORGANIZER;CN="Converge":mailto:${options.organizer}`,
    'REQUEST-STATUS:2.0;Success',
    `SEQUENCE:${sequence}`,
    'SUMMARY:Converge demo',
    `UID:${options.uid}`,
    'X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC',
    'END:VEVENT',
    'END:VCALENDAR',
  ]);
}

function body(options: ReplyOptions, from: string): { headers: string[]; body: string } {
  const text = calendar(options);
  const word =
    options.partstat === 'DECLINED' ? 'Declined' : options.partstat === 'TENTATIVE' ? 'Tentative' : 'Accepted';
  const outer = `b1_${randomBytes(8).toString('hex')}`;
  const inner = `b2_${randomBytes(8).toString('hex')}`;
  const common = [
    `From: ${options.attendee.name} <${from}>`,
    `To: ${options.organizer}`,
    `Subject: ${word}: Converge demo`,
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: <${randomBytes(8).toString('hex')}@${from.slice(from.indexOf('@') + 1)}>`,
    'MIME-Version: 1.0',
  ];
  if (options.shape === 'google')
    return {
      headers: [...common, `Content-Type: multipart/mixed; boundary="${outer}"`],
      body: crlf([
        `--${outer}`,
        `Content-Type: multipart/alternative; boundary="${inner}"`,
        '',
        `--${inner}`,
        'Content-Type: text/plain; charset="UTF-8"; format=flowed; delsp=yes',
        '',
        `${options.attendee.name} has ${word.toLowerCase()} this invitation.`,
        '',
        `--${inner}`,
        'Content-Type: text/html; charset="UTF-8"',
        '',
        `<p>${options.attendee.name} has ${word.toLowerCase()} this invitation.</p>`,
        '',
        `--${inner}`,
        `Content-Type: text/calendar; charset="UTF-8"; method=${options.method ?? 'REPLY'}`,
        'Content-Transfer-Encoding: 7bit',
        '',
        text,
        `--${inner}--`,
        '',
        `--${outer}`,
        'Content-Type: application/ics; name="invite.ics"',
        'Content-Disposition: attachment; filename="invite.ics"',
        'Content-Transfer-Encoding: base64',
        '',
        b64(text),
        `--${outer}--`,
      ]),
    };
  if (options.shape === 'outlook')
    return {
      headers: [
        ...common,
        'Thread-Topic: Converge demo',
        'Thread-Index: AQHbQ2VxZ2xrY2xvY2s=',
        'Content-Language: en-US',
        'X-MS-Has-Attach:',
        'X-MS-TNEF-Correlator:',
        'Content-class: urn:content-classes:calendarmessage',
        `Content-Type: multipart/alternative; boundary="${inner}"`,
      ],
      body: crlf([
        `--${inner}`,
        'Content-Type: text/plain; charset="us-ascii"',
        'Content-Transfer-Encoding: quoted-printable',
        '',
        '',
        `--${inner}`,
        `Content-Type: text/calendar; charset="utf-8"; method=${options.method ?? 'REPLY'}`,
        'Content-Transfer-Encoding: base64',
        '',
        b64(text),
        `--${inner}--`,
      ]),
    };
  return {
    headers: [...common, `Content-Type: multipart/mixed; boundary="Apple-Mail=_${outer}"`],
    body: crlf([
      `--Apple-Mail=_${outer}`,
      'Content-Transfer-Encoding: 7bit',
      'Content-Type: text/plain; charset=us-ascii',
      '',
      `${options.attendee.name} has ${word.toLowerCase()} your event.`,
      '',
      `--Apple-Mail=_${outer}`,
      'Content-Transfer-Encoding: base64',
      'Content-Disposition: attachment; filename=iCal-20261201-100000.ics',
      `Content-Type: text/calendar; charset=utf-8; method=${options.method ?? 'REPLY'}; name=iCal-20261201-100000.ics`,
      '',
      b64(text),
      `--Apple-Mail=_${outer}--`,
    ]),
  };
}

/** Each sending domain's DKIM key pair and the SPF record its mail servers pass. */
export interface TestDns {
  resolver: (name: string, type: string) => Promise<string[][] | string[]>;
  /** Publishes DKIM (a key under selector "mail") and SPF (the addresses its servers send from) for a domain. */
  publish(domain: string, sendsFrom: string[], dkim?: boolean): void;
  reply(options: ReplyOptions): Promise<string>;
}

export function testDns(): TestDns {
  const txt = new Map<string, string[][]>();
  const keys = new Map<string, string>();
  const dns: TestDns = {
    async resolver(name, type) {
      const records = type === 'TXT' ? txt.get(name.toLowerCase()) : undefined;
      if (records) return records;
      throw Object.assign(new Error(`query${type} ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    },
    publish(domain, sendsFrom, dkim = true) {
      txt.set(domain, [[`v=spf1 ${sendsFrom.map((ip) => `ip4:${ip}`).join(' ')} -all`]]);
      if (!dkim) return;
      const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
      keys.set(domain, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
      const p = pair.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
      txt.set(`mail._domainkey.${domain}`, [[`v=DKIM1; k=rsa; p=${p}`]]);
    },
    async reply(options) {
      const from = options.from ?? options.attendee.email;
      const { headers, body: content } = body(options, from);
      let message = `${headers.join('\r\n')}\r\n\r\n${content}`;
      if (options.signedBy) {
        const privateKey = keys.get(options.signedBy);
        if (!privateKey) throw new Error(`no DKIM key published for ${options.signedBy}`);
        const key = { signingDomain: options.signedBy, selector: 'mail', privateKey };
        // mailauth signs with the keys listed in signatureData (the top-level ones alone sign nothing).
        const signed = await dkimSign(message, { ...key, signatureData: [key] });
        if (signed.errors.length > 0 || !signed.signatures.startsWith('DKIM-Signature:'))
          throw new Error(`DKIM signing failed: ${signed.errors.map((e) => e.message).join('; ')}`);
        message = `${signed.signatures}${message}`;
      }
      const received = `Received: from mail.${from.slice(from.indexOf('@') + 1)} (mail.example [${options.clientIp}])\r\n\tby mx.converge.localhost with ESMTPS id ${randomBytes(4).toString('hex')}\r\n\tfor <${options.organizer}>; ${new Date().toUTCString()}\r\n`;
      return `Return-Path: <${from}>\r\n${received}${message}`;
    },
  };
  return dns;
}
