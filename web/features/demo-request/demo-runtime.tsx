import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { ThemeProvider } from 'styled-components';
import { theme } from '../../components/theme.js';
import { makeStore } from '../../store/store.js';
import { DemoRequestDialog } from './demo-request-dialog.js';

// One store for the page's lifetime; it is created with this chunk, which only the dialog needs.
const store = makeStore();

/**
 * The Request Demo dialog's tree: prerendered into the landing page (web/app/prerender.tsx), then hydrated by the
 * island (demo-island.ts), each as a root of its own so that the form's ids come out the same. `toasts` is the toasts'
 * element, in the browser.
 */
export function demoTree(toasts?: HTMLElement): ReactElement {
  return (
    <ThemeProvider theme={theme}>
      <Provider store={store}>
        <DemoRequestDialog toasts={toasts} />
      </Provider>
    </ThemeProvider>
  );
}
