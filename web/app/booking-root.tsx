import { Provider } from 'react-redux';
import { ThemeProvider } from 'styled-components';
import { LegalTopBar } from '../features/legal/legal-page.js';
import { ManageBooking, type ManageBookingProps } from '../features/manage-booking/manage-booking.js';
import { SiteFooter } from '../features/site-footer/site-footer.js';
import type { AppStore } from '../store/store.js';
import { theme } from '../components/theme.js';

/**
 * The booking manage page, /booking/{token}: the site's plain top bar and footer around the booking. Prerendered in
 * its loading state by booking-prerender.tsx and hydrated by booking-main.tsx, its own small entry.
 */
export function BookingRoot({ store, ...page }: ManageBookingProps & { store: AppStore }) {
  return (
    <Provider store={store}>
      <ThemeProvider theme={theme}>
        <LegalTopBar />
        <ManageBooking {...page} />
        <SiteFooter />
      </ThemeProvider>
    </Provider>
  );
}
