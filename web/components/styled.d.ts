import 'styled-components';
import type { Theme } from './theme.js';

declare module 'styled-components' {
  // An interface is needed here: declaration merging is how styled-components learns the theme's shape.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface DefaultTheme extends Theme {}
}
