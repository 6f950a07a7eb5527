import { styled } from 'styled-components';

const Mark = styled.span`
  display: inline-flex;
  align-items: center;
  gap: ${({ theme }) => theme.space[2]};
  font-weight: 800;
  font-size: ${({ theme }) => theme.text.xl};
  letter-spacing: -0.02em;
`;

/** The word mark: two arcs converging on a point, then the product name. */
export function Logo({ name }: { name: string }) {
  return (
    <Mark>
      <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="8" fill="#4338ca" />
        <path d="M7 10c6 0 9 3 9 6M7 22c6 0 9-3 9-6M16 16h9" stroke="#fff" strokeWidth="2.6" fill="none" strokeLinecap="round" />
        <circle cx="25" cy="16" r="2.4" fill="#5eead4" />
      </svg>
      {name}
    </Mark>
  );
}
