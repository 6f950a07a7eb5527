import { CheckIcon, ChatIcon, MailIcon, MessageIcon, PhoneIcon } from './icons.js';
import { BrandMark } from './logo.js';
import { theme } from './theme.js';

/**
 * The product as a picture, in the brand's colours: the Converge console with one customer journey running across
 * the channels (SMS, then WhatsApp, e-mail and a voice call) and its delivery report (a bar per channel, the share
 * delivered as a ring). Wordless (text is drawn as lines), so it reads the same wherever it is rasterised, with no
 * font: the page loads it as an image, and the build draws it into the link preview (og:image).
 */
export const PRODUCT_CONSOLE = { path: '/images/product-console.svg', width: 640, height: 400 } as const;

const { colors } = theme;
const STEPS = [
  { Icon: MessageIcon, tint: colors.primarySoft, ink: colors.primary, done: true },
  { Icon: ChatIcon, tint: colors.accentSoft, ink: colors.accent, done: true },
  { Icon: MailIcon, tint: colors.primarySoft, ink: colors.primary, done: true },
  { Icon: PhoneIcon, tint: '#fef3c7', ink: '#b45309', done: false },
];
const BARS = [0.92, 0.78, 0.64, 0.4];

/** A line of text, drawn as a rounded bar. */
function TextLine({ x, y, width, tone = colors.border }: { x: number; y: number; width: number; tone?: string }) {
  return <rect x={x} y={y} width={width} height={8} rx={4} fill={tone} />;
}

/** The console itself; `x` and `y` place it inside a larger drawing (the link preview). */
export function ProductConsoleDrawing({ x = 0, y = 0 }: { x?: number; y?: number }) {
  return (
    <svg
      x={x}
      y={y}
      width={PRODUCT_CONSOLE.width}
      height={PRODUCT_CONSOLE.height}
      viewBox={`0 0 ${PRODUCT_CONSOLE.width} ${PRODUCT_CONSOLE.height}`}
    >
      {/* The window and its side bar. */}
      <rect x={0.5} y={0.5} width={639} height={399} rx={16} fill={colors.surface} stroke={colors.border} />
      <path d="M16.5 .5h88v399h-88a16 16 0 0 1-16-16v-367a16 16 0 0 1 16-16z" fill={colors.night} />
      <BrandMark x={36} y={22} size={32} />
      {[84, 120, 156, 192].map((top, index) => (
        <rect
          key={top}
          x={28}
          y={top}
          width={48}
          height={20}
          rx={6}
          fill={index === 0 ? colors.primary : colors.nightSoft}
        />
      ))}
      {/* The header: the journey's name and its state. */}
      <TextLine x={128} y={28} width={150} tone={colors.ink} />
      <TextLine x={128} y={44} width={96} />
      <rect x={536} y={24} width={80} height={28} rx={14} fill={colors.accentSoft} />
      <circle cx={554} cy={38} r={5} fill={colors.accent} />
      <TextLine x={566} y={34} width={38} tone={colors.accent} />
      {/* The journey: one customer, four channels, each step's state on its right. */}
      <rect x={120} y={72} width={260} height={308} rx={12} fill={colors.surfaceAlt} />
      <path d="M150 124v216" stroke={colors.borderStrong} strokeWidth={2} strokeDasharray="4 6" />
      {STEPS.map(({ Icon, tint, ink, done }, index) => {
        const top = 92 + index * 72;
        return (
          <g key={top}>
            <rect x={132} y={top} width={232} height={56} rx={10} fill={colors.surface} stroke={colors.border} />
            <rect x={140} y={top + 12} width={32} height={32} rx={8} fill={tint} />
            <g color={ink}>
              <Icon x={146} y={top + 18} size={20} />
            </g>
            <TextLine x={184} y={top + 16} width={[92, 110, 84, 100][index] ?? 90} tone={colors.ink} />
            <TextLine x={184} y={top + 32} width={[120, 90, 112, 76][index] ?? 90} />
            {done ? (
              <g>
                <circle cx={344} cy={top + 28} r={10} fill={colors.accentSoft} />
                <g color={colors.accent}>
                  <CheckIcon x={336} y={top + 20} size={16} strokeWidth={2.4} />
                </g>
              </g>
            ) : (
              <circle
                cx={344}
                cy={top + 28}
                r={6}
                fill="none"
                stroke="#b45309"
                strokeWidth={2.4}
                strokeDasharray="3 3"
              />
            )}
          </g>
        );
      })}
      {/* The delivery report: a bar per channel, and the share delivered. */}
      <rect x={396} y={72} width={224} height={308} rx={12} fill={colors.surface} stroke={colors.border} />
      <TextLine x={412} y={90} width={110} tone={colors.ink} />
      <circle cx={508} cy={170} r={44} fill="none" stroke={colors.primarySoft} strokeWidth={14} />
      <circle
        cx={508}
        cy={170}
        r={44}
        fill="none"
        stroke={colors.primary}
        strokeWidth={14}
        strokeLinecap="round"
        strokeDasharray={`${2 * Math.PI * 44 * 0.94} ${2 * Math.PI * 44}`}
        transform="rotate(-90 508 170)"
      />
      <TextLine x={488} y={166} width={40} tone={colors.ink} />
      {BARS.map((share, index) => {
        const top = 240 + index * 32;
        return (
          <g key={top}>
            <rect x={412} y={top} width={36} height={8} rx={4} fill={colors.border} />
            <rect x={456} y={top} width={148} height={12} rx={6} fill={colors.surfaceAlt} />
            <rect
              x={456}
              y={top}
              width={148 * share}
              height={12}
              rx={6}
              fill={index % 2 ? colors.accent : colors.primary}
            />
          </g>
        );
      })}
    </svg>
  );
}

/** The console as a file of its own (the prerender writes it; the page and the link preview use it). */
export function ProductConsoleFile() {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={PRODUCT_CONSOLE.width}
      height={PRODUCT_CONSOLE.height}
      viewBox={`0 0 ${PRODUCT_CONSOLE.width} ${PRODUCT_CONSOLE.height}`}
    >
      <ProductConsoleDrawing />
    </svg>
  );
}
