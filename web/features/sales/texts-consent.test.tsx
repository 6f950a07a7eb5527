import { expect } from 'chai';
import { ThemeProvider } from 'styled-components';
import { theme } from '../../components/theme.js';
import type { SmsView } from '../../../domain/sales.js';
import { renderPage } from '../../test/render.js';
import { TextsConsent } from './texts-consent.js';

const consent: SmsView = {
  phone: '+33612345678',
  consentText: 'Text me a confirmation and a reminder',
  consentAt: '2026-12-01T09:00:00.000Z',
  optedOutAt: '2026-12-02T18:30:00.000Z',
  texts: [],
  delivered: 0,
  failed: 0,
  withheld: [],
};
const render = (sms: SmsView | null, anonymised = false) =>
  renderPage(
    <ThemeProvider theme={theme}>
      <TextsConsent sms={sms} anonymised={anonymised} timeZone="Europe/Berlin" />
    </ThemeProvider>,
  );

describe('the sales page: a booking’s texts (issue 40)', () => {
  it('shows the number, the words ticked and when, and the STOP, in a list of terms', () => {
    const { html, text } = render(consent);
    expect(html).to.match(/<h3 id="texts-title">Texts<\/h3>/);
    expect(text)
      .to.contain('Number +33612345678')
      .and.contain('Words agreed to “Text me a confirmation and a reminder”')
      .and.contain('Agreed 1 Dec 2026, 10:00')
      .and.contain('Opted out (STOP) 2 Dec 2026, 19:30 : no text goes to this number any more')
      .and.contain('Delivered 0 Failed 0')
      .and.contain('Texts sent Kind Sent Receipt None yet.');
    // Nothing held back: no table of it.
    expect(text).to.not.contain('held back');
    expect(render({ ...consent, optedOutAt: null }).text).to.contain('Opted out (STOP) No');
  });

  it('shows each text and where it stands, the counts, and the texts a limit held back', () => {
    const { html, text } = render({
      ...consent,
      delivered: 1,
      failed: 1,
      texts: [
        {
          kind: 'sms-confirmation',
          sentAt: '2026-12-01T09:00:05.000Z',
          state: 'delivered',
          stateAt: '2026-12-01T09:00:09.000Z',
        },
        { kind: 'sms-update', sentAt: null, state: 'failed', stateAt: '2026-12-01T10:00:00.000Z' },
        { kind: 'sms-update', sentAt: '2026-12-01T10:05:00.000Z', state: null, stateAt: null },
        { kind: 'sms-reminder', sentAt: null, state: null, stateAt: null },
      ],
      withheld: [{ kind: 'sms-reminder', reason: 'number-per-day', at: '2026-12-01T11:00:00.000Z' }],
    });
    expect(text).to.contain('Delivered 1 Failed 1');
    expect(html).to.match(/<th scope="col">Kind<\/th><th scope="col">Sent<\/th><th scope="col">Receipt<\/th>/);
    expect(text)
      .to.contain('Confirmation 1 Dec 2026, 10:00 delivered ( 1 Dec 2026, 10:00 )')
      .and.contain('Update — failed ( 1 Dec 2026, 11:00 )')
      .and.contain('Update 1 Dec 2026, 11:05 No receipt yet')
      .and.contain('Reminder — Not sent');
    expect(text).to.contain(
      'Texts held back by a limit Kind When Why Reminder 1 Dec 2026, 12:00 The number had its texts for the day',
    );
  });

  it('says there is no consent, or that it went with the personal data', () => {
    expect(render(null).text).to.contain('The prospect did not agree to texts');
    expect(render(null, true).text).to.contain('Removed with the booking’s personal data.');
  });
});
