/**
 * Names carry no links. The name and company a visitor types reach the prospect in e-mails from our sender ("Hi
 * {name},"), so text a mail program would show as a link ("log in at evil.example/owa"), or a person would read as one
 * ("evil[.]com", "evil.c\u00adom"), would be a phishing line with our name on it. The form and the API refuse it where
 * it is typed. The rules read the text's visibleForm (NFKC, nothing invisible), which is what the API stores (nameText).
 * What counts as a domain's ending is IANA's list of top-level domains, which the servers hold
 * (api/email-rules.ts) and the browser does not load: the browser checks the link markers alone, and the
 * API the rest.
 */
import { visibleForm } from './text.js';

export const NAME_LINK_MESSAGE = 'Please enter your name without a web address.';
export const COMPANY_LINK_MESSAGE = "Please enter your company's name without a web address.";

/** The dots IDNA reads as a label separator: a full stop, and the ideographic and fullwidth ones. */
const DOT = '[.\\u3002\\uff0e\\uff61]';
const LABEL = '[\\p{L}\\p{N}](?:[\\p{L}\\p{N}-]*[\\p{L}\\p{N}])?';
/**
 * Schemes a browser or a mail program acts on without `//`: scripts, inline documents, files, and the ones that
 * call, text or write to someone. ("Re:Build" and "Attn:Sales" name no scheme.)
 */
const SCHEMES =
  'javascript|vbscript|livescript|data|blob|file|about|mailto|tel|sms|callto|facetime|skype|sip|ftp|https?|wss?|intent|ms-[a-z-]+';
/**
 * What makes a link of the text, or says the writer meant one:
 * - `://` of any scheme, or `www.`: every mail program makes a link of what follows;
 * - one of SCHEMES directly followed by its part ("javascript:alert(1)", "data:text/html,…", "mailto:x", "tel:+1…");
 * - a defanged dot, as threat reports write a host so that it is not a link: `[.]`, `(.)`, `{.}`, `[dot]`, `(dot)`,
 *   `{dot}` (spaces inside allowed, any case).
 */
const LINK_MARKER = new RegExp(
  `://|www${DOT}|(?:^|[^\\p{L}\\p{N}])(?:${SCHEMES}):(?=\\S)|[[({]\\s*(?:${DOT}|dot)\\s*[\\])}]`,
  'iu',
);
/** Labels joined by dots, as a host name is written. */
const DOMAIN_SHAPED = new RegExp(`${LABEL}(?:${DOT}${LABEL})+`, 'gu');
const DOT_PATTERN = new RegExp(DOT, 'u');
/** Four numbers joined by dots: an IPv4 address. */
const IPV4 = new RegExp(`^\\d{1,3}(?:${DOT}\\d{1,3}){3}$`, 'u');
/** What turns a host into an address of a page or a service: a path, a query, a fragment or a port after it. */
const AFTER_HOST = /^(?:[/\\?#]|:\d)/;

export function hasLinkMarker(text: string): boolean {
  return LINK_MARKER.test(visibleForm(text));
}

/** The last labels, in lower case, of the words in the text written like a host name ("J.R" gives "r"). */
export function domainShapedEndings(text: string): string[] {
  return Array.from(visibleForm(text).matchAll(DOMAIN_SHAPED), (match) => endingOf(match[0]));
}

const endingOf = (host: string): string => host.split(DOT_PATTERN).at(-1)?.toLowerCase() ?? '';

/**
 * The rule for a name: no link marker and, where the caller can tell a domain's ending, no word that is a host name
 * ("login.microsoftonline.com", "evil.example"; "J.R. Smith" and "Dr.Who" end in no top-level domain). Null when the
 * name may be used.
 */
export function nameLinkProblem(name: string, isDomainEnding?: (ending: string) => boolean): string | null {
  if (hasLinkMarker(name)) return NAME_LINK_MESSAGE;
  if (isDomainEnding && domainShapedEndings(name).some(isDomainEnding)) return NAME_LINK_MESSAGE;
  return null;
}

/**
 * The rule for a company: no link marker and, where the caller can tell a domain's ending, no host with more than its
 * name: a path, a query, a fragment, a port ("paypal-verify.com/login?acct=1") or a user before it ("ceo@acme.com").
 * A company's name may be its domain, bare ("Booking.com", "acme.com"). Null when the company may be used.
 */
export function companyLinkProblem(company: string, isDomainEnding?: (ending: string) => boolean): string | null {
  if (hasLinkMarker(company)) return COMPANY_LINK_MESSAGE;
  if (!isDomainEnding) return null;
  const text = visibleForm(company);
  for (const match of text.matchAll(DOMAIN_SHAPED)) {
    const host = match[0];
    if (!isDomainEnding(endingOf(host)) && !IPV4.test(host)) continue;
    const before = text.slice(0, match.index);
    const after = text.slice(match.index + host.length);
    if (AFTER_HOST.test(after) || /\S@$/.test(before)) return COMPANY_LINK_MESSAGE;
  }
  return null;
}
