import { Provider } from 'react-redux';
import { makeStore } from '../../app/store.js';
import { Toasts } from '../../components/notify.js';
import { DemoRequestDialog } from './demo-request-dialog.js';

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
