import { toast, ToastContainer } from 'react-toastify';
import { styled } from 'styled-components';

const TOAST_WIDTH_PX = 340;
/** react-toastify measures the swipe in percent of the toast's width; about 50 px is the threshold asked for. */
const SWIPE_THRESHOLD_PX = 50;

const Title = styled.p`
  font-weight: 700;
  margin: 0;
`;

const Text = styled.p`
  margin: 2px 0 0;
  font-size: 0.9375rem;
`;

function ToastBody({ title, text }: { title: string; text: string }) {
  return (
    <div>
      <Title>{title}</Title>
      <Text>{text}</Text>
    </div>
  );
}

export function notifySuccess(title: string, text: string): void {
  toast.success(<ToastBody title={title} text={text} />, { role: 'status' });
}

/** The destructive toast. */
export function notifyError(title: string, text: string): void {
  toast.error(<ToastBody title={title} text={text} />, { role: 'alert' });
}

const Region = styled.div`
  --toastify-toast-width: ${TOAST_WIDTH_PX}px;
  --toastify-font-family: ${({ theme }) => theme.font.family};
  --toastify-color-success: ${({ theme }) => theme.colors.success};
  --toastify-color-error: ${({ theme }) => theme.colors.danger};
  --toastify-text-color-light: ${({ theme }) => theme.colors.ink};
  .Toastify__toast--error {
    border-left: 6px solid ${({ theme }) => theme.colors.danger};
  }
  .Toastify__toast--success {
    border-left: 6px solid ${({ theme }) => theme.colors.success};
  }
  .Toastify__close-button {
    opacity: 0.8;
    color: ${({ theme }) => theme.colors.ink};
  }
`;

/** One toast at a time, 5 s, swipe to dismiss, F8 moves focus to the notifications. */
export function Toasts() {
  return (
    <Region>
      <ToastContainer
        position="top-right"
        limit={1}
        autoClose={5000}
        draggable
        draggableDirection="x"
        draggablePercent={Math.round((SWIPE_THRESHOLD_PX / TOAST_WIDTH_PX) * 100)}
        closeOnClick={false}
        pauseOnFocusLoss
        aria-label="Notifications (F8)"
        hotKeys={(event) => event.key === 'F8'}
      />
    </Region>
  );
}
