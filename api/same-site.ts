/**
 * Whether a request that changes something came from a page of this site. A browser says where a request comes from
 * in two headers no page can set: Sec-Fetch-Site, of which only `same-origin` (a page of the site) and `none` (the
 * person typed or bookmarked the address) pass, so `same-site` (another subdomain of the domain, which can be someone
 * else's) is refused with `cross-site`; and Origin, which must be the site's own: PUBLIC_URL's, or the request's own
 * scheme and host (how the browser reached it: 127.0.0.1 or localhost under `npm start`, whatever PUBLIC_URL says).
 * `Origin: null` (a sandboxed frame, a redirect, a page with Referrer-Policy: no-referrer) is no origin of ours. A
 * client that sends neither header (curl, a script) is not a browser led by another site, and passes.
 */
import type { Context } from 'koa';

/** What the request says of where it came from, when that is another site; undefined when it is this one. */
export function fromAnotherSite(
  ctx: Context,
  publicOrigin: string,
): { origin: string | undefined; fetchSite: string | undefined } | undefined {
  const fetchSite = ctx.get('Sec-Fetch-Site').toLowerCase();
  const origin = ctx.get('Origin');
  const siteRefused = fetchSite !== '' && fetchSite !== 'same-origin' && fetchSite !== 'none';
  // Koa's ctx.origin is the Origin header itself (Koa 3): the request's own is its scheme and host.
  const originRefused = origin !== '' && origin !== publicOrigin && origin !== `${ctx.protocol}://${ctx.host}`;
  if (!siteRefused && !originRefused) return undefined;
  return { origin: origin || undefined, fetchSite: fetchSite || undefined };
}
