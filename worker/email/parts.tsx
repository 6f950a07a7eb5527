/**
 * The parts every e-mail is made of. A part is a React component (its HTML, inline-styled as mail programs need) that
 * also says how it reads in the plain-text part. A template is a tree of parts, written once: `htmlOf` renders it with
 * React (which escapes all text and attributes), `textOf` walks the same tree and joins the parts' texts, one block a
 * paragraph. So whatever the HTML says, the text says too, from the same values.
 */
import { Fragment, isValidElement, type CSSProperties, type ReactElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { brand, telHref } from '../../domain/brand.js';

/** A component with its plain-text form: a block of lines, an inline run of words, or null for nothing. */
export interface Part<P> {
  (props: P): ReactElement | null;
  text(props: P): string | null;
}

export function part<P>(html: (props: P) => ReactElement | null, text: (props: P) => string | null): Part<P> {
  return Object.assign(html, { text });
}

function isPart(type: unknown): type is Part<unknown> {
  return typeof type === 'function' && typeof (type as { text?: unknown }).text === 'function';
}

/** What a tree of parts reads as in the plain text: its loose words, and each part's own text. */
type Leaf = string | { text: string | null };

/**
 * The leaves of `node`, in order. Fragments, arrays and components made of parts are walked through; an HTML element
 * outside a part has no plain-text form, and is refused.
 */
function leavesOf(node: ReactNode): Leaf[] {
  if (node === null || node === undefined || typeof node === 'boolean') return [];
  if (typeof node === 'string' || typeof node === 'number' || typeof node === 'bigint') return [String(node)];
  if (Array.isArray(node)) return node.flatMap((child: ReactNode) => leavesOf(child));
  if (!isValidElement<{ children?: ReactNode }>(node)) throw new Error('a node without a plain-text form');
  const { type, props } = node;
  if (type === Fragment) return leavesOf(props.children);
  if (isPart(type)) return [{ text: type.text(props) }];
  if (typeof type === 'function') return leavesOf((type as (props: unknown) => ReactNode)(props));
  throw new Error(`<${String(type)}> is not an e-mail part: it has no plain-text form`);
}

/** The words of `node` within one block: text as it is, inline parts (links) as their text says. */
function inlineText(node: ReactNode): string {
  return leavesOf(node)
    .map((leaf) => (typeof leaf === 'string' ? leaf : (leaf.text ?? '')))
    .join('');
}

/** The blocks of `node`: each part's text; loose words belong in a paragraph. */
function blocksOf(node: ReactNode): string[] {
  return leavesOf(node).flatMap((leaf) => {
    if (typeof leaf === 'string') throw new Error(`text outside a paragraph: ${leaf}`);
    return leaf.text === null ? [] : [leaf.text];
  });
}

/**
 * The plain-text part of a tree of parts: their blocks apart by a blank line, except that a block ending in a colon
 * (a heading, "Add it to your calendar:") stays with what it introduces.
 */
export function textOf(node: ReactNode): string {
  return blocksOf(node).reduce(
    (text, block) => (text ? `${text}${text.endsWith(':') ? '\n' : '\n\n'}${block}` : block),
    '',
  );
}

/** Elements that start a line of the HTML's source; a line break before them shows nowhere. */
const BLOCK_START = /><(?=(?:head|meta|title|body|main|div|h1|h2|p|table|tbody|tr|ol|li)[\s>/])/g;

/**
 * The HTML document of a tree of parts. React adds a preload hint for each image it renders (react issue 34217);
 * a mail program has no use for it, so it is taken out. Each block element starts a line of the source, as in the
 * hand-written HTML before, which also keeps the HTML over the size SpamAssassin's HTML_IMAGE_ONLY rules score
 * (spam-size.test.ts). React escapes every `<` of text and attributes, so `><` lies only between two tags.
 */
export function htmlOf(document: ReactElement): string {
  const markup = renderToStaticMarkup(document)
    .replace(/<link rel="preload" as="image"[^>]*>/g, '')
    .replace(BLOCK_START, '>\n<');
  return `<!doctype html>\n${markup}`;
}

export const { primary: PRIMARY, ink: INK, canvas: CANVAS, muted: MUTED } = brand.colors;

const indented = (lines: readonly string[]) => lines.map((line) => `  ${line}`).join('\n');

/** A paragraph of words and inline parts. */
export const Paragraph = part(
  ({ style, children }: { style?: CSSProperties; children: ReactNode }) => <p style={style}>{children}</p>,
  ({ children }) => inlineText(children),
);

/** A heading within the body; its text ends with a colon. */
export const Heading = part(
  ({ margin, children }: { margin: string; children: string }) => (
    <h2 style={{ fontSize: '16px', margin }}>{children}</h2>
  ),
  ({ children }) => `${children}:`,
);

/** A link in running text; the text part shows its address after the words, unless the words are the address. */
export const Link = part(
  ({ href, style, children }: { href: string; style?: CSSProperties; children: string }) => (
    <a href={href} style={style}>
      {children}
    </a>
  ),
  ({ href, children }) =>
    href === children || href === `mailto:${children}` || href === telHref(children)
      ? children
      : `${children} (${href})`,
);

const BUTTON: CSSProperties = {
  display: 'inline-block',
  margin: '0 8px 8px 0',
  padding: '10px 14px',
  borderRadius: '8px',
  background: PRIMARY,
  color: '#ffffff',
  textDecoration: 'none',
  fontWeight: 600,
  fontSize: '14px',
};
const SECONDARY_BUTTON: CSSProperties = {
  display: 'inline-block',
  margin: '0 8px 8px 0',
  padding: '9px 13px',
  borderRadius: '8px',
  border: `1px solid ${PRIMARY}`,
  color: PRIMARY,
  textDecoration: 'none',
  fontWeight: 600,
  fontSize: '14px',
};

export interface ButtonProps {
  href: string;
  label: string;
  secondary?: boolean;
}

/** A link drawn as a button; in the text part, its label and address. */
export const Button = part(
  ({ href, label, secondary = false }: ButtonProps) => (
    <a href={href} style={secondary ? SECONDARY_BUTTON : BUTTON}>
      {label}
    </a>
  ),
  ({ href, label }) => `${label}: ${href}`,
);

/** Buttons side by side, wrapping onto several lines on a narrow screen; in the text part, one a line. */
export const Buttons = part(
  ({ buttons, style }: { buttons: readonly ButtonProps[]; style?: CSSProperties }) => (
    <p style={style}>
      {buttons.map((button) => (
        <Button key={button.href} {...button} />
      ))}
    </p>
  ),
  ({ buttons }) => indented(buttons.map((button) => Button.text(button) ?? '')),
);

const LABEL_CELL: CSSProperties = { padding: '4px 16px 4px 0', color: MUTED };
const VALUE_CELL: CSSProperties = { padding: '4px 0' };

/** Facts as label and value, one a row (a lead's details, where a visit came from). */
export const Details = part(
  ({ rows }: { rows: readonly (readonly [string, string])[] }) => (
    <table role="presentation" style={{ borderCollapse: 'collapse', margin: '8px 0 16px' }}>
      <tbody>
        {rows.map(([label, value]) => (
          <tr key={label}>
            <td style={{ ...LABEL_CELL, verticalAlign: 'top' }}>{label}</td>
            <td style={VALUE_CELL}>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  ),
  ({ rows }) => indented(rows.map(([label, value]) => `${label}: ${value}`)),
);

/**
 * Label and value rows whose first value stands out (the slot in the booking zone); in the text part the values
 * line up.
 */
export const Times = part(
  ({ rows }: { rows: readonly (readonly [string, string])[] }) => (
    <table role="presentation" style={{ borderCollapse: 'collapse', margin: '16px 0' }}>
      <tbody>
        {rows.map(([label, value], i) => (
          <tr key={label}>
            <td style={LABEL_CELL}>{label}</td>
            <td style={VALUE_CELL}>{i === 0 ? <strong>{value}</strong> : value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  ),
  ({ rows }) => {
    const width = Math.max(...rows.map(([label]) => label.length));
    return indented(rows.map(([label, value]) => `${`${label}:`.padEnd(width + 2)}${value}`));
  },
);

/** Steps in their order. */
export const Steps = part(
  ({ steps }: { steps: readonly string[] }) => (
    <ol style={{ paddingLeft: '20px' }}>
      {steps.map((step) => (
        <li key={step}>{step}</li>
      ))}
    </ol>
  ),
  ({ steps }) => indented(steps.map((step, i) => `${i + 1}. ${step}`)),
);

/** What a person wrote, its line breaks kept; indented in the text part, as a quote. */
export const Message = part(
  ({ children }: { children: string }) => <p style={{ whiteSpace: 'pre-wrap' }}>{children}</p>,
  ({ children }) => indented(children.split('\n')),
);
