/** The token of a manage page's address, /booking/{token}: whatever the one segment holds, for the API to judge. */
export function tokenFromPath(pathname: string): string {
  const segment = /^\/booking\/([^/]*)\/?$/.exec(pathname)?.[1] ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    // A broken escape is no token, and the API answers it as such.
    return segment;
  }
}
