import { expect } from 'chai';
import type { EmailValidationResult } from '../../../domain/email-messages.js';
import { checkEmail } from './email-check.js';

const result = (overrides: Partial<EmailValidationResult>): EmailValidationResult => ({
  isValid: true,
  isDisposable: false,
  isFreeProvider: false,
  isRoleEmail: false,
  ...overrides,
});

describe('e-mail check', () => {
  it('refuses an empty value without calling the server', async () => {
    let calls = 0;
    const outcome = await checkEmail('   ', async () => {
      calls += 1;
      return result({});
    });
    expect(outcome).to.deep.equal({ state: 'invalid', reason: 'Email is required' });
    expect(calls).to.equal(0);
  });

  it('passes a valid answer on, trimmed', async () => {
    let asked = '';
    const outcome = await checkEmail(' ana@acme.io ', async (email) => {
      asked = email;
      return result({});
    });
    expect(asked).to.equal('ana@acme.io');
    expect(outcome).to.deep.equal({ state: 'valid' });
  });

  it("shows the server's reason and suggestion for an invalid address", async () => {
    const outcome = await checkEmail('ana@gmial.com', async () =>
      result({
        isValid: false,
        isFreeProvider: true,
        reason: 'Please use your company email address.',
        suggestion: 'ana@gmail.com',
      }),
    );
    expect(outcome).to.deep.equal({
      state: 'invalid',
      reason: 'Please use your company email address.',
      suggestion: 'ana@gmail.com',
    });
  });

  it('keeps a suggestion on a valid address', async () => {
    const outcome = await checkEmail('ana@acme.con', async () => result({ suggestion: 'ana@acme.com' }));
    expect(outcome).to.deep.equal({ state: 'valid', suggestion: 'ana@acme.com' });
  });

  it('treats a failing call as valid and logs it', async () => {
    const original = console.error;
    const logged: unknown[] = [];
    console.error = (...args: unknown[]) => logged.push(args);
    try {
      const outcome = await checkEmail('ana@acme.io', async () => {
        throw new Error('500: boom');
      });
      expect(outcome).to.deep.equal({ state: 'valid' });
      expect(logged).to.have.length(1);
    } finally {
      console.error = original;
    }
  });
});
