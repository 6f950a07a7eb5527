/**
 * The dialog's island: React renders the Request Demo dialog and the toasts into their own layer of the prerendered
 * page (nothing else of the page is React's in the browser). demo-launcher.ts loads this chunk and opens and closes it.
 */
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { ThemeProvider } from 'styled-components';
import { theme } from '../../components/theme.js';
import DemoRuntime from './demo-runtime.js';

export interface DemoIsland {
  setOpen: (open: boolean) => void;
}

export function mountDemo(container: HTMLElement, onClose: () => void): DemoIsland {
  const root = createRoot(container);
  // Rendered at once, so when the dialog closes its focus trap is gone before focus goes back to the page.
  const render = (isOpen: boolean) =>
    flushSync(() =>
      root.render(
        <ThemeProvider theme={theme}>
          <DemoRuntime isOpen={isOpen} onClose={onClose} />
        </ThemeProvider>,
      ),
    );
  render(false);
  return { setOpen: render };
}
