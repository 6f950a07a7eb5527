/**
 * E-mail rules shared by the API and the validate-email endpoint: syntax, personal providers,
 * disposable domains, role addresses and likely typos. Nothing here touches the network.
 */
import { createRequire } from 'node:module';
import { domainToASCII, domainToUnicode } from 'node:url';
import mailchecker from 'mailchecker';
import emailSpellChecker from '@zootools/email-spell-checker';
import { LRUCache } from 'lru-cache';
import {
  DISPOSABLE_EMAIL_MESSAGE,
  EMAIL_MAX_LENGTH,
  EMAIL_REQUIRED_MESSAGE,
  EMAIL_SYNTAX_MESSAGE,
  INVISIBLE_EMAIL_MESSAGE,
  MISTYPED_EMAIL_MESSAGE,
  PERSONAL_EMAIL_MESSAGE,
  mistypedPersonalMessage,
  unknownEndingMessage,
  type EmailValidationResult,
} from '../domain/email-messages.js';
import { hasInvisibleCharacter } from '../domain/text.js';

export const PERSONAL_EMAIL_DOMAINS: readonly string[] = [
  'gmail.com',
  'yahoo.com',
  'hotmail.com',
  'outlook.com',
  'aol.com',
  'icloud.com',
  'live.com',
  'msn.com',
  'protonmail.com',
  'yandex.com',
  'zoho.com',
  'gmx.com',
  'mail.ru',
  'mail.com',
  'qq.com',
];
const PERSONAL_DOMAIN_SET: ReadonlySet<string> = new Set(PERSONAL_EMAIL_DOMAINS);

/** Shared mailboxes rather than a person; accepted, but flagged. */
const ROLE_LOCAL_PARTS = new Set([
  'abuse',
  'accounts',
  'admin',
  'administrator',
  'billing',
  'careers',
  'contact',
  'enquiries',
  'hello',
  'help',
  'hostmaster',
  'hr',
  'info',
  'inquiries',
  'jobs',
  'marketing',
  'media',
  'no-reply',
  'noreply',
  'office',
  'postmaster',
  'press',
  'privacy',
  'root',
  'sales',
  'security',
  'support',
  'team',
  'webmaster',
]);

/**
 * A practical address check: one @, a local part without spaces, a domain of dot-separated labels
 * ending in a letters-only top-level domain. Stricter RFC forms (quoted local parts, IP literals)
 * are not addresses a prospect types.
 */
const ADDRESS_PATTERN =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$/;

/** Control characters and white space: domainToASCII would quietly drop a tab or CR from the domain. */
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\s\u0000-\u001f\u007f-\u009f]/;

/**
 * What the rules make of one domain, as typed after the address's last @ (before lower-casing). Every answer about
 * an address at that domain reads these; they are worked out once per domain (see domainFacts).
 */
interface DomainFacts {
  /** domainToASCII of the typed domain: the form DNS uses ('' when IDNA refuses it). */
  asciiDomain: string;
  /** Whether the typed domain, in lower case, is what DNS reads back (its ASCII or its Unicode form). */
  readsBack: boolean;
  personal: boolean;
  disposable: boolean;
  /** The domain with a made-up ending replaced by the common one it is a slip of (acme.con → acme.com). */
  endingFixed: string | undefined;
  /**
   * Whether the spell checker suggests anything at all for an address at this domain; found out when first asked
   * (a booking's check never asks it of a domain that is not disposable).
   */
  spellCheckerSuggests?: boolean;
}

/** Domains whose facts are kept at most; the one asked about least lately goes first. */
export const DOMAIN_FACTS_KEPT = 2000;

/**
 * The facts of a typed domain, kept for the last DOMAIN_FACTS_KEPT domains: a form and its visitors ask about many
 * addresses at few domains, and IDNA, the disposable list and the spell checker are the check's own cost.
 */
