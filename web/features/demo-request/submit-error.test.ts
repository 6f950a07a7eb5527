import { expect } from 'chai';
import { SUBMIT_FALLBACK_MESSAGE, SUBMIT_INNER_FALLBACK_MESSAGE, serverFieldErrors, submitErrorMessage } from './submit-error.js';

describe('submit error messages', () => {
  it("shows the server's details first", () => {
    const error = { status: 400, message: '400: {...}', data: { error: 'Invalid request', details: 'Please use your company email address.' } };
    expect(submitErrorMessage(error)).to.equal('Please use your company email address.');
  });

  it('falls back to the error field', () => {
    expect(submitErrorMessage({ status: 503, message: '503: x', data: { error: 'Service unavailable' } })).to.equal('Service unavailable');
    expect(submitErrorMessage({ status: 503, message: '503: x', data: { error: 'Busy', details: '  ' } })).to.equal('Busy');
  });

  it('uses the inner fallback when the server answered without a usable body', () => {
    expect(submitErrorMessage({ status: 502, message: '502: <html>', data: undefined })).to.equal(SUBMIT_INNER_FALLBACK_MESSAGE);
    expect(SUBMIT_INNER_FALLBACK_MESSAGE).to.equal('Failed to submit demo request');
  });

  it('uses the full fallback when nothing came back', () => {
    expect(submitErrorMessage({ status: 'FETCH_ERROR', message: 'Failed to fetch' })).to.equal(SUBMIT_FALLBACK_MESSAGE);
    expect(submitErrorMessage(undefined)).to.equal('Failed to submit demo request. Please try again.');
  });

  it('keeps the field messages of known fields only', () => {
    const error = { status: 400, data: { error: 'x', details: 'y', fields: { email: 'Bad address', timeSlot: 'Too late', admin: 'no', name: 3 } } };
    expect(serverFieldErrors(error)).to.deep.equal({ email: 'Bad address', timeSlot: 'Too late' });
    expect(serverFieldErrors({ status: 500, data: { error: 'x' } })).to.deep.equal({});
  });
});
