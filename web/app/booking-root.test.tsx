import { expect } from 'chai';
import type { BookingView } from '../../domain/demo-request.js';
import { LOADING_TEXT, NOT_FOUND_TITLE, UNAVAILABLE_TITLE } from '../features/manage-booking/manage-booking.js';
import { stubFetch } from '../test/fetch-stub.js';
import { renderPage } from '../test/render.js';
import { api } from '../store/api.js';
import { readBookingPageData } from '../features/manage-booking/booking-page-data.js';
import { renderBookingFor, renderBookingUnavailablePage } from './booking-prerender.js';
import { BookingRoot } from './booking-root.js';
import { makeStore, type AppStore } from '../store/store.js';

const token = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-AbCdE';
const booked: BookingView = {
  timeSlot: '2026-11-24T13:00:00.000Z',
  status: 'booked',
  name: 'Ana Lima',
  company: 'Alder & Finch',
};

function render(store: AppStore, pageToken: string | null = token) {
  return renderPage(
    <BookingRoot store={store} token={pageToken} zone="Europe/Berlin" visitorZone="America/New_York" />,
  );
}

/** A store that has read the booking already: with the booking, or with the error the server answered. */
async function storeWith(answer: Response | BookingView): Promise<AppStore> {
  const store = makeStore();
  if (!(answer instanceof Response)) {
    await store.dispatch(api.util.upsertQueryData('booking', token, answer));
    return store;
  }
  const { restore } = stubFetch(() => answer);
  try {
    await store.dispatch(api.endpoints.booking.initiate(token, { subscribe: false }));
  } finally {
    restore();
  }
  return store;
}

