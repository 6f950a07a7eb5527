import { Provider } from 'react-redux';
import { DemoRequestDialog } from '../features/demo-request/demo-request-dialog.js';
import { Toasts } from './notify.js';
import { makeStore } from './store.js';

// One store for the page's lifetime; it is created with this chunk, which only the dialog needs.
const store = makeStore();

interface DemoRuntimeProps {
  isOpen: boolean;
  onClose: () => void;
}

export default function DemoRuntime({ isOpen, onClose }: DemoRuntimeProps) {
  return (
    <Provider store={store}>
      <Toasts />
      <DemoRequestDialog isOpen={isOpen} onClose={onClose} />
    </Provider>
  );
}
