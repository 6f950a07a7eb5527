import { styled } from 'styled-components';
import { brand } from '../../domain/brand.js';

const { mark } = brand;

const WordMark = styled.span`
  display: inline-flex;
  align-items: center;
  gap: ${({ theme }) => theme.space[2]};
  font-weight: 800;
  font-size: ${({ theme }) => theme.text.xl};
  letter-spacing: -0.02em;
`;

/**
 * The brand's mark (domain/brand.ts) as SVG, `size` px square; `x` and `y` place it inside a larger drawing (the
 * product console, the link preview and the e-mails' logo, which the build rasterises).
 */
export function BrandMark({ size, x, y }: { size: number; x?: number; y?: number }) {
  return (
    <svg x={x} y={y} width={size} height={size} viewBox={mark.viewBox} aria-hidden="true">
      <rect width="32" height="32" rx={mark.tileRadius} fill={brand.colors.primary} />
      <path d={mark.arcs} stroke="#fff" strokeWidth="2.6" fill="none" strokeLinecap="round" />
      <circle cx={mark.point.cx} cy={mark.point.cy} r={mark.point.r} fill={brand.colors.markPoint} />
    </svg>
  );
}

/** The word mark: the brand's mark, then the product name. */
export function Logo({ name }: { name: string }) {
  return (
    <WordMark>
      <BrandMark size={28} />
      {name}
    </WordMark>
  );
}
