/**
 * The prerendered parts of the Request Demo dialog that must work before its code has arrived: the layer the dialog
 * and the toasts are rendered into, the panel that stands in while the code loads, and the place a failed load is
 * reported. demo-launcher.ts drives them.
 */
import { styled } from 'styled-components';
import { Spinner } from '../../components/icons.js';
import { DEMO_LAYER_ID, DEMO_LOADING_ID, DEMO_PROBLEM_ID } from './demo-launcher.js';

const LoadingBackdrop = styled.div`
  position: fixed;
  inset: 0;
  z-index: 50;
  display: grid;
  place-items: center;
  background: rgba(11, 21, 48, 0.6);
  /* Shown only if loading takes a while, so a quick open does not flash it. */
  animation: demo-loading-appear 0.2s 0.3s both;
  &[hidden] {
    display: none;
  }
  @keyframes demo-loading-appear {
    from {
      opacity: 0;
    }
    to {
      opacity: 1;
    }
  }
`;

const LoadingPanel = styled.div`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space[4]};
  padding: ${({ theme }) => theme.space[6]};
  border-radius: ${({ theme }) => theme.radius.lg};
  background: #fff;
  box-shadow: ${({ theme }) => theme.shadow.raised};
  button {
    border: 1px solid ${({ theme }) => theme.colors.borderStrong};
    border-radius: ${({ theme }) => theme.radius.pill};
    background: none;
    padding: ${({ theme }) => `${theme.space[2]} ${theme.space[4]}`};
    cursor: pointer;
  }
`;

const LoadProblem = styled.p`
  position: fixed;
  left: 50%;
  bottom: ${({ theme }) => theme.space[6]};
  transform: translateX(-50%);
  z-index: 60;
  width: min(30rem, calc(100% - 2rem));
  padding: ${({ theme }) => `${theme.space[3]} ${theme.space[4]}`};
  border-left: 6px solid ${({ theme }) => theme.colors.danger};
  border-radius: ${({ theme }) => theme.radius.md};
  background: #fff;
  box-shadow: ${({ theme }) => theme.shadow.raised};
  &:empty {
    display: none;
  }
`;

export function DemoShell() {
  return (
    <>
      <div id={DEMO_LAYER_ID} />
      <LoadingBackdrop id={DEMO_LOADING_ID} hidden>
        <LoadingPanel role="dialog" aria-modal="true" aria-label="Request Demo" aria-busy="true">
          <Spinner />
          <p role="status">Loading the form…</p>
          <button type="button">Cancel</button>
        </LoadingPanel>
      </LoadingBackdrop>
      {/* Empty, and so not shown, until a load fails; an alert is read out when its text arrives. */}
      <LoadProblem id={DEMO_PROBLEM_ID} role="alert" />
    </>
  );
}
