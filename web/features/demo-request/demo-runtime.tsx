import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { css, styled, ThemeProvider } from 'styled-components';
import { theme } from '../../components/theme.js';
import { makeStore } from '../../store/store.js';
import { Toasts } from '../../components/notify.js';
import { DemoRequestDialog, DIALOG_MAX_WIDTH_PX } from './demo-request-dialog.js';

// One store for the page's lifetime; it is created with this chunk, which only the dialog needs.
const store = makeStore();

/**
 * The dialog and the toasts share one full-screen layer, a column: the dialog gets the room a toast leaves, so a
 * toast never lies over it (notify.tsx places the toasts). Closed, the layer lets every click through to the page.
 */
const Layer = styled.div<{ $open: boolean }>`
  position: fixed;
  inset: 0;
  z-index: 50;
  display: flex;
  flex-direction: column;
  justify-content: flex-start;
  pointer-events: none;
  ${({ $open }) =>
    $open &&
    css`
      pointer-events: auto;
      background: rgba(11, 21, 48, 0.6);
    `}
`;

interface DemoRuntimeProps {
  isOpen: boolean;
  onClose: () => void;
}

function DemoRuntime({ isOpen, onClose }: DemoRuntimeProps) {
  return (
    <Provider store={store}>
      <Layer $open={isOpen}>
        <DemoRequestDialog isOpen={isOpen} onClose={onClose} />
        <Toasts dialogMaxWidthPx={DIALOG_MAX_WIDTH_PX} />
      </Layer>
    </Provider>
  );
}

/** What the island renders into its layer (demo-island.ts), the dialog open or closed. */
export function demoTree(isOpen: boolean, onClose: () => void): ReactElement {
  return (
    <ThemeProvider theme={theme}>
      <DemoRuntime isOpen={isOpen} onClose={onClose} />
    </ThemeProvider>
  );
}