const keptDomainFacts = new LRUCache<string, DomainFacts>({
  max: DOMAIN_FACTS_KEPT,
  memoMethod: (typedDomain) => {
    const domain = typedDomain.toLowerCase();
    // A domain typed in Unicode (müller.de) is checked in the ASCII form DNS uses (xn--mller-kva.de).
    const asciiDomain = domainToASCII(typedDomain);
    return {
      asciiDomain,
      readsBack: domain === asciiDomain || domain === domainToUnicode(asciiDomain),
      personal: PERSONAL_DOMAIN_SET.has(domain),
      disposable: isDisposableDomain(domain),
      endingFixed: tldSlip(domain),
    };
  },
});

const domainFacts = (typedDomain: string): DomainFacts => keptDomainFacts.memo(typedDomain);

/**
 * Whether the spell checker has a suggestion for some address at this domain. It looks at the domain alone (the part
 * after the last @), and an address it cannot parse (an empty local part) gets none either way: when it has none for
 * x@domain, it has none for any address there. When it has one, it is asked about the address itself, whose local
 * part its suggestion carries.
 */
function spellCheckerSuggests(typedDomain: string): boolean {
  const facts = domainFacts(typedDomain);
  facts.spellCheckerSuggests ??=
    typedDomain.isWellFormed() && emailSpellChecker.run({ email: `x@${typedDomain}` }) !== undefined;
  return facts.spellCheckerSuggests;
}

/** How many domains' facts are kept now (for tests: the memo stays within DOMAIN_FACTS_KEPT). */
export function domainFactsKept(): number {
  return keptDomainFacts.size;
}

/** The facts of the domain of an address (after its last @, white space around the address trimmed). */
function factsOf(email: string): DomainFacts {
  const trimmed = email.trim();
  return domainFacts(trimmed.slice(trimmed.lastIndexOf('@') + 1));
}

export function isEmailSyntaxValid(email: string): boolean {
  if (UNPRINTABLE.test(email) || !email.isWellFormed()) return false;
  const at = email.lastIndexOf('@');
  if (at < 0 || email.length > EMAIL_MAX_LENGTH) return false;
  const { asciiDomain, readsBack } = domainFacts(email.slice(at + 1));
  const local = email.slice(0, at);
  if (asciiDomain === '' || !ADDRESS_PATTERN.test(`${local}@${asciiDomain}`)) return false;
  // IDNA maps look-alikes (fullwidth ｇｍａｉｌ, a soft hyphen, 。 for a dot) onto plain letters: the rules below
  // would judge one domain while the mail went to another. Only a domain written as DNS reads it back is taken.
  if (!readsBack) return false;
  return local.length <= 64 && !local.startsWith('.') && !local.endsWith('.') && !local.includes('..');
}

export function emailDomain(email: string): string {
  const trimmed = email.trim();
  return trimmed.slice(trimmed.lastIndexOf('@') + 1).toLowerCase();
}

/** One recipient however the address is written: what the ceilings count and what holds a slot once. */
export interface CanonicalRecipient {
  /** The mailbox: its local part in lower case without a `+tag`, at `domain`. */
  address: string;
  /** The domain in its ASCII (punycode) form, in lower case. */
  domain: string;
}

/**
 * The recipient an address reaches, for counting: `Victim+1@Dùp-Test.com` and `victim@xn--dp-test-y1a.com` are one
 * mailbox, so they are one recipient (the e-mail itself still goes to the address as typed). For an address the
 * e-mail rules accepted; a `+` that starts the local part is kept, since there is no mailbox before it.
 */
export function canonicalRecipient(email: string): CanonicalRecipient {
  const trimmed = email.trim();
  const at = trimmed.lastIndexOf('@');
  const local = trimmed.slice(0, at).toLowerCase();
  const plus = local.indexOf('+');
  const mailbox = plus > 0 ? local.slice(0, plus) : local;
  const typedDomain = trimmed.slice(at + 1);
  const domain = (domainFacts(typedDomain).asciiDomain || typedDomain).toLowerCase();
  return { address: `${mailbox}@${domain}`, domain };
}

