import type { ComponentType } from 'react';
import { styled } from 'styled-components';
import { theme } from '../../components/theme.js';
import { Section } from '../../components/layout.js';

const CHANNELS = ['SMS', 'WhatsApp', 'RCS', 'Email', 'Voice'];
const CORE = ['AI agents', 'Orchestration & routing', 'Consent, analytics & audit'];
const NETWORK_APIS = ['Identity', 'Verification', 'Fraud protection'];

const COLORS = {
  channel: { fill: '#eef0ff', stroke: '#4338ca', text: '#1e1b4b' },
  core: { fill: '#0b1530', text: '#ffffff', inner: '#1f2d5c', innerText: '#e0e7ff' },
  network: { fill: '#e6f5f3', stroke: '#0f766e', text: '#053b36' },
  line: '#55607a',
};

const Figure = styled.figure`
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.lg};
  background: ${({ theme }) => theme.colors.surface};
  padding: ${({ theme }) => theme.space[6]};
  box-shadow: ${({ theme }) => theme.shadow.card};
  img {
    width: 100%;
    height: auto;
    margin: 0 auto;
  }
`;

const Caption = styled.figcaption`
  margin-top: ${({ theme }) => theme.space[6]};
  color: ${({ theme }) => theme.colors.inkSoft};
  max-width: 52rem;
`;

function Box({
  x,
  y,
  width,
  height,
  label,
  fill,
  stroke,
  color,
  size = 16,
  weight = 600,
}: {
  x: number;
  y: number;
  width: number;
  height: number;
  label: string;
  fill: string;
  stroke?: string;
  color: string;
  size?: number;
  weight?: number;
}) {
  return (
    <g>
      <rect
        x={x}
        y={y}
        width={width}
        height={height}
        rx={10}
        fill={fill}
        stroke={stroke}
        strokeWidth={stroke ? 1.5 : 0}
      />
      <text
        x={x + width / 2}
        y={y + height / 2}
        textAnchor="middle"
        dominantBaseline="central"
        fill={color}
        fontSize={size}
        fontWeight={weight}
      >
        {label}
      </text>
    </g>
  );
}

function ArrowHead({ id }: { id: string }) {
  return (
    <marker id={id} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
      <path d="M0 0 10 5 0 10z" fill={COLORS.line} />
    </marker>
  );
}

/** Side by side: channels, the platform, the network APIs. */
function WideDiagram() {
  const rowY = (i: number) => 30 + i * 78;
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      viewBox="0 0 960 420"
      width={960}
      height={420}
      fontFamily={theme.font.family}
    >
      <title>Converge architecture diagram</title>
      <defs>
        <ArrowHead id="arch-wide-arrow" />
      </defs>
      {CHANNELS.map((channel, i) => (
        <g key={channel}>
          <Box
            x={10}
            y={rowY(i)}
            width={180}
            height={54}
            label={channel}
            fill={COLORS.channel.fill}
            stroke={COLORS.channel.stroke}
            color={COLORS.channel.text}
          />
          <path
            d={`M190 ${rowY(i) + 27} C 260 ${rowY(i) + 27}, 260 210, 318 210`}
            fill="none"
            stroke={COLORS.line}
            strokeWidth={1.5}
            markerEnd="url(#arch-wide-arrow)"
          />
        </g>
      ))}
      <rect x={320} y={20} width={320} height={380} rx={18} fill={COLORS.core.fill} />
      <text x={480} y={62} textAnchor="middle" fill={COLORS.core.text} fontSize={22} fontWeight={800}>
        Converge platform
      </text>
      {CORE.map((item, i) => (
        <Box
          key={item}
          x={345}
          y={100 + i * 96}
          width={270}
          height={72}
          label={item}
          fill={COLORS.core.inner}
          color={COLORS.core.innerText}
          size={i === 0 ? 19 : 16}
          weight={i === 0 ? 800 : 600}
        />
      ))}
      {NETWORK_APIS.map((api, i) => {
        const y = 70 + i * 110;
        return (
          <g key={api}>
            <path
              d={`M640 210 C 700 210, 700 ${y + 30}, 768 ${y + 30}`}
              fill="none"
              stroke={COLORS.line}
              strokeWidth={1.5}
              markerStart="url(#arch-wide-arrow)"
              markerEnd="url(#arch-wide-arrow)"
            />
            <Box
              x={770}
              y={y}
              width={180}
              height={60}
              label={api}
              fill={COLORS.network.fill}
              stroke={COLORS.network.stroke}
              color={COLORS.network.text}
            />
          </g>
        );
      })}
      <text x={100} y={18} textAnchor="middle" fill={COLORS.line} fontSize={13} fontWeight={700} letterSpacing="1">
        CHANNELS
      </text>
      <text x={860} y={46} textAnchor="middle" fill={COLORS.line} fontSize={13} fontWeight={700} letterSpacing="1">
        NETWORK APIS
      </text>
    </svg>
  );
}

