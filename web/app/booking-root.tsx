import { Provider } from 'react-redux';
import { ThemeProvider } from 'styled-components';
import { LegalTopBar } from '../features/legal/legal-page.js';
import { ManageBooking, type ManageBookingProps } from '../features/manage-booking/manage-booking.js';
import { SiteFooter } from '../features/site-footer/site-footer.js';
import type { AppStore } from '../store/store.js';
import { theme } from '../components/theme.js';

/**
 * The booking manage page, /booking/{token}: the site's plain top bar and footer around the booking. Rendered with the
 * booking by the server (booking-prerender.tsx, called from api/web.ts), or in its loading state at build time, and
 * hydrated by booking-app.tsx, which the page's first small script (booking-main.ts) fetches on a visitor's intent.
 */
export function BookingRoot({ store, ...page }: ManageBookingProps & { store: AppStore }) {
  return (
    <Provider store={store}>
      <ThemeProvider theme={theme}>
        <LegalTopBar />
        <ManageBooking {...page} />
        <SiteFooter landingPath="/" />
      </ThemeProvider>
    </Provider>
  );
}
