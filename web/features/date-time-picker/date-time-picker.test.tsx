import { expect } from 'chai';
import { Provider } from 'react-redux';
import { ThemeProvider } from 'styled-components';
import { api } from '../../store/api.js';
import { makeStore } from '../../store/store.js';
import { theme } from '../../components/theme.js';
import { renderPage } from '../../test/render.js';
import { DateTimePicker } from './date-time-picker.js';

const noop = () => undefined;

function legendIn(zone: string): string {
  const { text } = renderPage(
    <Provider store={makeStore()}>
      <ThemeProvider theme={theme}>
        <DateTimePicker
          now={new Date('2026-11-23T10:00:00Z')}
          zone={zone}
          visitorZone={zone}
          day={null}
          slotIso={null}
          onDayChange={noop}
          onSlotChange={noop}
        />
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

describe('the date and time picker, moving a booking', () => {
  it("names the booking's own slot as its current time and does not offer it; the others stay open", () => {
    // Tuesday 24 November 2026; the booking holds 09:00 Berlin (08:00 UTC).
    const current = '2026-11-24T08:00:00.000Z';
    const { html } = renderPage(
      <Provider store={makeStore()}>
        <ThemeProvider theme={theme}>
          <DateTimePicker
            now={new Date('2026-11-23T10:00:00Z')}
            zone="Europe/Berlin"
            visitorZone="Europe/Berlin"
            day={{ year: 2026, month: 11, day: 24 }}
            slotIso={null}
            currentSlot={current}
            onDayChange={noop}
            onSlotChange={noop}
          />
        </ThemeProvider>
      </Provider>,
    );
    const labels = [...html.matchAll(/<label[^>]*>([\s\S]*?)<\/label>/g)].map((match) => match[1] ?? '');
    const own = labels.filter((label) => label.includes(`value="${current}"`));
    expect(own).to.have.length(1);
    expect(own[0])
      .to.match(/disabled=""/)
      .and.contain('Your current time')
      .and.not.contain('Taken');
    const others = labels.filter((label) => label.includes('name="timeSlot"') && !label.includes(current));
    expect(others).to.have.length(16);
    expect(others.every((label) => !label.includes('disabled'))).to.equal(true);
  });
});

describe("the date and time picker, when no team member's calendar can be read", () => {
  const pickerWith = async (salesDesk?: string) => {
    const store = makeStore();
    const slots = Array.from({ length: 17 }, (_, i) => ({
      start: new Date(Date.UTC(2026, 10, 24, 6 + i)).toISOString(),
      available: false,
    }));
    await store.dispatch(
      api.util.upsertQueryData('daySlots', '2026-11-24', {
        date: '2026-11-24',
        timeZone: 'Europe/Berlin',
        slots,
        calendarsUnreadable: true,
        ...(salesDesk ? { salesDesk } : {}),
      }),
    );
    return renderPage(
      <Provider store={store}>
        <ThemeProvider theme={theme}>
          <DateTimePicker
            now={new Date('2026-11-23T10:00:00Z')}
            zone="Europe/Berlin"
            visitorZone="Europe/Berlin"
            day={{ year: 2026, month: 11, day: 24 }}
            slotIso={null}
            onDayChange={noop}
            onSlotChange={noop}
          />
        </ThemeProvider>
      </Provider>,
    );
  };

  it('says so and names the sales desk instead of showing a day that looks fully booked', async () => {
    const { html, text } = await pickerWith('sales@converge.test');
    expect(html).to.not.contain('name="timeSlot"');
    expect(text).to.contain("We cannot see our team's calendars right now, so we cannot show free times.");
    expect(html).to.contain('<a href="mailto:sales@converge.test">sales@converge.test</a>');
    expect(text).to.not.contain('0 times available');
  });

  it('asks to try again later when the server names no sales desk', async () => {
    const { text } = await pickerWith();
    expect(text).to.contain('Please try again in a few minutes.');
  });
});
