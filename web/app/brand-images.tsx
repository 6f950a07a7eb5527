/**
 * The pictures the build draws from the brand's SVG and rasterises to PNG (with @resvg/resvg-js, in the prerender):
 * the link preview (og:image, 1200 × 630) and the e-mails' logo (EMAIL_LOGO). Wordless, so no font is needed to
 * draw them: a link preview shows the page's title and description beside its image.
 */
import { Resvg } from '@resvg/resvg-js';
import { renderToStaticMarkup } from 'react-dom/server';
import { brand, EMAIL_LOGO } from '../../domain/brand.js';
import { ChatIcon, MailIcon, MessageIcon, PhoneIcon, RichCardIcon } from '../components/icons.js';
import { BrandMark } from '../components/logo.js';
import { PRODUCT_CONSOLE, ProductConsoleDrawing } from '../components/product-console.js';
import { theme } from '../components/theme.js';

export const SHARE_IMAGE = {
  width: 1200,
  height: 630,
  alt: `The ${brand.product} console: one customer journey across SMS, WhatsApp, email and voice, and its delivery report`,
} as const;

const CHANNELS = [MessageIcon, ChatIcon, RichCardIcon, MailIcon, PhoneIcon];

/** The link preview: the mark and the channels on the page's night blue, the console beside them. */
function ShareImage() {
  const { width, height } = SHARE_IMAGE;
  const consoleX = width - PRODUCT_CONSOLE.width - 72;
  return (
    <svg xmlns="http://www.w3.org/2000/svg" width={width} height={height} viewBox={`0 0 ${width} ${height}`}>
      <defs>
        <radialGradient id="glow-top" cx="0.85" cy="-0.1" r="0.7">
          <stop offset="0" stopColor="#6366f1" stopOpacity={0.5} />
          <stop offset="1" stopColor="#6366f1" stopOpacity={0} />
        </radialGradient>
        <radialGradient id="glow-bottom" cx="-0.1" cy="1.1" r="0.6">
          <stop offset="0" stopColor="#14b8a6" stopOpacity={0.35} />
          <stop offset="1" stopColor="#14b8a6" stopOpacity={0} />
        </radialGradient>
      </defs>
      <rect width={width} height={height} fill={theme.colors.night} />
      <rect width={width} height={height} fill="url(#glow-top)" />
      <rect width={width} height={height} fill="url(#glow-bottom)" />
      <BrandMark x={96} y={190} size={144} />
      <g color={theme.colors.onNightMuted}>
        {CHANNELS.map((Icon, index) => (
          <Icon key={index} x={96 + index * 56} y={384} size={32} />
        ))}
      </g>
      <rect x={96} y={440} width={256} height={4} rx={2} fill={brand.colors.markPoint} />
      <ProductConsoleDrawing x={consoleX} y={(height - PRODUCT_CONSOLE.height) / 2} />
    </svg>
  );
}

function EmailLogo() {
  const size = EMAIL_LOGO.size * EMAIL_LOGO.scale;
  return (
    <svg xmlns="http://www.w3.org/2000/svg" width={size} height={size} viewBox={`0 0 ${size} ${size}`}>
      <BrandMark size={size} />
    </svg>
  );
}

/** A drawing as a PNG of its own size; no font is loaded (the drawings have no text). */
function png(drawing: React.ReactElement): Buffer {
  const svg = renderToStaticMarkup(drawing);
  return new Resvg(svg, { fitTo: { mode: 'original' }, font: { loadSystemFonts: false } }).render().asPng();
}

export const shareImagePng = (): Buffer => png(<ShareImage />);
export const emailLogoPng = (): Buffer => png(<EmailLogo />);
