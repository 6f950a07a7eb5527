/** Names carry no links: the API refuses a name or company a mail program would show as a link, naming the field. */
import { expect } from 'chai';
import { COMPANY_LINK_MESSAGE, NAME_LINK_MESSAGE } from '../../domain/links-in-text.js';
import { startAppUnderTest, type AppUnderTest } from '../../test/app-under-test.js';

// Monday 23 November 2026, 10:30 in Berlin; the slot is Tuesday's.
const NOW = new Date('2026-11-23T09:30:00.000Z');
const TUESDAY_9 = '2026-11-24T08:00:00.000Z';
const booking = (overrides: Record<string, string>) => ({
  name: 'Ada Lovelace',
  email: 'ada@analytical-engines.com',
  company: 'Analytical Engines',
  timeSlot: TUESDAY_9,
  ...overrides,
});

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

  it("refuses the issue's name, a bare host name and a www. company with 400 and the field's message; nothing is stored", async () => {
    const cases: [Record<string, string>, Record<string, string>][] = [
      [{ name: 'Your mailbox is full, log in at http://evil.example/owa' }, { name: NAME_LINK_MESSAGE }],
      [{ name: 'Mailbox full: login.microsoftonline.com' }, { name: NAME_LINK_MESSAGE }],
      [{ name: 'Reset at evil.example' }, { name: NAME_LINK_MESSAGE }],
      [{ company: 'www.evil.example' }, { company: COMPANY_LINK_MESSAGE }],
      [
        { name: 'Ada https://x.y', company: 'Acme ftp://files' },
        { name: NAME_LINK_MESSAGE, company: COMPANY_LINK_MESSAGE },
      ],
    ];
    for (const [fields, messages] of cases) {
      const answer = await app.post('/api/demo-request', booking(fields));
      expect(answer.status, JSON.stringify(fields)).to.equal(400);
      expect(answer.body, JSON.stringify(fields)).to.deep.equal({
        error: 'Invalid demo request',
        details: Object.values(messages).join(' '),
        fields: messages,
      });
    }
    expect(await app.db('bookings').count({ n: '*' }).first()).to.deep.equal({ n: '0' });
  });

  // Issue 35: links in disguise, each accepted before. The name and company are normalised (NFKC, no invisible
  // character) before the rules read them, and what the rules read is what is stored.
  const disguised: [string, Record<string, string>, Record<string, string>][] = [
    ['a defanged dot', { name: 'evil[.]com' }, { name: NAME_LINK_MESSAGE }],
    ['a defanged dot in brackets', { name: 'Ada evil(.)com' }, { name: NAME_LINK_MESSAGE }],
    ['a defanged {dot}', { name: 'Ada evil{dot}com' }, { name: NAME_LINK_MESSAGE }],
    ['a javascript: scheme', { name: 'javascript:alert(1)' }, { name: NAME_LINK_MESSAGE }],
    ['a data: scheme', { name: 'data:text/html,hi' }, { name: NAME_LINK_MESSAGE }],
    ['a one dot leader (U+2024)', { name: 'evil\u2024com' }, { name: NAME_LINK_MESSAGE }],
    ['a small full stop (U+FE52)', { name: 'evil\ufe52com' }, { name: NAME_LINK_MESSAGE }],
    ['full-width letters', { name: '\uff45\uff56\uff49\uff4c.\uff43\uff4f\uff4d' }, { name: NAME_LINK_MESSAGE }],
    ['a double-struck C (U+2102)', { name: 'evil.\u2102om' }, { name: NAME_LINK_MESSAGE }],
    ['a circled o (U+24DE)', { name: 'evil.c\u24dem' }, { name: NAME_LINK_MESSAGE }],
    ['a soft hyphen inside the ending', { name: 'evil.c\u00adom Ng' }, { name: NAME_LINK_MESSAGE }],
    ['a zero-width space inside the ending', { name: 'evil.c\u200bom Ng' }, { name: NAME_LINK_MESSAGE }],
    ['a defanged company', { company: 'evil[.]com' }, { company: COMPANY_LINK_MESSAGE }],
    ['a defanged company in words', { company: 'paypal (dot) com' }, { company: COMPANY_LINK_MESSAGE }],
    ['a javascript: company', { company: 'javascript:alert(1)' }, { company: COMPANY_LINK_MESSAGE }],
    ['a data: company', { company: 'data:text/html;base64,PHNjcmlwdD4=' }, { company: COMPANY_LINK_MESSAGE }],
    [
      'a company with a path and query',
      { company: 'paypal-verify.com/login?acct=1' },
      { company: COMPANY_LINK_MESSAGE },
    ],
    ['a company with a query', { company: 'paypal-verify.com?acct=1' }, { company: COMPANY_LINK_MESSAGE }],
    ['a company with a port', { company: 'paypal-verify.com:8443' }, { company: COMPANY_LINK_MESSAGE }],
    ['a company with a fragment', { company: 'paypal-verify.com#login' }, { company: COMPANY_LINK_MESSAGE }],
    [
      'a company with a disguised path',
      { company: 'paypal-verify\uff0ecom\uff0flogin' },
      { company: COMPANY_LINK_MESSAGE },
    ],
    ['a company with a scheme', { company: 'https://acme.com' }, { company: COMPANY_LINK_MESSAGE }],
  ];
  for (const [what, fields, messages] of disguised) {
    it(`refuses ${what} with 400 and the field's message; nothing is stored`, async () => {
      const sent = Object.fromEntries(
        Object.entries(fields).map(([key, value]) => [key, JSON.parse(`"${value}"`) as string]),
      );
      const answer = await app.post('/api/demo-request', booking(sent));
      expect(answer.status, JSON.stringify(sent)).to.equal(400);
      expect(answer.body, JSON.stringify(sent)).to.deep.equal({
        error: 'Invalid demo request',
        details: Object.values(messages).join(' '),
        fields: messages,
      });
      expect(await app.db('bookings').count({ n: '*' }).first()).to.deep.equal({ n: '0' });
    });
  }

  it('books a bare domain as the company, and stores names and companies as the rules read them: NFKC, no invisible character', async () => {
    const cases: [Record<string, string>, { name: string; company: string }][] = [
      [{ company: 'acme.com' }, { name: 'Ada Lovelace', company: 'acme.com' }],
      [{ company: '\uff45\uff56\uff49\uff4c.\uff43\uff4f\uff4d' }, { name: 'Ada Lovelace', company: 'evil.com' }],
      [{ company: 'evil.c\u00adom' }, { name: 'Ada Lovelace', company: 'evil.com' }],
      [
        { name: '\uff21\uff44\uff41 Love\u00adlace', company: 'Analytical\u200b Engines\u2060' },
        { name: 'Ada Lovelace', company: 'Analytical Engines' },
      ],
      [
        { name: 'Ada\u00a0Lovelace\u202e', company: '\ufb01nance Ltd' },
        { name: 'Ada Lovelace', company: 'finance Ltd' },
      ],
    ];
    for (const [index, [fields, stored]] of cases.entries()) {
      const sent = Object.fromEntries(
        Object.entries(fields).map(([key, value]) => [key, JSON.parse(`"${value}"`) as string]),
      );
      const timeSlot = new Date(Date.parse(TUESDAY_9) + index * 3_600_000).toISOString();
      const answer = await app.post(
        '/api/demo-request',
        booking({ ...sent, timeSlot, email: `ada${index}@analytical-engines.com` }),
      );
      expect(answer.status, JSON.stringify(answer.body)).to.equal(201);
      const row = (await app.db('bookings').where({ id: answer.body.id }).first('name', 'company')) as {
        name: string;
        company: string;
      };
      expect(row, JSON.stringify(sent)).to.deep.equal(stored);
    }
  });

  it('books names with initials and titles, and a company named after its domain', async () => {
    for (const [timeSlot, name, company] of [
      ['2026-11-24T09:00:00.000Z', 'J.R. Smith', 'Booking.com'],
      ['2026-11-24T10:00:00.000Z', 'Dr.Who', 'Analytical Engines'],
    ] as const) {
      const answer = await app.post(
        '/api/demo-request',
        booking({ name, company, email: `${name.replace(/\W/g, '').toLowerCase()}@analytical-engines.com`, timeSlot }),
      );
      expect(answer.status, name).to.equal(201);
    }
  });
});
