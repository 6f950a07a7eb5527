import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { ThemeProvider } from 'styled-components';
import { theme } from '../components/theme.js';
import { readBookingTimeZone } from '../features/date-time-picker/booking-rules-meta.js';
import { SalesPage } from '../features/sales/sales-page.js';
import { makeStore } from '../store/store.js';

/**
 * The sales page (/admin), a bundle of its own: the landing page and the booking page carry none of it. Nothing is
 * prerendered but a line saying it loads; it draws itself once its script runs.
 */
const container = document.getElementById('root');
if (container) {
  createRoot(container).render(
    <Provider store={makeStore()}>
      <ThemeProvider theme={theme}>
        <SalesPage timeZone={readBookingTimeZone()} />
      </ThemeProvider>
    </Provider>,
  );
}
