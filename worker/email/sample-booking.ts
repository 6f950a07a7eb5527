/** One booking and the settings its e-mails are rendered with, shared by the tests of the e-mails and their MIME. */
export const SAMPLE_BOOKING = {
  id: '5b7a2f1e-0c1d-4e2f-8a9b-0c1d2e3f4a5b',
  name: 'Ada Lovelace',
  email: 'ada@analytical-engines.com',
  company: 'Analytical Engines',
  timeSlot: new Date('2026-11-24T14:00:00Z'),
};

export const SAMPLE_RENDERING = {
  timeZone: 'Europe/Berlin',
  mailFrom: 'Converge Demos <demos@converge.example.com>',
  publicUrl: 'https://converge.example.com',
  contact: { email: 'sales@converge.example.com', phone: '+1 555 0100' },
  now: new Date('2026-11-23T10:00:00Z'),
  inviteUrl: 'https://converge.example.com/api/bookings/TOKEN/invite.ics',
  manageUrl: 'https://converge.example.com/booking/TOKEN',
  sequence: 0,
};
