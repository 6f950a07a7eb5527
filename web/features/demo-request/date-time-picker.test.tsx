import { expect } from 'chai';
import { Provider } from 'react-redux';
import { ThemeProvider } from 'styled-components';
import { makeStore } from '../../app/store.js';
import { theme } from '../../app/theme.js';
import { renderPage } from '../../test/render.js';
import { DateTimePicker } from './date-time-picker.js';

const noop = () => undefined;

function legendIn(zone: string): string {
  const { text } = renderPage(
    <Provider store={makeStore()}>
      <ThemeProvider theme={theme}>
        <DateTimePicker now={new Date('2026-11-23T10:00:00Z')} zone={zone} visitorZone={zone} day={null} slotIso={null} onDayChange={noop} onSlotChange={noop} />
      </ThemeProvider>
    </Provider>,
  );
  return /Select Date & Time \([^)]*\)/.exec(text)?.[0] ?? text.slice(0, 200);
}

describe('the date and time picker', () => {
  it('names the booking zone in its legend: the specification words for a European zone, its own name for another', () => {
    expect(legendIn('Europe/Berlin')).to.equal('Select Date & Time (Europe Time)');
    expect(legendIn('America/New_York')).to.equal('Select Date & Time (Eastern Time)');
  });
});
