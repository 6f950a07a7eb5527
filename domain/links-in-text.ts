/**
 * Names carry no links. The name and company a visitor types reach the prospect in e-mails from our sender ("Hi
 * {name},"), so text a mail program would show as a link ("log in at evil.example/owa") would be a phishing line
 * with our name on it. The form and the API refuse it where it is typed. What counts as a domain's ending is IANA's
 * list of top-level domains, which the servers hold (server-shared/email-rules.ts) and the browser does not load:
 * the browser checks the link markers alone, and the API the rest.
 */

export const NAME_LINK_MESSAGE = 'Please enter your name without a web address.';
export const COMPANY_LINK_MESSAGE = "Please enter your company's name without a web address.";

/** The dots IDNA reads as a label separator: a full stop, and the ideographic and fullwidth ones. */
const DOT = '[.\\u3002\\uff0e\\uff61]';
const LABEL = '[\\p{L}\\p{N}](?:[\\p{L}\\p{N}-]*[\\p{L}\\p{N}])?';
/** `://` of any scheme, or `www.`: every mail program makes a link of what follows. */
const LINK_MARKER = new RegExp(`://|www${DOT}`, 'iu');
/** Labels joined by dots, as a host name is written. */
const DOMAIN_SHAPED = new RegExp(`${LABEL}(?:${DOT}${LABEL})+`, 'gu');
const DOT_PATTERN = new RegExp(DOT, 'u');

export function hasLinkMarker(text: string): boolean {
  return LINK_MARKER.test(text);
}

/** The last labels, in lower case, of the words in the text written like a host name ("J.R" gives "r"). */
export function domainShapedEndings(text: string): string[] {
  return Array.from(text.matchAll(DOMAIN_SHAPED), (match) => match[0].split(DOT_PATTERN).at(-1)?.toLowerCase() ?? '');
}

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

/** The rule for a company: no link marker. A company's name may be its domain ("Booking.com"). */
export function companyLinkProblem(company: string): string | null {
  return hasLinkMarker(company) ? COMPANY_LINK_MESSAGE : null;
}
