import type { ComponentType, SVGProps } from 'react';

/**
 * An icon drawn far below the first screen, as a file of its own in one colour rather than inline SVG: its drawing
 * then costs the page's HTML nothing (the landing page must fit in the first round trip of a connection), and, being
 * lazy, it is fetched only when a visitor scrolls towards it, never before the first paint. The build writes each
 * file (web/app/prerender.tsx).
 */
export interface IconFile {
  /** Where the build writes it and the page finds it. */
  path: string;
  /** The standalone SVG document. */
  Drawing: ComponentType;
}

/** An icon of icons.tsx as a file, its `currentColor` set to `color` (SVG's color presentation attribute). */
export function iconFile(name: string, Icon: ComponentType<SVGProps<SVGSVGElement>>, color: string): IconFile {
  return {
    path: `/images/icons/${name}.svg`,
    Drawing: () => <Icon xmlns="http://www.w3.org/2000/svg" color={color} />,
  };
}

/** The icon, decorative as the inline ones are (the control or the text beside it carries the meaning). */
export function IconImage({ file, size }: { file: IconFile; size: number }) {
  return <img src={file.path} alt="" width={size} height={size} loading="lazy" decoding="async" />;
}
