import { expect } from 'chai';
import { startAppUnderTest, type AppUnderTest } from '../../test/app-under-test.js';
import { mistypedPersonalMessage } from '../../domain/email-messages.js';
import { checkEmail } from '../../server-shared/email-rules.js';
import { cachedEmailCheck } from './routes.js';

const PERSONAL = 'Please use your company email address. Personal email addresses are not accepted.';

describe('POST /api/validate-email', () => {
  let app: AppUnderTest;
  before(async () => {
    app = await startAppUnderTest();
  });
  after(async () => {
    await app.close();
  });

  const check = async (email: unknown) => {
    const response = await app.post('/api/validate-email', { email });
    expect(response.status).to.equal(200);
    return response.body;
  };

  it('accepts a company address', async () => {
    expect(await check('grace@hopper-systems.com')).to.deep.equal({ isValid: true, isDisposable: false, isFreeProvider: false, isRoleEmail: false });
  });

  it('says an empty address is required', async () => {
    expect(await check('')).to.deep.equal({ isValid: false, isDisposable: false, isFreeProvider: false, isRoleEmail: false, reason: 'Email is required' });
    expect((await check('   ')).reason).to.equal('Email is required');
  });

  it('gives a reason for bad syntax', async () => {
    expect(await check('grace@')).to.include({ isValid: false, reason: 'Please enter a valid email address.' });
  });

  it('refuses personal providers as free providers', async () => {
    expect(await check('grace@Yahoo.com')).to.deep.equal({ isValid: false, isDisposable: false, isFreeProvider: true, isRoleEmail: false, reason: PERSONAL });
  });

  it('refuses disposable domains', async () => {
    expect(await check('grace@guerrillamail.com')).to.include({
      isValid: false,
      isDisposable: true,
      reason: 'Disposable email addresses are not accepted. Please use your company email address.',
    });
  });

  it('flags role addresses but accepts them', async () => {
    expect(await check('sales@hopper-systems.com')).to.include({ isValid: true, isRoleEmail: true });
  });

  it('suggests a corrected address for a likely typo, unless it is a personal one the form refuses', async () => {
    expect(await check('grace@hopper-systems.con')).to.include({ isValid: true, suggestion: 'grace@hopper-systems.com' });
    const personal = await check('grace@gmial.com');
    expect(personal).to.include({ isValid: false, reason: mistypedPersonalMessage('gmail.com') }).and.not.have.property('suggestion');
  });

  it('answers 400 when the email field is missing or not text', async () => {
    const missing = await app.post('/api/validate-email', {});
    expect(missing.status).to.equal(400);
    expect(missing.body).to.deep.include({ details: 'Email is required', fields: { email: 'Email is required' } });
    const notText = await app.post('/api/validate-email', { email: 7 });
    expect(notText.status).to.equal(400);
  });
});

describe('the e-mail check kept for recent addresses', () => {
  it('answers as checkEmail does, and forgets the least recently asked address first', () => {
    const check = cachedEmailCheck(2);
    for (const email of ['ada@analytical-engines.com', 'someone@gmial.com', 'ada@analytical-engines.com', 'x@mailinator.com', 'someone@gmial.com']) {
      expect(check(email)).to.deep.equal(checkEmail(email));
    }
    const first = check('ada@analytical-engines.com');
    expect(check('ada@analytical-engines.com')).to.equal(first);
    check('b@analytical-engines.com');
    check('c@analytical-engines.com');
    // Two more addresses since: the first was dropped, and its answer is made afresh (the same, a new object).
    const again = check('ada@analytical-engines.com');
    expect(again).to.not.equal(first);
    expect(again).to.deep.equal(first);
  });
});
