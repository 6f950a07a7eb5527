import { expect } from 'chai';
import { SLOT_ALREADY_BOOKED_MESSAGE, SLOT_TAKEN_MESSAGE } from '../../domain/booking.js';
import {
  isSlotConflict,
  notRoutedMessage,
  serverAnswerErrors,
  serverFieldErrors,
  submitErrorMessage,
} from './api-errors.js';

describe('submit error messages', () => {
  it("shows the server's details first", () => {
    const error = {
      status: 400,
      message: '400: {...}',
      data: { error: 'Invalid request', details: 'Please use your company email address.' },
    };
    expect(submitErrorMessage(error)).to.equal('Please use your company email address.');
  });

  it('falls back to the error field', () => {
    expect(submitErrorMessage({ status: 503, message: '503: x', data: { error: 'Service unavailable' } })).to.equal(
      'Service unavailable',
    );
    expect(submitErrorMessage({ status: 503, message: '503: x', data: { error: 'Busy', details: '  ' } })).to.equal(
      'Busy',
    );
  });

  it('uses the inner fallback when the server answered without a usable body', () => {
    for (const data of [undefined, 'Bad gateway', {}, { error: '', details: '  ' }, { error: 42, details: null }]) {
      expect(submitErrorMessage({ status: 502, message: '502: x', data }), JSON.stringify(data)).to.equal(
        'Failed to submit demo request',
      );
    }
  });

  it('uses the full fallback when nothing came back', () => {
    expect(submitErrorMessage({ status: 'FETCH_ERROR', message: 'Failed to fetch' })).to.equal(
      'Failed to submit demo request. Please try again.',
    );
    expect(submitErrorMessage(undefined)).to.equal('Failed to submit demo request. Please try again.');
  });

  it('keeps the field messages of known fields only', () => {
    const error = {
      status: 400,
      data: { error: 'x', details: 'y', fields: { email: 'Bad address', timeSlot: 'Too late', admin: 'no', name: 3 } },
    };
    expect(serverFieldErrors(error)).to.deep.equal({ email: 'Bad address', timeSlot: 'Too late' });
    expect(serverFieldErrors({ status: 500, data: { error: 'x' } })).to.deep.equal({});
  });

  it("shows a 429's details, and tells a slot conflict (a 409 about the time) from other refusals", () => {
    const tooMany = {
      status: 429,
      data: { error: 'Too many requests', details: 'Please try again in about 12 minutes.' },
    };
    expect(submitErrorMessage(tooMany)).to.equal('Please try again in about 12 minutes.');
    expect(isSlotConflict(tooMany)).to.equal(false);
    for (const details of [SLOT_TAKEN_MESSAGE, SLOT_ALREADY_BOOKED_MESSAGE]) {
      const conflict = { status: 409, data: { error: 'Slot taken', details, fields: { timeSlot: details } } };
      expect(isSlotConflict(conflict)).to.equal(true);
      expect(submitErrorMessage(conflict)).to.equal(details);
      expect(serverFieldErrors(conflict)).to.deep.equal({ timeSlot: details });
    }
    expect(isSlotConflict({ status: 409, data: { error: 'Conflict', details: 'Something else.' } })).to.equal(false);
    expect(isSlotConflict({ status: 400, data: { error: 'x', fields: { timeSlot: 'Too late' } } })).to.equal(false);
    expect(isSlotConflict({ status: 'FETCH_ERROR', message: 'Failed to fetch' })).to.equal(false);
  });
});

describe("the routing's refusals", () => {
  it("reads a 422's words to show instead of the calendar, and nothing else as one", () => {
    const disqualified = {
      error: 'Not offered a demo online',
      details: 'Thanks',
      disqualified: true,
      message: 'Thanks',
    };
    expect(notRoutedMessage({ status: 422, message: '422: x', data: disqualified })).to.equal('Thanks');
    // An Idempotency-Key come back with another body is a 422 too, with no words for the calendar's place.
    expect(notRoutedMessage({ status: 422, message: '422: x', data: { error: 'Key reused', details: 'x' } })).to.equal(
      undefined,
    );
    expect(notRoutedMessage({ status: 400, message: '400: x', data: disqualified })).to.equal(undefined);
  });

  it("gives the answers' problems by question id, and no other field", () => {
    const fields = { 'answers.companySize': 'Please choose your company size.', email: 'Bad', 'answers.region': ' ' };
    expect(serverAnswerErrors({ status: 400, message: '400: x', data: { fields } })).to.deep.equal({
      companySize: 'Please choose your company size.',
    });
    expect(serverAnswerErrors({ status: 400, message: '400: x', data: {} })).to.deep.equal({});
  });
});