export function isPersonalEmail(email: string): boolean {
  return factsOf(email).personal;
}

function isDisposableDomain(domain: string): boolean {
  const blocked = mailchecker.blacklist();
  // Subdomains of a disposable domain are disposable too (x.mailinator.com).
  const labels = domain.split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    if (blocked.has(labels.slice(i).join('.'))) return true;
  }
  return false;
}

export function isDisposableEmail(email: string): boolean {
  return factsOf(email).disposable;
}

export function isRoleEmail(email: string): boolean {
  const trimmed = email.trim();
  const local = trimmed.slice(0, trimmed.lastIndexOf('@')).toLowerCase().split('+')[0] ?? '';
  return ROLE_LOCAL_PARTS.has(local);
}

/** Edits between two strings, counting a swap of neighbours as one (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      (rows[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

/** Every top-level domain IANA lists (the tlds package, a JSON array), in lower case. */
const IANA_TLDS: ReadonlySet<string> = new Set(createRequire(import.meta.url)('tlds') as string[]);
/** The endings most company addresses have, in order of preference: a made-up ending one slip from one is taken for it. */
const COMMON_TLDS = ['com', 'net', 'org', 'io', 'co', 'de', 'uk', 'fr', 'eu', 'us', 'ai', 'biz', 'info'];

/**
 * Endings reserved for made-up and local names (RFC 2606, RFC 6761 and the like): in no root zone, but what text
 * uses for a host name, and what a mail program may still show as a link.
 */
const SPECIAL_USE_ENDINGS: ReadonlySet<string> = new Set([
  'example',
  'test',
  'invalid',
  'localhost',
  'local',
  'onion',
  'internal',
  'alt',
  'arpa',
]);

/** Whether a label is a domain's ending: a top-level domain of IANA's list (in Unicode or punycode) or a reserved one. */
export function isDomainEnding(label: string): boolean {
  const ending = label.toLowerCase();
  if (IANA_TLDS.has(ending) || SPECIAL_USE_ENDINGS.has(ending)) return true;
  return ending.startsWith('xn--') && IANA_TLDS.has(domainToUnicode(ending));
}

/** acme.con → acme.com: an ending that is no top-level domain at all, one key from a common one. */
function tldSlip(domain: string): string | undefined {
  const { name, tld } = splitDomain(domain);
  if (name === '' || IANA_TLDS.has(tld) || tld.startsWith('xn--')) return undefined;
  const meant = COMMON_TLDS.find((common) => editDistance(tld, common) === 1);
  return meant && `${name}.${meant}`;
}

/** The address with its made-up ending replaced by the common one it is a slip of; undefined when it has none. */
function withEndingFixed(email: string): string | undefined {
  const fixed = factsOf(email).endingFixed;
  return fixed && `${email.slice(0, email.lastIndexOf('@'))}@${fixed}`;
}

function splitDomain(domain: string): { name: string; tld: string } {
  const dot = domain.lastIndexOf('.');
  return { name: domain.slice(0, dot), tld: domain.slice(dot + 1) };
}

/**
 * Whether the list's candidate is a small slip of what was typed rather than another real domain. Short names
 * are left alone (ibm.com is not a typo of aim.com), a name may be off by one key (two from six letters on),
 * and a top-level domain by one key without getting shorter (acme.con is not acme.co).
 * (Slips such as gmial.com are on the disposable list too: the reason says so, and the suggestion still helps.)
 */
