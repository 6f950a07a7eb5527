import type { SVGProps } from 'react';

/**
 * The customers the page names are fictional brands, one for each industry it speaks to, and their wordmarks are our
 * own drawings: inline SVG in the text colour, nothing fetched, no third party's mark. Each is one image to assistive
 * technology, named by the brand. A symbol is one path (holes and overlaps by the even-odd rule) in a 32-unit square; the name is
 * set at a fixed length (textLength), so whatever system font draws it, it fits its drawing.
 */
interface Mark {
  symbol: string;
  /** The name's drawn length, in the units of the 32-high drawing. */
  length: number;
  text?: SVGProps<SVGTextElement>;
}

const MARKS = {
  'Valmora Pay': {
    symbol: 'M0 2h28v28H0zm6 7 8 15 8-15h-4l-4 8-4-8z',
    length: 116,
  },
  Corvane: {
    symbol: 'M12 4l12 12-12 12L0 16zm8 0 12 12-12 12L8 16z',
    length: 90,
    text: { fontWeight: 800, letterSpacing: -0.5 },
  },
  'Harbrook Health': {
    symbol: 'M14 2a14 14 0 1 0 0 28 14 14 0 0 0 0-28zm-2 7h4v5h5v4h-5v5h-4v-5H7v-4h5z',
    length: 150,
    text: { fontFamily: "Georgia, 'Times New Roman', serif" },
  },
  Quillon: {
    symbol: 'M6 4h24l-4 6H2zm0 9h24l-4 6H2zm0 9h24l-4 6H2z',
    length: 84,
    text: { letterSpacing: 2 },
  },
  'Tessaline Air': {
    symbol: 'M1 17 30 4 21 29l-6-9z',
    length: 126,
    text: { fontStyle: 'italic' },
  },
  Lumetra: {
    symbol: 'M2 20h6v10H2zm10-8h6v18h-6zm10-8h6v26h-6z',
    length: 82,
    text: { fontWeight: 600 },
  },
} satisfies Record<string, Mark>;

export type Customer = keyof typeof MARKS;
export const CUSTOMERS = Object.keys(MARKS) as Customer[];

export function Wordmark({ name }: { name: Customer }) {
  const { symbol, length, text }: Mark = MARKS[name];
  const width = 40 + length;
  return (
    <svg role="img" aria-label={name} viewBox={`0 0 ${width} 32`} width={width} height="32" fill="currentColor">
      <path d={symbol} fillRule="evenodd" />
      <text x="38" y="23" fontSize="20" fontWeight={700} textLength={length} lengthAdjust="spacingAndGlyphs" {...text}>
        {name}
      </text>
    </svg>
  );
}
