/**
 * The e-mail channel: a row of an e-mail kind becomes the message its template (kind-writers.ts) writes about the
 * booking, sent over SMTP (send-mail.ts). The prospect's e-mails are one thread; a host's and the sales desk's answer
 * to the prospect.
 */
import { UnrecoverableError } from 'bullmq';
import { isDeliveryKind } from '../../server-shared/delivery-kinds.js';
import { bookingUid } from '../../server-shared/invitation.js';
import { mailDomain } from '../../server-shared/sender.js';
import { singleLine, withoutAddresses } from '../../domain/text.js';
import { KIND_WRITERS, writeOptions, type ComposeDeps, type EmailKindWriter, type Written } from '../kind-writers.js';
import { changeOf, type Claimed, type ChangeRow, type Lead } from '../delivery-row.js';
import type { OutgoingMail, SendMail } from '../send-mail.js';
import type { Sender } from './sender.js';

/** The message as a kind composes it; the sender, the reply address and the auto-reply header are added on sending. */
export type Composed = Omit<OutgoingMail, 'from' | 'replyTo' | 'headers'> & { replyTo?: OutgoingMail['replyTo'] };

export interface EmailSenderDeps extends ComposeDeps {
  sendMail: SendMail;
  replyTo: string;
}

/** The e-mail for a row of an e-mail kind, or null when it no longer tells the truth about its booking. */
export function composeEmail(deps: ComposeDeps, row: ChangeRow, lead: Lead): Composed | null {
  if (!isDeliveryKind(row.kind)) throw new UnrecoverableError(`no kind "${row.kind}" in this worker's registry`);
  const kind = KIND_WRITERS[row.kind];
  if (kind.channel !== 'email') throw new UnrecoverableError(`a ${row.kind} row is not an e-mail`);
  const options = writeOptions(deps, lead.id, row.sequence);
  if (!kind.stillTrue(row, lead, options.now)) return null;
  const booking = { ...lead, timeSlot: row.time_slot };
  return composeMessage(deps, kind, row, lead, kind.write(booking, row, options));
}

function composeMessage(
  deps: ComposeDeps,
  kind: EmailKindWriter,
  row: ChangeRow,
  lead: Lead,
  written: Written,
): Composed | null {
  const messageId = kind.messageId?.(lead, deps.mailFrom) ?? `<${row.kind}-${row.id}@${mailDomain(deps.mailFrom)}>`;
  const message = { messageId, subject: written.subject, text: written.text, html: written.html };
  const calendar =
    kind.method && written.ics
      ? kind.calendarAs === 'file'
        ? {
            attachments: [
              {
                filename: 'demo.ics',
                content: written.ics,
                contentType: `text/calendar; charset=utf-8; method=${kind.method}`,
              },
            ],
          }
        : { icalEvent: { method: kind.method, filename: 'invite.ics', content: written.ics } }
      : {};
  if (kind.to === 'row') {
    if (row.recipient === null) return null;
    const host = lead.host?.email === row.recipient ? lead.host : undefined;
    return {
      ...message,
      to: { name: host ? singleLine(host.name) : (kind.recipientName ?? ''), address: row.recipient },
      // Answering it writes to the prospect.
      replyTo: { name: lead.name, address: lead.email },
      ...calendar,
    };
  }
  // One thread per booking in the prospect's mail program: every later e-mail answers the confirmation.
  const confirmation = `<${bookingUid(lead.id, deps.mailFrom)}>`;
  const thread = messageId === confirmation ? {} : { inReplyTo: confirmation, references: confirmation };
  return {
    ...message,
    ...thread,
    // The name made safe for a header: no line breaks or control characters.
    to: { name: singleLine(lead.name), address: lead.email },
    ...calendar,
  };
}

export function emailSender(deps: EmailSenderDeps): Sender<Composed> {
  return {
    receiver: 'the SMTP server',
    span: 'smtp send',
    compose({ row, lead }: Claimed): Composed | null {
      const change = changeOf(row);
      if (!change) throw new UnrecoverableError(`a ${row.kind} row without the change it tells`);
      return lead ? composeEmail(deps, change, lead) : null;
    },
    async send(message, signal) {
      const info = await deps.sendMail(
        {
          from: deps.mailFrom,
          replyTo: deps.replyTo,
          // RFC 3834: no out-of-office or other auto-reply to this one.
          headers: { 'Auto-Submitted': 'auto-generated' },
          ...message,
        },
        signal,
      );
      return {
        ...(info.response ? { response: withoutAddresses(info.response) } : {}),
        ...(info.messageId ? { fields: { messageId: info.messageId } } : {}),
      };
    },
  };
}
