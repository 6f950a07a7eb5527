import { expect } from 'chai';
import { calendarAnswerText } from './calendar-answer.js';

describe("the booking page's calendar answer", () => {
  it("says the prospect's answer and when it was read, on the page's clock, or that none came", () => {
    const at = '2026-11-28T09:05:00.000Z';
    expect(calendarAnswerText(null, 'Europe/Berlin')).to.equal('No answer yet');
    expect(calendarAnswerText({ answer: 'ACCEPTED', at }, 'Europe/Berlin')).to.equal(
      'Accepted in their calendar, 28 Nov 2026, 10:05',
    );
    expect(calendarAnswerText({ answer: 'TENTATIVE', at }, 'America/New_York')).to.equal(
      'Tentative in their calendar, 28 Nov 2026, 04:05',
    );
    expect(calendarAnswerText({ answer: 'DECLINED', at }, 'UTC')).to.equal(
      'Declined in their calendar, 28 Nov 2026, 09:05',
    );
  });
});