/** Stacked for phones: channels above, the platform, the network APIs below. */
function NarrowDiagram() {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      viewBox="0 0 340 700"
      width={340}
      height={700}
      fontFamily={theme.font.family}
    >
      <title>Converge architecture diagram</title>
      <defs>
        <ArrowHead id="arch-narrow-arrow" />
      </defs>
      <text x={170} y={16} textAnchor="middle" fill={COLORS.line} fontSize={13} fontWeight={700} letterSpacing="1">
        CHANNELS
      </text>
      {CHANNELS.map((channel, i) => {
        const column = i < 3 ? i : i - 3;
        const x = i < 3 ? 4 + column * 112 : 60 + column * 112;
        const y = i < 3 ? 30 : 90;
        return (
          <Box
            key={channel}
            x={x}
            y={y}
            width={106}
            height={48}
            label={channel}
            fill={COLORS.channel.fill}
            stroke={COLORS.channel.stroke}
            color={COLORS.channel.text}
            size={15}
          />
        );
      })}
      <path d="M170 142 V 176" stroke={COLORS.line} strokeWidth={1.5} markerEnd="url(#arch-narrow-arrow)" />
      <rect x={4} y={180} width={332} height={300} rx={18} fill={COLORS.core.fill} />
      <text x={170} y={218} textAnchor="middle" fill={COLORS.core.text} fontSize={20} fontWeight={800}>
        Converge platform
      </text>
      {CORE.map((item, i) => (
        <Box
          key={item}
          x={24}
          y={244 + i * 76}
          width={292}
          height={60}
          label={item}
          fill={COLORS.core.inner}
          color={COLORS.core.innerText}
          size={i === 0 ? 18 : 15}
          weight={i === 0 ? 800 : 600}
        />
      ))}
      <path
        d="M170 484 V 518"
        stroke={COLORS.line}
        strokeWidth={1.5}
        markerStart="url(#arch-narrow-arrow)"
        markerEnd="url(#arch-narrow-arrow)"
      />
      <text x={170} y={540} textAnchor="middle" fill={COLORS.line} fontSize={13} fontWeight={700} letterSpacing="1">
        NETWORK APIS
      </text>
      {NETWORK_APIS.map((api, i) => (
        <Box
          key={api}
          x={4 + (i === 2 ? 0 : i * 170)}
          y={556 + (i === 2 ? 64 : 0)}
          width={i === 2 ? 332 : 162}
          height={52}
          label={api}
          fill={COLORS.network.fill}
          stroke={COLORS.network.stroke}
          color={COLORS.network.text}
          size={15}
        />
      ))}
    </svg>
  );
}

interface Diagram {
  /** Where the prerender writes it and the page loads it from (outside /assets/: not content-hashed). */
  path: string;
  width: number;
  height: number;
  Drawing: ComponentType;
}

/**
 * The diagram is drawn twice, side by side for wide screens and stacked for phones. Both are files of their own,
 * written by the prerender, rather than inline SVG: the page's HTML stays small enough for its first round trip,
 * and the section, far down the page, loads only the drawing its width shows, once it comes near.
 */
export const ARCHITECTURE_DIAGRAMS: Record<'wide' | 'narrow', Diagram> = {
  wide: { path: '/images/architecture-wide.svg', width: 960, height: 420, Drawing: WideDiagram },
  narrow: { path: '/images/architecture-narrow.svg', width: 340, height: 700, Drawing: NarrowDiagram },
};
const { wide, narrow } = ARCHITECTURE_DIAGRAMS;

export function Architecture() {
  return (
    <Section
      id="architecture"
      layout="diagram"
      tone="alt"
      eyebrow="Architecture"
      title="One platform between your customers and the network"
      lead="Every channel enters the same platform, where AI agents and orchestration decide what happens next, backed by identity signals from the network."
    >
      <Figure>
        <picture>
          <source
            media={theme.media.md.replace('@media ', '')}
            srcSet={wide.path}
            width={wide.width}
            height={wide.height}
          />
          <img
            src={narrow.path}
            width={narrow.width}
            height={narrow.height}
            alt="Converge architecture diagram"
            aria-describedby="arch-caption"
            loading="lazy"
            decoding="async"
          />
        </picture>
        <Caption id="arch-caption">
          Messages from five channels (SMS, WhatsApp, RCS, email and voice) flow into the Converge platform. There, AI
          agents understand each request, orchestration and routing choose the channel and the next step, and consent,
          analytics and audit keep a record of every interaction. The platform calls network APIs for identity,
          verification and fraud protection before it acts.
        </Caption>
      </Figure>
    </Section>
  );
}
