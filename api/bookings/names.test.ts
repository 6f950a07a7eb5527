/** Names carry no links: the API refuses a name or company a mail program would show as a link, naming the field. */
import { expect } from 'chai';
import { COMPANY_LINK_MESSAGE, NAME_LINK_MESSAGE } from '../../domain/links-in-text.js';
import { startAppUnderTest, type AppUnderTest } from '../../test/app-under-test.js';

// Monday 23 November 2026, 10:30 in Berlin; the slot is Tuesday's.
const NOW = new Date('2026-11-23T09:30:00.000Z');
const TUESDAY_9 = '2026-11-24T08:00:00.000Z';
const booking = (overrides: Record<string, string>) => ({ name: 'Ada Lovelace', email: 'ada@analytical-engines.com', company: 'Analytical Engines', timeSlot: TUESDAY_9, ...overrides });

describe('names and companies with links', () => {
  let app: AppUnderTest;
  before(async () => {
    app = await startAppUnderTest({ now: () => NOW });
  });
  after(async () => {
    await app.close();
  });
  beforeEach(async () => {
    await app.db('bookings').del();
  });

  it('refuses the issue\'s name, a bare host name and a www. company with 400 and the field\'s message; nothing is stored', async () => {
    const cases: [Record<string, string>, Record<string, string>][] = [
      [{ name: 'Your mailbox is full, log in at http://evil.example/owa' }, { name: NAME_LINK_MESSAGE }],
      [{ name: 'Mailbox full: login.microsoftonline.com' }, { name: NAME_LINK_MESSAGE }],
      [{ name: 'Reset at evil.example' }, { name: NAME_LINK_MESSAGE }],
      [{ company: 'www.evil.example' }, { company: COMPANY_LINK_MESSAGE }],
      [{ name: 'Ada https://x.y', company: 'Acme ftp://files' }, { name: NAME_LINK_MESSAGE, company: COMPANY_LINK_MESSAGE }],
    ];
    for (const [fields, messages] of cases) {
      const answer = await app.post('/api/demo-request', booking(fields));
      expect(answer.status, JSON.stringify(fields)).to.equal(400);
      expect(answer.body, JSON.stringify(fields)).to.deep.equal({ error: 'Invalid demo request', details: Object.values(messages).join(' '), fields: messages });
    }
    expect(await app.db('bookings').count({ n: '*' }).first()).to.deep.equal({ n: '0' });
  });

  it('books names with initials and titles, and a company named after its domain', async () => {
    for (const [timeSlot, name, company] of [['2026-11-24T09:00:00.000Z', 'J.R. Smith', 'Booking.com'], ['2026-11-24T10:00:00.000Z', 'Dr.Who', 'Analytical Engines']] as const) {
      const answer = await app.post('/api/demo-request', booking({ name, company, email: `${name.replace(/\W/g, '').toLowerCase()}@analytical-engines.com`, timeSlot }));
      expect(answer.status, name).to.equal(201);
    }
  });
});
