import { styled } from 'styled-components';
import { brand } from '../../domain/brand.js';

const { mark } = brand;

const Mark = styled.span`
  display: inline-flex;
  align-items: center;
  gap: ${({ theme }) => theme.space[2]};
  font-weight: 800;
  font-size: ${({ theme }) => theme.text.xl};
  letter-spacing: -0.02em;
`;

/** The word mark: the brand's mark (domain/brand.ts, drawn the same in the e-mails), then the product name. */
export function Logo({ name }: { name: string }) {
  return (
    <Mark>
      <svg width="28" height="28" viewBox={mark.viewBox} aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx={mark.tileRadius} fill={brand.colors.primary} />
        <path d={mark.arcs} stroke="#fff" strokeWidth="2.6" fill="none" strokeLinecap="round" />
        <circle cx={mark.point.cx} cy={mark.point.cy} r={mark.point.r} fill={brand.colors.markPoint} />
      </svg>
      {name}
    </Mark>
  );
}