describe('the booking manage page', () => {
  it('is prerendered in its loading state, and hydrates from the same markup before the booking arrives', () => {
    const prerendered = render(makeStore(), null);
    expect(prerendered.text).to.include('Your Converge demo').and.include(LOADING_TEXT);
    expect(prerendered.html).to.match(/<p [^>]*role="status"[^>]*>.*Loading your booking/);
    expect(prerendered.html).to.match(/<a [^>]*href="\/" aria-label="Converge home"/);
    expect(prerendered.text).to.include('Privacy Policy');
    expect(prerendered.text).to.not.include('Reschedule');
    // The browser's first render, with its token and nothing read yet, is what it hydrates.
    expect(render(makeStore()).html).to.equal(prerendered.html);
  });

  it("has footer links that lead to the landing page's sections, not to anchors this page lacks", () => {
    const { html } = render(makeStore(), null);
    for (const id of ['platform', 'architecture', 'capabilities', 'results', 'challenge', 'case-study', 'industries']) {
      expect(html, id).to.include(`href="/#${id}"`).and.not.include(`href="#${id}"`);
    }
    // The contact group's link is the footer's own address, which this page has.
    expect(html).to.include('href="#contact"').and.include('<address id="contact">');
  });

  it("shows who, the company, and when in the booking zone with the visitor's own time; offers Reschedule and Cancel", async () => {
    const { html, text } = render(await storeWith(booked));
    expect(text).to.include('Status Booked');
    expect(text).to.include('When Tuesday, 24 November 2026 at 14:00 Europe Time 08:00 your time');
    expect(text).to.include('Name Ana Lima').and.include('Company Alder & Finch');
    for (const name of ['Reschedule', 'Cancel demo']) {
      const button = new RegExp(
        `<button [^>]*aria-expanded="false" aria-controls="([^"]+)"[^>]*>${name}</button>`,
      ).exec(html);
      expect(button, name).to.not.equal(null);
      expect(html, `the panel ${name} controls`).to.include(`id="${button?.[1] ?? ''}"`);
    }
    expect(text).to.not.include(LOADING_TEXT);
  });

  it('names the host and links the video room when the booking has them; a cancelled demo keeps the name, not the room', async () => {
    const room = 'https://meet.jit.si/ConvergeDemo-abcdefghij2345672345';
    const withHost: BookingView = {
      ...booked,
      meetingUrl: room,
      host: { name: 'Dana Whitfield', title: 'Solutions Engineer' },
    };
    const { html, text } = render(await storeWith(withHost));
    expect(text)
      .to.include('You will meet Dana Whitfield, Solutions Engineer')
      .and.include('Video call Join the video call');
    expect(html).to.match(
      new RegExp(`<a href="${room}" target="_blank" rel="noopener noreferrer">Join the video call</a>`),
    );
    const cancelled = render(await storeWith({ ...withHost, status: 'cancelled' }));
    expect(cancelled.text).to.include('You will meet Dana Whitfield').and.not.include('Join the video call');
  });

  it('shows a cancelled booking as cancelled, with no changes offered and a way to book a new demo', async () => {
    const { html, text } = render(await storeWith({ ...booked, status: 'cancelled' }));
    expect(text).to.include('Status Cancelled').and.include('This demo is cancelled.');
    expect(text).to.not.include('Reschedule').and.not.include('Cancel demo');
    expect(html).to.match(/<a [^>]*href="\/"[^>]*>Book a new demo<\/a>/);
  });

  it('says "This link does not open a booking" for a 404, with a link home', async () => {
    const { html, text } = render(
      await storeWith(
        new Response(JSON.stringify({ error: 'Not found', details: 'There is no booking at this link.' }), {
          status: 404,
        }),
      ),
    );
    expect(html).to.match(new RegExp(`<h1[^>]*>${NOT_FOUND_TITLE}</h1>`));
    expect(html).to.match(/<a [^>]*href="\/"[^>]*>Back to the home page<\/a>/);
    expect(text).to.not.include('Reschedule');
  });

  it("says why the booking could not be loaded otherwise (the server's details), and offers another try", async () => {
    const details = 'We could not reach our database. Please try again in a minute.';
    const { html, text } = render(
      await storeWith(new Response(JSON.stringify({ error: 'Service unavailable', details }), { status: 503 })),
    );
    expect(html).to.match(/role="alert"[^>]*>Your booking could not be loaded\. /);
    expect(text).to.include(details).and.include('Try again');
  });

  it("is rendered by the server with its booking as the browser's first render has it, but for the visitor's own time", async () => {
    const served = renderBookingFor(token, booked, 'Europe/Berlin');
    expect(served.body)
      .to.include('Ana Lima')
      .and.include('Tuesday, 24 November 2026 at 14:00 Europe Time')
      .and.not.include('your time');
    expect(served.body).to.not.include(LOADING_TEXT).and.not.include(token);
    // The browser's store starts from the data block; its first render is what it hydrates, in the visitor's zone.
    const data = readBookingPageData({
      getElementById: () => ({ textContent: /<script[^>]*>(.*)<\/script>/.exec(served.data)?.[1] ?? null }),
    });
    expect(data).to.deep.equal({ booking: booked });
    const store = await storeWith(booked);
    const sameZone = renderPage(
      <BookingRoot store={store} token={token} zone="Europe/Berlin" visitorZone="Europe/Berlin" />,
    );
    expect(served.body).to.equal(sameZone.html);
    // Elsewhere only the element React leaves as the first script filled it differs.
    const newYork = render(store).html;
    const localTime = /(<span[^>]*data-local-time=""[^>]*>)[^<]*(<\/span>)/;
    expect(newYork).to.match(localTime).and.include('08:00 your time');
    expect(newYork.replace(localTime, '$1$2')).to.equal(served.body);
  });

  it('is rendered by the server as "This link does not open a booking" for a token that opens none, asking nothing more', () => {
    const served = renderBookingFor('not-a-token', null, 'Europe/Berlin');
    expect(served.body).to.match(new RegExp(`<h1[^>]*>${NOT_FOUND_TITLE}</h1>`));
    expect(served.data).to.equal('<script type="application/json" id="booking-data">{"booking":null}</script>');
    const browser = renderPage(
      <BookingRoot
        store={makeStore()}
        token="not-a-token"
        zone="Europe/Berlin"
        visitorZone="America/New_York"
        opensNothing
      />,
    );
    expect(browser.html).to.equal(served.body);
  });

  it('is written at build time as the page of a booking the server cannot read: try again shortly, a plain link to reload, nothing asked', () => {
    const { body, styles } = renderBookingUnavailablePage();
    expect(body).to.match(new RegExp(`<h1[^>]*>${UNAVAILABLE_TITLE}</h1>`));
    expect(body).to.match(
      /<p [^>]*role="alert"[^>]*>Your booking cannot be shown right now: .* Please try again shortly\.<\/p>/,
    );
    // "Try again" loads the same address (its token), with no script; the site's top bar and footer are around it.
    expect(body).to.match(/<a [^>]*href=""[^>]*>Try again<\/a>/);
    expect(body)
      .to.match(/<a [^>]*href="\/" aria-label="Converge home"/)
      .and.include('Privacy Policy');
    expect(body).to.not.include(LOADING_TEXT).and.not.include('aria-busy="true"').and.not.include('<script');
    // Never hydrated: no styled-components ids, and its CSS as plain style blocks.
    expect(body).to.not.match(/class="[^"]*\bsc-/);
    expect(styles)
      .to.match(/^<style>/)
      .and.not.include('data-styled');
  });

  it("keeps the data block inert inside the page: no '</script>' from a name", () => {
    const served = renderBookingFor(token, { ...booked, name: '</script><script>alert(1)</script>' }, 'Europe/Berlin');
    expect(served.data.match(/<\/script>/g)).to.have.length(1);
    expect(served.data).to.include('\\u003c/script>');
  });
});
