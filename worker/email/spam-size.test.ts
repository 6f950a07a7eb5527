/**
 * SpamAssassin's HTML_IMAGE_ONLY rules score an HTML part that holds an image (the brand's mark) and at most 3,200
 * characters of HTML, markup included (up to 2.2 points: HTML_IMAGE_ONLY_32 for 2,800 to 3,200). Every e-mail must
 * stay above that, the shortest too: a booking with no host, room, phone, message or source, and short names.
 * worker/outgoing-mail.test.ts scores real messages; this one finds the shortest of each kind without SpamAssassin.
 */
import { expect } from 'chai';
import { brand } from '../../domain/brand.js';
import type { Lead } from '../delivery-row.js';
import { renderCancellation, renderReminder, renderUpdate } from './booking-changes.js';
import { renderConfirmation } from './confirmation.js';
import { renderHostCancellation, renderHostInvitation } from './host-emails.js';
import { renderSalesNotice } from './sales-notice.js';

const HTML_IMAGE_ONLY_MAX = 3200;

const shortest: Lead = {
  id: '5b7a2f1e-0c1d-4e2f-8a9b-0c1d2e3f4a5b',
  name: 'Al',
  email: 'al@ab.io',
  company: 'Ab',
  timeSlot: new Date('2026-12-01T10:00:00Z'),
  host: null,
  meetingUrl: null,
  visitorTimeZone: null,
  phone: null,
  message: null,
  attribution: null,
  status: 'booked',
  sequence: 0,
};
const options = {
  timeZone: 'UTC',
  mailFrom: 'Converge <demos@ab.io>',
  publicUrl: 'https://ab.io',
  contact: brand.company.contact,
  now: new Date('2026-11-20T10:00:00Z'),
  inviteUrl: 'https://ab.io/api/bookings/aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5zA7bC9d/invite.ics',
  manageUrl: 'https://ab.io/booking/aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5zA7bC9d',
  sequence: 0,
};

describe("every kind of e-mail, at its shortest, against SpamAssassin's rules for an image with little HTML", () => {
  const kinds: Record<string, () => string> = {
    confirmation: () => renderConfirmation(shortest, options).html,
    update: () => renderUpdate(shortest, options).html,
    reminder: () => renderReminder(shortest, options).html,
    cancellation: () => renderCancellation(shortest, options).html,
    'host invitation': () => renderHostInvitation(shortest, options).html,
    'host cancellation': () => renderHostCancellation({ ...shortest, status: 'cancelled' }, options).html,
    'sales notice': () => renderSalesNotice(shortest, 'booked', options).html,
  };
  for (const [kind, html] of Object.entries(kinds)) {
    it(`keeps the ${kind} over ${HTML_IMAGE_ONLY_MAX} characters of HTML beside its image`, () => {
      const document = html();
      expect(document).to.match(/<img /);
      expect(document.length).to.be.above(HTML_IMAGE_ONLY_MAX);
    });
  }
});