function isLikelySlip(typed: string, suggested: string): boolean {
  const from = splitDomain(typed);
  const to = splitDomain(suggested);
  if (from.name === to.name)
    return from.tld !== to.tld && editDistance(from.tld, to.tld) === 1 && to.tld.length >= from.tld.length;
  if (from.name.length < 4) return false;
  const distance = editDistance(from.name, to.name);
  if (distance > (from.name.length >= 6 ? 2 : 1)) return false;
  // Two slips rarely include the first letter: yopmail.fr is its own domain, not a typo of hotmail.fr.
  if (distance === 2 && from.name[0] !== to.name[0]) return false;
  return from.tld === to.tld || editDistance(from.tld, to.tld) === 1;
}

/**
 * A corrected address when the domain looks like a typo of a common one (gmial.com → gmail.com). A real
 * company's domain must never be "corrected" into a mail provider's.
 */
export function suggestEmail(email: string): string | undefined {
  const trimmed = email.trim();
  // The spell checker URI-encodes the address, which throws on text that is not well-formed UTF-16.
  if (!trimmed.isWellFormed()) return undefined;
  const endingFixed = withEndingFixed(trimmed);
  if (endingFixed) return endingFixed;
  if (!spellCheckerSuggests(trimmed.slice(trimmed.lastIndexOf('@') + 1))) return undefined;
  const suggestion = emailSpellChecker.run({ email: trimmed });
  if (!suggestion) return undefined;
  const typed = emailDomain(trimmed);
  const suggested = suggestion.domain.toLowerCase();
  return isLikelySlip(typed, suggested) ? suggestion.full : undefined;
}

/** The rule that decides whether a demo request may use this address: null when it may. */
export function emailProblem(email: string): string | null {
  const trimmed = email.trim();
  if (trimmed === '') return EMAIL_REQUIRED_MESSAGE;
  // IDNA would quietly drop a zero-width space from the domain: an address must be what it shows.
  if (hasInvisibleCharacter(trimmed)) return INVISIBLE_EMAIL_MESSAGE;
  if (!isEmailSyntaxValid(trimmed)) return EMAIL_SYNTAX_MESSAGE;
  if (isPersonalEmail(trimmed)) return PERSONAL_EMAIL_MESSAGE;
  // Slips of big providers' names are registered to catch mail (gmial.com is on the disposable list); a made-up
  // ending (gmail.con) is caught by its ending alone. The spell checker is asked only in the first case: it is the
  // costly part of the check, and every booking goes through here.
  const disposable = isDisposableEmail(trimmed);
  const suggestion = disposable ? suggestEmail(trimmed) : withEndingFixed(trimmed);
  // A slip of a personal provider's domain is refused as what it was meant to be.
  if (suggestion && isPersonalEmail(suggestion)) return mistypedPersonalMessage(emailDomain(suggestion));
  if (disposable) return suggestion ? MISTYPED_EMAIL_MESSAGE : DISPOSABLE_EMAIL_MESSAGE;
  // An ending IANA does not list has no mail servers behind it, whether a slip (.con, whose suggestion goes with this
  // reason) or made up (.logisticz); the endings reserved for examples and tests are let through.
  const domain = emailDomain(trimmed);
  const ending = domain.slice(domain.lastIndexOf('.') + 1);
  if (!isDomainEnding(ending)) return unknownEndingMessage(ending);
  return null;
}

export function checkEmail(email: string): EmailValidationResult {
  const trimmed = email.trim();
  const wellFormed = trimmed !== '' && isEmailSyntaxValid(trimmed);
  const problem = emailProblem(trimmed);
  const result: EmailValidationResult = {
    isValid: problem === null,
    isDisposable: wellFormed && isDisposableEmail(trimmed),
    isFreeProvider: wellFormed && isPersonalEmail(trimmed),
    isRoleEmail: wellFormed && isRoleEmail(trimmed),
  };
  if (problem) result.reason = problem;
  const suggestion = trimmed.includes('@') ? suggestEmail(trimmed) : undefined;
  // A suggestion the form would refuse is no help: the reason says what is needed instead.
  if (suggestion && !isPersonalEmail(suggestion)) result.suggestion = suggestion;
  return result;
}
