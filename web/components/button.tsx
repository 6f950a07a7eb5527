import { styled, css } from 'styled-components';

type Variant = 'primary' | 'secondary' | 'onNight';

export const Button = styled.button<{ $variant?: Variant; $size?: 'md' | 'lg' }>`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: ${({ theme }) => theme.space[2]};
  min-height: ${({ $size }) => ($size === 'lg' ? '52px' : '44px')};
  padding: 0 ${({ theme, $size }) => ($size === 'lg' ? theme.space[8] : theme.space[5])};
  border-radius: ${({ theme }) => theme.radius.pill};
  border: 2px solid transparent;
  font-size: ${({ theme, $size }) => ($size === 'lg' ? theme.text.lg : theme.text.md)};
  font-weight: 700;
  text-decoration: none;
  white-space: nowrap;
  cursor: pointer;
  transition:
    background-color 150ms ease,
    border-color 150ms ease,
    transform 150ms ease;
  &:hover:not(:disabled) {
    transform: translateY(-1px);
  }
  &:disabled {
    cursor: not-allowed;
    opacity: 0.7;
  }
  ${({ theme, $variant = 'primary' }) =>
    $variant === 'primary'
      ? css`
          background: ${theme.colors.primary};
          color: #fff;
          &:hover:not(:disabled) {
            background: ${theme.colors.primaryHover};
          }
        `
      : $variant === 'onNight'
        ? css`
            background: #fff;
            color: ${theme.colors.ink};
            &:hover:not(:disabled) {
              background: ${theme.colors.primarySoft};
            }
          `
        : css`
            background: transparent;
            color: inherit;
            border-color: currentColor;
          `}
`;
