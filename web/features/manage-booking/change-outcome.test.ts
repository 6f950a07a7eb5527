import { expect } from 'chai';
import { SLOT_TAKEN_MESSAGE, TIME_SLOT_WINDOW_MESSAGE } from '../../../domain/booking.js';
import { changeProblem } from './change-outcome.js';

/** An error as RTK Query hands it over from the base query. */
const answered = (status: number, data?: unknown) => ({ status, message: `${status}: …`, data });

describe('why a reschedule or a cancellation failed', () => {
  it('is about the time when the server names the time: a slot outside the rules, or taken meanwhile', () => {
    expect(
      changeProblem(
        answered(400, { error: 'Invalid reschedule', details: 'x', fields: { timeSlot: TIME_SLOT_WINDOW_MESSAGE } }),
      ),
    ).to.deep.equal({ kind: 'time', text: TIME_SLOT_WINDOW_MESSAGE });
    expect(
      changeProblem(
        answered(409, { error: 'Slot taken', details: SLOT_TAKEN_MESSAGE, fields: { timeSlot: SLOT_TAKEN_MESSAGE } }),
      ),
    ).to.deep.equal({
      kind: 'time',
      text: SLOT_TAKEN_MESSAGE,
    });
  });

  it('says the page is out of date for any other 409 (cancelled, started) and for a 404, with the details', () => {
    const cancelled = 'This demo was cancelled, so it cannot be moved.';
    expect(changeProblem(answered(409, { error: 'Booking cancelled', details: cancelled }))).to.deep.equal({
      kind: 'stale',
      text: cancelled,
    });
    expect(
      changeProblem(answered(404, { error: 'Not found', details: 'There is no booking at this link.' })),
    ).to.deep.equal({
      kind: 'stale',
      text: 'There is no booking at this link.',
    });
  });

  it('offers another try after a 429 or a 503: the details, else the error, else a message of its own', () => {
    expect(
      changeProblem(answered(429, { error: 'Too many requests', details: 'Please try again in about 12 minutes.' })),
    ).to.deep.equal({
      kind: 'retry',
      text: 'Please try again in about 12 minutes.',
    });
    expect(changeProblem(answered(503, { error: 'Service unavailable' }))).to.deep.equal({
      kind: 'retry',
      text: 'Service unavailable',
    });
    expect(changeProblem(answered(503))).to.deep.equal({
      kind: 'retry',
      text: 'Your booking could not be changed. Please try again.',
    });
    expect(changeProblem({ status: 'FETCH_ERROR', message: 'Failed to fetch' }).text).to.match(
      /^Your booking could not be changed: the server did not answer\./,
    );
  });
});
