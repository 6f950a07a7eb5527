import { useEffect, useState } from 'react';

/**
 * False in the render on the server and in the browser's hydration of it, true from the next render on: what only the
 * browser renders (toasts, code it fetches) waits for it, so the hydrated markup matches the prerendered one.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
