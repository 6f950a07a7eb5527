/**
 * Whether a reply comes from the prospect, before it changes their booking. First DKIM and SPF through mailauth: a
 * DKIM signature that passes and aligns with the From's domain, or an SPF pass for an envelope sender of that domain
 * (the client's address taken from the newest Received header, which the reply mailbox's own server wrote). Only
 * when the domain publishes neither (no signature and no SPF record: mailauth says "none" for both) does the
 * invitation's secret decide: the ORGANIZER echoed with the booking's tag (organizer.ts). A domain that publishes
 * DKIM or SPF and fails them is refused, tag or not: a forged From is exactly what those records exist to catch.
 */
import { authenticate, type DNSResolver } from 'mailauth';

export type Authenticated = { by: 'dkim' | 'spf' | 'tag' } | { refused: 'unaligned' | 'no-tag' };

/** The domain, or one of its parents or subdomains: relaxed alignment as DMARC means it (RFC 7489, 3.1). */
function aligned(domain: string, fromDomain: string): boolean {
  const a = domain.toLowerCase();
  const b = fromDomain.toLowerCase();
  return a === b || a.endsWith(`.${b}`) || b.endsWith(`.${a}`);
}

export async function authenticateReply(
  raw: Buffer,
  fromDomain: string,
  carriesTag: boolean,
  resolver?: DNSResolver,
): Promise<Authenticated> {
  const result = await authenticate(raw, {
    trustReceived: true,
    disableArc: true,
    disableBimi: true,
    disableDmarc: true,
    ...(resolver ? { resolver } : {}),
  });
  const signatures = result.dkim.results;
  if (signatures.some((s) => s.status.result === 'pass' && aligned(s.signingDomain, fromDomain))) return { by: 'dkim' };
  const spf = result.spf;
  if (spf && spf.status.result === 'pass' && aligned(spf.domain, fromDomain)) return { by: 'spf' };
  const noDkim = signatures.every((s) => s.status.result === 'none');
  const noSpf = !spf || spf.status.result === 'none';
  if (noDkim && noSpf) return carriesTag ? { by: 'tag' } : { refused: 'no-tag' };
  return { refused: 'unaligned' };
}
