import { expect } from 'chai';
import { ThemeProvider } from 'styled-components';
import { theme } from '../../components/theme.js';
import type { BookingDetail } from '../../../domain/sales.js';
import { renderPage } from '../../test/render.js';
import { statusOf } from './parts.js';
import { RoutingExplained } from './routing-explained.js';

describe('the sales page: a booking whose host withdrew (issue 39)', () => {
  it('reads "Needs a new time" while booked and flagged, and its own status otherwise', () => {
    const flagged = { since: '2026-12-01T09:00:00.000Z', reason: 'host-deleted' as const };
    expect(statusOf({ status: 'booked', attendance: null, needsNewTime: flagged })).to.equal('Needs a new time');
    expect(statusOf({ status: 'booked', attendance: null, needsNewTime: null })).to.not.equal('Needs a new time');
    expect(statusOf({ status: 'cancelled', attendance: null, needsNewTime: flagged })).to.not.equal('Needs a new time');
  });

  it("says a handover the host caused was the host's, and which answer", () => {
    const booking = {
      routing: {
        rule: null,
        label: 'every host',
        owner: null,
        ownerLookupFailed: false,
        candidates: [{ email: 'ana@example.com', name: 'Ana', outcome: 'chosen' }],
        reassignments: [
          {
            at: '2026-12-01T09:00:00.000Z',
            from: 'ana@example.com',
            to: 'ben@example.com',
            by: 'the host',
            reason: 'host-declined',
          },
        ],
      },
      answers: null,
      labelledAnswers: [],
    } as unknown as BookingDetail;
    const { text } = renderPage(
      <ThemeProvider theme={theme}>
        <RoutingExplained booking={booking} timeZone="Europe/Berlin" />
      </ThemeProvider>,
    );
    expect(text).to.contain('the host declined the event');
  });
});
