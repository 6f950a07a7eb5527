import { expect } from 'chai';
import { startAppUnderTest, type AppUnderTest } from '../../test/app-under-test.js';
import { mistypedPersonalMessage, unknownEndingMessage } from '../../domain/email-messages.js';
import { checkEmail } from '../email-rules.js';

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
    expect(await check('grace@hopper-systems.com')).to.deep.equal({
      isValid: true,
      isDisposable: false,
      isFreeProvider: false,
      isRoleEmail: false,
    });
  });

  it('says an empty address is required', async () => {
    expect(await check('')).to.deep.equal({
      isValid: false,
      isDisposable: false,
      isFreeProvider: false,
      isRoleEmail: false,
      reason: 'Email is required',
    });
    expect((await check('   ')).reason).to.equal('Email is required');
  });

  it('gives a reason for bad syntax', async () => {
    expect(await check('grace@')).to.include({ isValid: false, reason: 'Please enter a valid email address.' });
  });

  it('refuses personal providers as free providers', async () => {
    expect(await check('grace@Yahoo.com')).to.deep.equal({
      isValid: false,
      isDisposable: false,
      isFreeProvider: true,
      isRoleEmail: false,
      reason: PERSONAL,
    });
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
    expect(await check('grace@hopper-systems.con')).to.include({
      isValid: false,
      reason: unknownEndingMessage('con'),
      suggestion: 'grace@hopper-systems.com',
    });
    const personal = await check('grace@gmial.com');
    expect(personal)
      .to.include({ isValid: false, reason: mistypedPersonalMessage('gmail.com') })
      .and.not.have.property('suggestion');
  });

  it('refuses an ending that is no top-level domain: no mail reaches it', async () => {
    expect(await check('ana@contoso.logisticz'))
      .to.include({ isValid: false, reason: unknownEndingMessage('logisticz') })
      .and.not.have.property('suggestion');
    expect(await check('ana@contoso.io')).to.include({ isValid: true });
  });

  it('answers 400 when the email field is missing or not text', async () => {
    const missing = await app.post('/api/validate-email', {});
    expect(missing.status).to.equal(400);
    expect(missing.body).to.deep.include({ details: 'Email is required', fields: { email: 'Email is required' } });
    const notText = await app.post('/api/validate-email', { email: 7 });
    expect(notText.status).to.equal(400);
  });
});

describe('POST /api/validate-email, address after address', () => {
  let app: AppUnderTest;
  before(async () => {
    app = await startAppUnderTest();
  });
  after(async () => {
    await app.close();
  });

  it('answers each address as checkEmail does, however many addresses at one domain came before', async () => {
    const emails = [
      'ada@analytical-engines.com',
      'someone@gmial.com',
      'Other@GMIAL.com',
      'sales@analytical-engines.com',
      'x@mailinator.com',
      'y@mailinator.com',
      'ada@analytical-engines.con',
      'bob@analytical-engines.con',
      '@analytical-engines.com',
      'ada@analytical-engines.com',
    ];
    for (const email of emails) {
      const response = await app.post('/api/validate-email', { email });
      expect(response.status, email).to.equal(200);
      expect(response.body, email).to.deep.equal(JSON.parse(JSON.stringify(checkEmail(email))));
    }
  });
});
