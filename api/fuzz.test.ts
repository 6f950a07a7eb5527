/**
 * Fuzzing of the public POST endpoints against the real app, PostgreSQL and Redis.
 *
 * 5,000 requests are generated from a fixed seed (the same bodies on every run) and sent 16 at a time. Then: no
 * answer is a 5xx, every refusal is the documented JSON error, and every row stored obeys the rules of a demo
 * request. A failure names the first requests that broke a rule: index, kind, headers and body.
 */
import { createHash } from 'node:crypto';
import { domainToASCII } from 'node:url';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { availableSlots, calendarDayOf, timeSlotProblem, type Slot } from '../domain/booking.js';
import {
  COMPANY_MAX_LENGTH,
  HONEYPOT_FIELD,
  IDEMPOTENCY_HEADER,
  MESSAGE_MAX_LENGTH,
  NAME_MAX_LENGTH,
  PHONE_MAX_LENGTH,
} from '../domain/demo-request.js';
import { EMAIL_MAX_LENGTH } from '../domain/email-messages.js';
import { emailProblem } from './email-rules.js';
import { startAppUnderTest, type AppUnderTest } from '../test/app-under-test.js';

const SEED = 0x5eed2026;
const REQUEST_COUNT = 5_000;
const CONCURRENCY = 16;
const TIME_ZONE = 'Europe/Berlin';
// Monday 23 November 2026, 10:30 in Berlin: the booking window runs to 23 December.
const NOW = new Date('2026-11-23T09:30:00.000Z');
const BODY_LIMIT_BYTES = 16 * 1024;
/** Fewer rows than this means the valid bodies were not valid, and the row checks proved little. */
const MIN_STORED_ROWS = 100;
const SHOWN_FAILURES = 5;

// ---------------------------------------------------------------------------------------------------------------
// A seeded generator

/** mulberry32: small, fast and good enough to pick bodies; the same seed gives the same sequence. */
class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** An integer from min to max, both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Some of the items (at least one), in their order. */
  some<T>(items: readonly T[], probability: number): T[] {
    const chosen = items.filter(() => this.chance(probability));
    return chosen.length > 0 ? chosen : [this.pick(items)];
  }
}

// ---------------------------------------------------------------------------------------------------------------
// What is sent

type Endpoint = 'demo' | 'email';
const PATHS: Record<Endpoint, string> = { demo: '/api/demo-request', email: '/api/validate-email' };
const FIELDS: Record<Endpoint, readonly string[]> = {
  demo: ['name', 'email', 'company', 'timeSlot', 'phone', 'message'],
  email: ['email'],
};
const MAX_LENGTHS: Record<string, number> = {
  name: NAME_MAX_LENGTH,
  email: EMAIL_MAX_LENGTH,
  company: COMPANY_MAX_LENGTH,
  timeSlot: 64,
  phone: PHONE_MAX_LENGTH,
  message: MESSAGE_MAX_LENGTH,
};

type Body = Record<string, unknown>;

/** What a generator makes: the body (text is sent as UTF-8), and headers when not plain JSON. */
interface Draft {
  note: string;
  body: string | Buffer;
  /** null: no Content-Type at all; unset: application/json. */
  contentType?: string | null;
  headers?: Record<string, string>;
}

interface FuzzRequest {
  index: number;
  kind: string;
  note: string;
  endpoint: Endpoint;
  body: Buffer;
  contentType: string | null;
  headers: Record<string, string>;
}

/** A JSON object written member by member, so keys can repeat and raw text (escapes, nesting) can go in. */
type Member = [key: string, value: string];
type Members = Member[];
const membersOf = (body: Body): Members =>
  Object.entries(body).map(([key, value]) => [JSON.stringify(key), JSON.stringify(value)]);
const objectText = (members: Members): string => `{${members.map(([key, value]) => `${key}:${value}`).join(',')}}`;

function insertAt<T>(rng: Random, items: T[], item: T): T[] {
  const copy = [...items];
  copy.splice(rng.int(0, copy.length), 0, item);
  return copy;
}

/** Replaces the raw value of a member (all members of that key), or adds it. */
function withMember(members: Members, key: string, value: string): Members {
  const quoted = JSON.stringify(key);
  return members.some(([k]) => k === quoted)
    ? members.map(([k, v]) => [k, k === quoted ? value : v])
    : [...members, [quoted, value]];
}

/** Puts each of the characters at a random code point boundary of the text. */
function sprinkle(rng: Random, text: string, characters: readonly string[]): string {
  let points = Array.from(text);
  for (const character of characters) points = insertAt(rng, points, character);
  return points.join('');
}

/** Holds the place of what JSON.stringify cannot write (an escaped lone surrogate, invalid bytes) until the text is made. */
const MARKER = 'MARKER_9f3c';

// ---------------------------------------------------------------------------------------------------------------
// Valid bodies: distinct company addresses, bookable slots

const PEOPLE: ReadonlyArray<{ name: string; local: string }> = [
  { name: 'Ada Lovelace', local: 'ada.lovelace' },
  { name: 'Grace Hopper', local: 'grace.hopper' },
  { name: 'Zoë Ångström', local: 'zoe.angstrom' },
  { name: 'Łukasz Żółć', local: 'lukasz.zolc' },
  { name: '李雷', local: 'li.lei' },
  { name: 'محمد الأحمد', local: 'mohammed.alahmad' },
  { name: 'Søren Kierkegaard', local: 'soren' },
  { name: "Conan O'Brien", local: "conan.o'brien" },
  { name: 'José-María de la Cruz', local: 'jm.delacruz' },
  { name: 'Nguyễn Thị Minh Khai', local: 'minh.khai' },
];
const COMPANY_WORDS = [
  'acme',
  'globex',
  'initech',
  'umbrella',
  'hooli',
  'vandelay',
  'wayne',
  'stark',
  'tyrell',
  'cyberdyne',
];
const COMPANY_TRADES = [
  'industries',
  'systems',
  'logistics',
  'analytics',
  'labs',
  'holdings',
  'robotics',
  'foods',
  'media',
  'freight',
];
const TOP_LEVEL_DOMAINS = ['com', 'de', 'co.uk', 'io', 'eu'];
const capitalised = (word: string): string => `${word[0]?.toUpperCase() ?? ''}${word.slice(1)}`;
const COMPANIES: ReadonlyArray<{ host: string; company: string }> = [
  ...COMPANY_WORDS.flatMap((word) =>
    COMPANY_TRADES.flatMap((trade) =>
      TOP_LEVEL_DOMAINS.map((tld) => ({
        host: `${word}-${trade}.${tld}`,
        company: `${capitalised(word)} ${capitalised(trade)}`,
      })),
    ),
  ),
  { host: 'müller-maschinen.de', company: 'Müller Maschinenbau GmbH' },
  { host: 'société-exemple.fr', company: 'Société Exemple S.A.' },
].filter(({ host }) => emailProblem(`someone@${host}`) === null);
const PHONES = ['+49 30 1234567', '+1 (555) 123-4567', '030/123 456-78', '+44 20 7946 0958 ext. 12'];
const MESSAGES = [
  'We send 2M SMS a month and want to add WhatsApp.',
  'Line one\nLine two\n\tindented',
  'Ünïcödé wörks — “quotes” and emoji 🚀',
  'Bitte auf Deutsch.',
];

/** Every slot bookable at NOW, over the whole window. */
function bookableSlots(): Slot[] {
  const slots = new Map<string, Slot>();
  for (let offset = 0; offset <= 35; offset++) {
    const day = calendarDayOf(new Date(NOW.getTime() + offset * 86_400_000), TIME_ZONE);
    for (const slot of availableSlots(day, NOW, TIME_ZONE)) slots.set(slot.iso, slot);
  }
  return [...slots.values()];
}

/** The same instant written with another UTC offset. */
function withOffset(iso: string, offsetHours: number): string {
  const wall = new Date(Date.parse(iso) + offsetHours * 3_600_000).toISOString().slice(0, 19);
  return `${wall}${offsetHours < 0 ? '-' : '+'}${String(Math.abs(offsetHours)).padStart(2, '0')}:00`;
}

/**
 * Slots come from two pools. Plain valid bodies share a third of the slots and collide often (409s); every other
 * kind takes the other slots in turn, so that an odd body the API accepts is likely to find its slot free and be
 * stored, where the row checks can see what became of it.
 */
type SlotPool = 'shared' | 'in turn';

class BodyFactory {
  private serial = 0;
  private turn = 0;
  private readonly earlier: Body[] = [];
  private readonly shared: Slot[];
  private readonly inTurn: Slot[];

  constructor(
    private readonly rng: Random,
    slots: readonly Slot[],
  ) {
    const shuffled = [...slots];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = rng.int(0, i);
      [shuffled[i], shuffled[j]] = [shuffled[j] as Slot, shuffled[i] as Slot];
    }
    this.shared = shuffled.filter((_, i) => i % 3 === 0);
    this.inTurn = shuffled.filter((_, i) => i % 3 !== 0);
  }

  email(): string {
    const person = this.rng.pick(PEOPLE);
    return `${person.local}.${++this.serial}@${this.rng.pick(COMPANIES).host}`;
  }

  slot(pool: SlotPool = 'in turn'): string {
    const { iso } =
      pool === 'shared' ? this.rng.pick(this.shared) : (this.inTurn[this.turn++ % this.inTurn.length] as Slot);
    return this.rng.chance(0.15) ? withOffset(iso, this.rng.int(-12, 14)) : iso;
  }

  demo(pool: SlotPool): Body {
    const person = this.rng.pick(PEOPLE);
    const { host, company } = this.rng.pick(COMPANIES);
    const body: Body = {
      name: person.name,
      email: `${person.local}.${++this.serial}@${host}`,
      company,
      timeSlot: this.slot(pool),
    };
    if (this.rng.chance(0.6)) body.phone = this.rng.pick(PHONES);
    if (this.rng.chance(0.6)) body.message = this.rng.pick(MESSAGES);
    this.earlier.push(body);
    return body;
  }

  /** A valid body for the endpoint, never sent before. */
  valid(endpoint: Endpoint, pool: SlotPool = 'in turn'): Body {
    return endpoint === 'demo' ? this.demo(pool) : { email: this.email() };
  }

  /** A body sent before (the same person), when there is one. */
  previous(): Body | undefined {
    return this.earlier.length === 0 ? undefined : { ...this.rng.pick(this.earlier) };
  }
}

interface GeneratorContext {
  rng: Random;
  endpoint: Endpoint;
  fields: readonly string[];
  factory: BodyFactory;
  /** Addresses of demo requests whose honeypot is filled: none may be stored. */
  honeypotEmails: Set<string>;
}

type Generator = (context: GeneratorContext) => Draft;

// ---------------------------------------------------------------------------------------------------------------
// One generator per kind of body

function validDraft({ rng, endpoint, factory }: GeneratorContext, pool: SlotPool): Draft {
  const previous = endpoint === 'demo' && rng.chance(0.1) ? factory.previous() : undefined;
  if (previous) {
    // The same person again: the same slot (refused as a double booking) or another one.
    if (rng.chance(0.5)) return { note: 'same person, same slot again', body: JSON.stringify(previous) };
    return { note: 'same person, another slot', body: JSON.stringify({ ...previous, timeSlot: factory.slot(pool) }) };
  }
  const body = factory.valid(endpoint, pool);
  if (rng.chance(0.2)) {
    // Accepted variants: padding, case, an offset other than Z.
    for (const field of Object.keys(body))
      if (typeof body[field] === 'string' && rng.chance(0.3)) body[field] = `  ${String(body[field])}\t `;
    if (rng.chance(0.3)) body.email = String(body.email).toUpperCase();
    return { note: 'valid, with padding or case', body: JSON.stringify(body) };
  }
  return { note: 'valid', body: JSON.stringify(body) };
}

const validBody: Generator = (context) => validDraft(context, 'shared');

const REMOVE = Symbol('remove the field');
type Mutation = [note: string, change: (value: string) => unknown];

const textMutations = (max: number): Mutation[] => [
  ['empty', () => ''],
  ['blank', () => ' \t  '],
  ['padded', (value) => `   ${value}   `],
  ['runs of spaces', (value) => value.replaceAll(' ', '     ')],
  ['at max length', () => 'x'.repeat(max)],
  ['one over max length', () => 'x'.repeat(max + 1)],
  ['astral characters at max length', () => '𝔄'.repeat(max)],
  ['astral characters over max length', () => '𝔄'.repeat(max + 1)],
  ['300 combining marks', (value) => `${value}${'\u0301'.repeat(300)}`],
  ['markup', () => '<script>alert(1)</script>'],
  ['SQL', () => "Robert'); DROP TABLE bookings;--"],
  ['replacement and non-characters', () => 'Ada \ufffd\ufffe\uffff'],
  ['missing', () => REMOVE],
];

const MUTATIONS: Record<string, Mutation[]> = {
  name: textMutations(NAME_MAX_LENGTH),
  company: textMutations(COMPANY_MAX_LENGTH),
  email: [
    ['empty', () => ''],
    ['upper case', (value) => value.toUpperCase()],
    ['padded', (value) => ` ${value} `],
    ['plus tag', (value) => value.replace('@', '+demo@')],
    ['role address', (value) => `info@${value.split('@')[1] ?? ''}`],
    ['personal', (value) => value.replace(/@.*/, '@gmail.com')],
    ['personal, mixed case', (value) => value.replace(/@.*/, '@GMail.COM')],
    ['personal, full-width', (value) => value.replace(/@.*/, '@ｇｍａｉｌ.com')],
    ['personal, soft hyphen', (value) => value.replace(/@.*/, '@gmail\u00ad.com')],
    ['personal, ideographic full stop', (value) => value.replace(/@.*/, '@gmail。com')],
    ['disposable', (value) => value.replace(/@.*/, '@mailinator.com')],
    ['disposable, full-width', (value) => value.replace(/@.*/, '@ｍａｉｌｉｎａｔｏｒ.com')],
    ['typo of a provider', (value) => value.replace(/@.*/, '@gmial.com')],
    ['no @', (value) => value.replace('@', '.')],
    ['two @', (value) => value.replace('@', '@x@')],
    ['no dot in domain', () => 'a@b'],
    ['leading dot', (value) => `.${value}`],
    ['double dot', (value) => value.replace('@', '..x@')],
    ['local part of 65', (value) => `${'a'.repeat(65)}@${value.split('@')[1] ?? ''}`],
    ['255 characters', () => `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(59)}.com`],
    ['inner space', (value) => value.replace('@', ' @')],
    ['quoted local part', () => '"ada lovelace"@acme-industries.com'],
    ['IP literal', () => 'ada@[127.0.0.1]'],
    ['non-ASCII local part', () => 'jörg@müller-maschinen.de'],
    ['missing', () => REMOVE],
  ],
  timeSlot: [
    ['past', () => '2026-11-23T08:00:00.000Z'],
    ['now', () => NOW.toISOString()],
    ['weekend', () => '2026-11-28T09:00:00.000Z'],
    ['quarter past', (value) => new Date(Date.parse(value) + 15 * 60_000).toISOString()],
    ['1 ms past the hour', (value) => new Date(Date.parse(value) + 1).toISOString()],
    ['no offset', (value) => new Date(Date.parse(value)).toISOString().slice(0, 19)],
    ['date only', (value) => new Date(Date.parse(value)).toISOString().slice(0, 10)],
    ['beyond the window', () => '2026-12-24T08:00:00.000Z'],
    ['largest date', () => '+275760-09-13T00:00:00.000Z'],
    ['31 November', () => '2026-11-31T09:00:00Z'],
    ['24:00', () => '2026-11-24T24:00:00Z'],
    ['lower case t and z', (value) => new Date(Date.parse(value)).toISOString().toLowerCase()],
    ['nanoseconds', (value) => new Date(Date.parse(value)).toISOString().replace('.000Z', '.000000001Z')],
    ['leading space', (value) => ` ${value}`],
    ['epoch milliseconds', (value) => String(Date.parse(value))],
    ['words', () => 'next tuesday at 9'],
    ['3 at night', () => '2026-11-24T02:00:00.000Z'],
    ['other offset', (value) => withOffset(new Date(Date.parse(value)).toISOString(), -11)],
    ['missing', () => REMOVE],
  ],
  phone: [
    ['empty', () => ''],
    ['blank', () => '   '],
    ['at max length', () => '1'.repeat(PHONE_MAX_LENGTH)],
    ['one over max length', () => '1'.repeat(PHONE_MAX_LENGTH + 1)],
    ['mathematical digits', () => '𝟙'.repeat(PHONE_MAX_LENGTH)],
    ['URI', () => 'tel:+1-555-0100'],
    ['missing', () => REMOVE],
  ],
  message: [
    ['empty', () => ''],
    ['only line breaks', () => '\r\n\r\n\n'],
    ['at max length', () => 'x'.repeat(MESSAGE_MAX_LENGTH)],
    ['one over max length', () => 'x'.repeat(MESSAGE_MAX_LENGTH + 1)],
    ['max length in 3-byte characters', () => '€'.repeat(MESSAGE_MAX_LENGTH)],
    ['3,000 emoji', () => '😀'.repeat(3_000)],
    ['mixed line breaks', () => 'a\r\nb\rc\n\td'],
    ['missing', () => REMOVE],
  ],
};

const EXTRA_MEMBERS: Body[] = [
  { isAdmin: true },
  { id: '00000000-0000-0000-0000-000000000000' },
  { time_slot: '2026-11-24T08:00:00.000Z' },
  { confirmation_sent_at: NOW.toISOString() },
  { '': '' },
  { 'name ': 'Trailing Space' },
  { NAME: 'Upper Case' },
];

function mutatedField({ rng, endpoint, fields, factory }: GeneratorContext): Draft {
  const body = factory.valid(endpoint);
  const field = rng.pick([...fields, 'extra']);
  if (field === 'extra') {
    const extra = rng.pick(EXTRA_MEMBERS);
    return { note: `extra member ${JSON.stringify(extra)}`, body: JSON.stringify({ ...body, ...extra }) };
  }
  const [note, change] = rng.pick(MUTATIONS[field] ?? []);
  const current =
    typeof body[field] === 'string' ? (body[field] as string) : field === 'phone' ? PHONES[0]! : MESSAGES[0]!;
  const value = change(current);
  if (value === REMOVE) delete body[field];
  else body[field] = value;
  return { note: `${field}: ${note}`, body: JSON.stringify(body) };
}

const WRONG_TYPES: ReadonlyArray<[string, unknown]> = [
  ['0', 0],
  ['-1', -1],
  ['1.5', 1.5],
  ['1e308', 1e308],
  ['true', true],
  ['false', false],
  ['null', null],
  ['[]', []],
  ['["Ada"]', ['Ada']],
  ['{}', {}],
  ['{"value":"Ada"}', { value: 'Ada' }],
  ['[[[]]]', [[[]]]],
];
const WRONG_BODIES = ['42', '"text"', 'true', 'null', '[]', '""', '{}', '-0', '1e999'];

function wrongType({ rng, endpoint, fields, factory }: GeneratorContext): Draft {
  const body = factory.valid(endpoint);
  if (rng.chance(0.15)) {
    const whole = rng.chance(0.3) ? `[${JSON.stringify(body)}]` : rng.pick(WRONG_BODIES);
    return { note: `body is ${whole.slice(0, 20)}`, body: whole };
  }
  const notes: string[] = [];
  for (const field of rng.some(fields, 0.3)) {
    const [note, value] = rng.pick(WRONG_TYPES);
    body[field] = value;
    notes.push(`${field}=${note}`);
  }
  return { note: notes.join(' '), body: JSON.stringify(body) };
}

const FILL_UNITS = ['x', 'é', '€', '😀', ' '];
const NEAR_LIMIT_SIZES = [15_000, BODY_LIMIT_BYTES - 1, BODY_LIMIT_BYTES, BODY_LIMIT_BYTES + 1, 16_500, 20_000, 65_536];

function hugeString({ rng, endpoint, fields, factory }: GeneratorContext): Draft {
  const body = factory.valid(endpoint);
  const field = rng.pick(fields);
  const unit = rng.pick(FILL_UNITS);
  if (rng.chance(0.4)) {
    // Above the field's own limit, counted in characters.
    const max = MAX_LENGTHS[field] ?? 100;
    const count = rng.pick([max + 1, max * 2, max * 10]);
    body[field] = unit.repeat(count);
    return { note: `${field}: ${count} × ${JSON.stringify(unit)}`, body: JSON.stringify(body) };
  }
  // The whole body near the 16 KB limit, to the byte.
  const target = rng.pick(NEAR_LIMIT_SIZES);
  body[field] = '';
  const needed = Math.max(0, target - Buffer.byteLength(JSON.stringify(body)));
  const unitBytes = Buffer.byteLength(unit);
  body[field] = unit.repeat(Math.floor(needed / unitBytes)) + 'x'.repeat(needed % unitBytes);
  return { note: `${field} filled with ${JSON.stringify(unit)} to a ${target}-byte body`, body: JSON.stringify(body) };
}

const NESTING_DEPTHS = [64, 500, 1_000, 2_500, 5_000, 8_000, 20_000, 50_000];

function nested(shape: string, depth: number): string {
  switch (shape) {
    case 'arrays':
      return `${'['.repeat(depth)}${']'.repeat(depth)}`;
    case 'objects':
      return `${'{"a":'.repeat(depth)}null${'}'.repeat(depth)}`;
    case 'mixed':
      return `${'[{"a":'.repeat(depth)}1${'}]'.repeat(depth)}`;
    default:
      return '['.repeat(depth); // never closed
  }
}

function deepNesting({ rng, endpoint, fields, factory }: GeneratorContext): Draft {
  const depth = rng.pick(NESTING_DEPTHS);
  const shape = rng.pick(['arrays', 'objects', 'mixed', 'unclosed']);
  const value = nested(shape, depth);
  const where = rng.pick(['field', 'extra member', 'whole body', 'constructor']);
  const members = membersOf(factory.valid(endpoint));
  const note = `${shape} ${depth} deep, as ${where}`;
  switch (where) {
    case 'field': {
      const field = rng.pick(fields);
      return { note: `${note} (${field})`, body: objectText(withMember(members, field, value)) };
    }
    case 'extra member':
      return { note, body: objectText(insertAt(rng, members, ['"nested"', value])) };
    case 'constructor':
      return { note, body: objectText(insertAt(rng, members, ['"constructor"', `{"prototype":${value}}`])) };
    default:
      return { note, body: value };
  }
}

const CONTROL_CHARACTERS = [
  '\u0000',
  '\u0001',
  '\b',
  '\t',
  '\n',
  '\u000b',
  '\f',
  '\r',
  '\r\n',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u009b',
  '\u2028',
  '\u2029',
];
const ZERO_WIDTH_CHARACTERS = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff'];
const BIDI_CONTROLS = [
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u200e',
  '\u200f',
  '\u061c',
];
/** What shows nothing or looks like another character: soft hyphen, variation selector, Hangul filler, full-width e, dot leader, circled o. */
const LOOK_ALIKE_CHARACTERS = ['\u00ad', '\ufe0f', '\u3164', '\uff45', '\u2024', '\u24de'];
const ODD_CHARACTERS = [...CONTROL_CHARACTERS, ...ZERO_WIDTH_CHARACTERS, ...BIDI_CONTROLS, ...LOOK_ALIKE_CHARACTERS];
/** How often each field gets odd characters: an address or slot with them is refused, so less often. */
const ODD_CHARACTER_CHANCE: Record<string, number> = {
  name: 0.7,
  company: 0.7,
  phone: 0.7,
  message: 0.7,
  email: 0.25,
  timeSlot: 0.15,
};

function oddCharacters({ rng, endpoint, fields, factory }: GeneratorContext): Draft {
  const body = factory.valid(endpoint);
  if (endpoint === 'demo') {
    body.phone ??= PHONES[0];
    body.message ??= MESSAGES[0];
  }
  const notes: string[] = [];
  for (const field of fields) {
    if (!rng.chance(endpoint === 'email' ? 0.8 : (ODD_CHARACTER_CHANCE[field] ?? 0.5))) continue;
    const characters = Array.from({ length: rng.int(1, 4) }, () => rng.pick(ODD_CHARACTERS));
    // Now and then nothing else, so that only the odd characters are left.
    const only = field !== 'email' && field !== 'timeSlot' && rng.chance(0.1);
    body[field] = only ? characters.join('') : sprinkle(rng, String(body[field]), characters);
    notes.push(`${field}${only ? ' only' : ''} ${JSON.stringify(characters).replace(/"/g, '')}`);
  }
  return { note: notes.join(', ') || 'none', body: JSON.stringify(body) };
}

const LONE_SURROGATE_ESCAPES = [
  '\\ud800',
  '\\udbff',
  '\\udc00',
  '\\udfff',
  '\\udfff\\ud800',
  '\\ud83d',
  '\\ud83d\\ud83d',
  '\\ud800\\u0000',
];
const INVALID_UTF8: readonly number[][] = [
  [0xed, 0xa0, 0x80], // a surrogate encoded as if it were a character
  [0xed, 0xbf, 0xbf],
  [0xff],
  [0xfe],
  [0xc0, 0x80], // overlong NUL
  [0xc0, 0xaf], // overlong "/"
  [0xe2, 0x82], // cut short
  [0xf4, 0x90, 0x80, 0x80], // beyond U+10FFFF
  [0x80], // a continuation byte alone
  [0xf0, 0x9f, 0x98], // an emoji cut short
];

function loneSurrogates({ rng, endpoint, fields, factory }: GeneratorContext): Draft {
  const body = factory.valid(endpoint);
  const field = rng.pick(fields);
  body[field] = sprinkle(rng, typeof body[field] === 'string' ? (body[field] as string) : 'text', [MARKER]);
  let text = JSON.stringify(body);
  if (rng.chance(0.5)) {
    const escape = rng.pick(LONE_SURROGATE_ESCAPES);
    if (rng.chance(0.2)) {
      return {
        note: `key ${field}: JSON escape ${escape}`,
        body: text.replace(`"${field}"`, `"${field}${escape}"`).replace(MARKER, ''),
      };
    }
    return { note: `${field}: JSON escape ${escape}`, body: text.replace(MARKER, escape) };
  }
  if (rng.chance(0.1)) {
    text = text.replace(MARKER, '');
    return {
      note: 'UTF-8 byte order mark before the body',
      body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]),
    };
  }
  const bytes = rng.pick(INVALID_UTF8);
  const [before = '', after = ''] = text.split(MARKER);
  return {
    note: `${field}: invalid UTF-8 bytes ${Buffer.from(bytes).toString('hex')}`,
    body: Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after)]),
  };
}

const PROTOTYPE_KEYS = [
  '"__proto__"',
  '"\\u005f_proto__"',
  '"__pro\\u0074o__"',
  '"\\u005F\\u005Fproto\\u005F\\u005F"',
  '"constructor"',
  '"prototype"',
  '"hasOwnProperty"',
  '"toString"',
  '"__defineSetter__"',
];
const PROTOTYPE_VALUES = [
  '{"isAdmin":true}',
  '{"polluted":"yes"}',
  '{"prototype":{"polluted":"yes"}}',
  '{"__proto__":{"polluted":"yes"}}',
  'null',
  '"x"',
  '[]',
  '1',
];

function prototypeKeys({ rng, endpoint, fields, factory }: GeneratorContext): Draft {
  const key = rng.pick(PROTOTYPE_KEYS);
  const value = rng.pick(PROTOTYPE_VALUES);
  const members = membersOf(factory.valid(endpoint));
  const where = rng.pick(['top level', 'top level', 'in a field', 'in an extra member', 'deep in an array']);
  const note = `${key}: ${value} ${where}`;
  switch (where) {
    case 'in a field': {
      const field = rng.pick(fields);
      return { note: `${note} (${field})`, body: objectText(withMember(members, field, `{${key}:${value}}`)) };
    }
    case 'in an extra member':
      return { note, body: objectText(insertAt(rng, members, ['"meta"', `{"a":1,${key}:${value}}`])) };
    case 'deep in an array':
      return { note, body: objectText(insertAt(rng, members, ['"list"', `[[1,{${key}:${value}}]]`])) };
    default:
      return { note, body: objectText(insertAt(rng, members, [key, value])) };
  }
}

const CONTENT_TYPES: ReadonlyArray<string | null> = [
  'text/plain',
  'text/plain; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=fuzz-boundary',
  'application/json; charset=latin1',
  'application/json; charset=iso-8859-1',
  'application/json; charset=utf-16',
  'application/json; charset=utf-8',
  'Application/JSON',
  'application/json;charset=UTF-8',
  'application/json; charset="utf-8"',
  'application/json; charset=',
  'application/vnd.api+json',
  'application/json-patch+json',
  'application/csp-report',
  'application/xml',
  'text/json',
  'json',
  '*/*',
  '',
  'application/json, text/plain',
  null,
];

function contentType({ rng, endpoint, factory }: GeneratorContext): Draft {
  const body = factory.valid(endpoint);
  const type = rng.pick(CONTENT_TYPES);
  const json = JSON.stringify(body);
  const note = type === null ? 'no Content-Type' : `Content-Type: ${type}`;
  if (type?.startsWith('application/x-www-form-urlencoded') && rng.chance(0.5)) {
    return {
      note: `${note}, form body`,
      contentType: type,
      body: new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])).toString(),
    };
  }
  if (type?.startsWith('multipart/') && rng.chance(0.5)) {
    const parts = Object.entries(body).map(
      ([k, v]) => `--fuzz-boundary\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${String(v)}\r\n`,
    );
    return { note: `${note}, multipart body`, contentType: type, body: `${parts.join('')}--fuzz-boundary--\r\n` };
  }
  if (type?.includes('latin1') || type?.includes('8859')) {
    if (rng.chance(0.5))
      return { note: `${note}, Latin-1 bytes`, contentType: type, body: Buffer.from(json, 'latin1') };
  }
  return { note, contentType: type, body: json };
}

function contentEncoding({ rng, endpoint, factory }: GeneratorContext): Draft {
  const json = JSON.stringify(factory.valid(endpoint));
  const variants: Array<() => Draft> = [
    () => ({ note: 'gzip', headers: { 'Content-Encoding': 'gzip' }, body: gzipSync(json) }),
    () => ({ note: 'deflate', headers: { 'Content-Encoding': 'deflate' }, body: deflateSync(json) }),
    () => ({ note: 'br', headers: { 'Content-Encoding': 'br' }, body: brotliCompressSync(json) }),
    () => ({ note: 'gzip declared, body not compressed', headers: { 'Content-Encoding': 'gzip' }, body: json }),
    () => ({ note: 'deflate declared, body not compressed', headers: { 'Content-Encoding': 'deflate' }, body: json }),
    () => ({ note: 'br declared, body not compressed', headers: { 'Content-Encoding': 'br' }, body: json }),
    () => {
      const gzip = gzipSync(json);
      return {
        note: 'gzip cut in half',
        headers: { 'Content-Encoding': 'gzip' },
        body: gzip.subarray(0, gzip.length >> 1),
      };
    },
    () => ({
      note: 'gzip of 1 MB',
      headers: { 'Content-Encoding': 'gzip' },
      body: gzipSync(`{"name":"${'x'.repeat(1_000_000)}"}`),
    }),
    () => ({ note: 'Content-Encoding: compress', headers: { 'Content-Encoding': 'compress' }, body: json }),
    () => ({ note: 'Content-Encoding: GZIP', headers: { 'Content-Encoding': 'GZIP' }, body: gzipSync(json) }),
    () => ({ note: 'Content-Encoding: identity', headers: { 'Content-Encoding': 'identity' }, body: json }),
  ];
  return rng.pick(variants)();
}

const TRAILING_JUNK = ['x', '}', ',', '{}', '\u0000', ' // comment', ']', '\n'];

function truncatedJson({ rng, endpoint, factory }: GeneratorContext): Draft {
  const json = Buffer.from(JSON.stringify(factory.valid(endpoint)));
  if (rng.chance(0.15)) {
    const junk = rng.pick(TRAILING_JUNK);
    return { note: `followed by ${JSON.stringify(junk)}`, body: Buffer.concat([json, Buffer.from(junk)]) };
  }
  const cut = rng.int(0, json.length - 1);
  return { note: `cut at byte ${cut} of ${json.length}`, body: json.subarray(0, cut) };
}

function duplicateKeys({ rng, endpoint, fields, factory }: GeneratorContext): Draft {
  const body = factory.valid(endpoint);
  let members = membersOf(body);
  if (rng.chance(0.1)) return { note: 'every member twice', body: objectText([...members, ...members]) };
  const field = rng.pick([...fields, HONEYPOT_FIELD]);
  const other =
    field === HONEYPOT_FIELD
      ? rng.pick(['https://spam.example', ''])
      : rng.pick<unknown>([
          field === 'email' ? factory.email() : `Other ${field}`,
          '',
          42,
          null,
          field === 'email' ? 'x@gmail.com' : 'x'.repeat(6_000),
        ]);
  const duplicate: Member = [JSON.stringify(field), JSON.stringify(other)];
  members = rng.chance(0.5) ? [duplicate, ...members] : [...members, duplicate];
  return { note: `${field} twice, once as ${JSON.stringify(other).slice(0, 30)}`, body: objectText(members) };
}

const UNICODE_RANGES: ReadonlyArray<[number, number]> = [
  [0x20, 0x7e],
  [0xa0, 0xff],
  [0x300, 0x36f], // combining marks
  [0x400, 0x4ff],
  [0x590, 0x6ff], // Hebrew and Arabic
  [0x900, 0x97f],
  [0x2000, 0x206f], // general punctuation: spaces, zero-width, bidi controls
  [0x3000, 0x303f],
  [0x4e00, 0x4fff],
  [0xe000, 0xe0ff], // private use
  [0xfe00, 0xfe0f], // variation selectors
  [0xff00, 0xffef], // full-width forms
  [0xfff0, 0xffff], // specials and non-characters
  [0x1d400, 0x1d4ff], // mathematical letters
  [0x1f300, 0x1f6ff], // emoji
  [0xe0000, 0xe007f], // tags
];
const DIGIT_LOOKALIKES = ['０１２３４５６７８９', '٠١٢٣٤٥٦٧٨٩', '𝟎𝟏𝟐𝟑𝟒𝟓𝟔𝟕𝟖𝟗'];

/** Personal and disposable domains, which an address must not use however it is written. */
const PROVIDERS = ['gmail.com', 'yahoo.com', 'outlook.com', 'mail.ru', 'mailinator.com', 'yopmail.com'];
const FULL_WIDTH_OFFSET = 0xff01 - 0x21;
const BOLD_SMALL_A = 0x1d41a;

/** The domain written so that IDNA maps it back to itself: full-width or bold letters, soft hyphens, other full stops. */
function disguised(rng: Random, domain: string): string {
  return Array.from(domain)
    .map((c) => {
      if (c === '.') return rng.pick(['.', '。', '．', '｡']);
      const roll = rng.next();
      if (roll < 0.25) return String.fromCodePoint(c.charCodeAt(0) + FULL_WIDTH_OFFSET);
      if (roll < 0.4 && c >= 'a' && c <= 'z') return String.fromCodePoint(BOLD_SMALL_A + c.charCodeAt(0) - 0x61);
      if (roll < 0.5) return `${c}\u00ad`;
      if (roll < 0.6) return c.toUpperCase();
      return c;
    })
    .join('');
}

function randomText(rng: Random, length: number): string {
  return Array.from({ length }, () => {
    const [from, to] = rng.pick(UNICODE_RANGES);
    return String.fromCodePoint(rng.int(from, to));
  }).join('');
}

/** Replaces a few characters of the text with random ones. */
function garble(rng: Random, text: string): string {
  const points = Array.from(text);
  for (let n = rng.int(1, 3); n > 0; n--) points[rng.int(0, points.length - 1)] = randomText(rng, 1);
  return points.join('');
}

function randomUnicode({ rng, endpoint, factory }: GeneratorContext): Draft {
  const body = factory.valid(endpoint);
  const notes: string[] = [];
  const targets = endpoint === 'email' ? ['email'] : rng.some(['email', 'timeSlot'], 0.5);
  for (const field of targets) {
    const value = String(body[field]);
    const shapes: Array<[string, () => string]> =
      field === 'email'
        ? [
            ['random', () => randomText(rng, rng.int(1, 40))],
            ['random local part', () => `${randomText(rng, rng.int(1, 12))}@${value.split('@')[1] ?? ''}`],
            ['random domain', () => `${value.split('@')[0] ?? ''}@${randomText(rng, rng.int(1, 12))}.com`],
            ['garbled', () => garble(rng, value)],
            ['provider in disguise', () => `${value.split('@')[0] ?? ''}@${disguised(rng, rng.pick(PROVIDERS))}`],
          ]
        : [
            ['random', () => randomText(rng, rng.int(1, 30))],
            ['garbled', () => garble(rng, value)],
            [
              'look-alike digits',
              () => value.replace(/\d/g, (digit) => Array.from(rng.pick(DIGIT_LOOKALIKES))[Number(digit)] ?? digit),
            ],
          ];
    const [shape, make] = rng.pick(shapes);
    body[field] = make();
    notes.push(`${field} ${shape}`);
  }
  return { note: notes.join(', '), body: JSON.stringify(body) };
}

/** Values a person never types into the hidden field; only a robot fills it. */
const HONEYPOT_FILLED = [
  'https://spam.example/buy',
  'http://x.test',
  'Buy cheap watches',
  'x',
  '0',
  'y'.repeat(10_000),
];
const HONEYPOT_OTHER: unknown[] = ['', '   ', 0, 1, true, false, null, [], {}, ['http://x.test'], '\u200b'];

function honeypot({ rng, endpoint, factory, honeypotEmails }: GeneratorContext): Draft {
  const body = factory.valid(endpoint);
  const filled = rng.chance(0.6);
  const value: unknown = filled ? rng.pick(HONEYPOT_FILLED) : rng.pick(HONEYPOT_OTHER);
  if (filled && endpoint === 'demo') honeypotEmails.add(String(body.email));
  const member: Member = [JSON.stringify(HONEYPOT_FIELD), JSON.stringify(value)];
  const members = insertAt(rng, membersOf(body), member);
  return { note: `${HONEYPOT_FIELD}=${JSON.stringify(value).slice(0, 30)}`, body: objectText(members) };
}

/** A valid body with an Idempotency-Key (the key itself is chosen by withIdempotencyKey). */
function idempotencyKey(context: GeneratorContext): Draft {
  return { ...validDraft(context, 'in turn'), note: 'with an idempotency key' };
}

interface Kind {
  name: string;
  weight: number;
  generate: Generator;
}

const KINDS: readonly Kind[] = [
  { name: 'valid', weight: 3, generate: validBody },
  { name: 'mutated field', weight: 1, generate: mutatedField },
  { name: 'wrong type', weight: 1, generate: wrongType },
  { name: 'huge string', weight: 1, generate: hugeString },
  { name: 'deep nesting', weight: 1, generate: deepNesting },
  { name: 'odd characters', weight: 1, generate: oddCharacters },
  { name: 'lone surrogates', weight: 1, generate: loneSurrogates },
  { name: 'prototype keys', weight: 1, generate: prototypeKeys },
  { name: 'content type', weight: 1, generate: contentType },
  { name: 'content encoding', weight: 1, generate: contentEncoding },
  { name: 'truncated JSON', weight: 1, generate: truncatedJson },
  { name: 'duplicate keys', weight: 1, generate: duplicateKeys },
  { name: 'random unicode', weight: 1, generate: randomUnicode },
  { name: 'honeypot', weight: 1, generate: honeypot },
  { name: 'idempotency key', weight: 1, generate: idempotencyKey },
];

const KEY_CHARACTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.:-';
const INVALID_KEYS = [
  'short',
  '',
  'has spaces in it',
  'k'.repeat(256),
  'schlüssel-12345',
  'key/with/slashes',
  'key\twith\ttabs',
  '<script>alert(1)</script>',
  "'; DROP TABLE idempotency_keys;--",
  '../../etc/passwd',
];

/** Adds an Idempotency-Key: a new valid one, an invalid one, one used before with another body, or an exact retry. */
function withIdempotencyKey(rng: Random, request: FuzzRequest, keyed: FuzzRequest[]): FuzzRequest {
  const roll = rng.next();
  const earlier = keyed.length > 0 ? rng.pick(keyed) : undefined;
  if (earlier && roll < 0.15) {
    return { ...earlier, index: request.index, note: `retry of #${earlier.index}` };
  }
  if (earlier && roll < 0.35) {
    const key = earlier.headers[IDEMPOTENCY_HEADER] ?? '';
    return {
      ...request,
      note: `${request.note}; key of #${earlier.index} with another body`,
      headers: { ...request.headers, [IDEMPOTENCY_HEADER]: key },
    };
  }
  if (roll < 0.55) {
    const key = rng.pick(INVALID_KEYS);
    return {
      ...request,
      note: `${request.note}; invalid key`,
      headers: { ...request.headers, [IDEMPOTENCY_HEADER]: key },
    };
  }
  const length = rng.chance(0.1) ? 255 : rng.int(8, 64);
  const key = Array.from({ length }, () => rng.pick(Array.from(KEY_CHARACTERS))).join('');
  const keyedRequest = { ...request, headers: { ...request.headers, [IDEMPOTENCY_HEADER]: key } };
  keyed.push(keyedRequest);
  return keyedRequest;
}

function generateRequests(slots: readonly Slot[]): { requests: FuzzRequest[]; honeypotEmails: Set<string> } {
  const rng = new Random(SEED);
  const factory = new BodyFactory(rng, slots);
  const honeypotEmails = new Set<string>();
  const keyed: FuzzRequest[] = [];
  const requests: FuzzRequest[] = [];
  const totalWeight = KINDS.reduce((sum, kind) => sum + kind.weight, 0);
  for (let index = 0; index < REQUEST_COUNT; index++) {
    let roll = rng.next() * totalWeight;
    const kind = KINDS.find((candidate) => (roll -= candidate.weight) < 0) ?? KINDS[0]!;
    const endpoint: Endpoint = kind.name !== 'idempotency key' && rng.chance(0.15) ? 'email' : 'demo';
    const draft = kind.generate({ rng, endpoint, fields: FIELDS[endpoint], factory, honeypotEmails });
    let request: FuzzRequest = {
      index,
      kind: kind.name,
      note: draft.note,
      endpoint,
      body: typeof draft.body === 'string' ? Buffer.from(draft.body) : draft.body,
      contentType: draft.contentType === undefined ? 'application/json' : draft.contentType,
      headers: draft.headers ?? {},
    };
    if (endpoint === 'demo' && (kind.name === 'idempotency key' || rng.chance(0.05)))
      request = withIdempotencyKey(rng, request, keyed);
    requests.push(request);
  }
  return { requests, honeypotEmails };
}

// ---------------------------------------------------------------------------------------------------------------
// Sending

interface Outcome {
  request: FuzzRequest;
  /** 0 when no answer came (the connection failed). */
  status: number;
  contentType: string | null;
  text: string;
}

async function send(url: string, request: FuzzRequest): Promise<Outcome> {
  const headers: Record<string, string> = { ...request.headers };
  if (request.contentType !== null) headers['Content-Type'] = request.contentType;
  try {
    const response = await fetch(`${url}${PATHS[request.endpoint]}`, {
      method: 'POST',
      headers,
      body: new Uint8Array(request.body),
    });
    return {
      request,
      status: response.status,
      contentType: response.headers.get('content-type'),
      text: await response.text(),
    };
  } catch (err) {
    const cause = (err as { cause?: unknown }).cause;
    return { request, status: 0, contentType: null, text: `${String(err)}${cause ? ` (${String(cause)})` : ''}` };
  }
}

async function inPool<T, R>(items: readonly T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let index = next++; index < items.length; index = next++) results[index] = await work(items[index] as T);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return results;
}

// ---------------------------------------------------------------------------------------------------------------
// Reading what came back

/** Shows control, invisible and bidirectional characters, and lone surrogates, as \u escapes. */
function visible(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f-\u00a0\u00ad\u061c\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\ufeff\ufff0-\uffff\ud800-\udfff]/gu,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function preview(body: Buffer, max = 300): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return `[not UTF-8] ${body.subarray(0, 120).toString('hex')}${body.length > 120 ? '…' : ''}`;
  }
  return `${visible(text.slice(0, max))}${text.length > max ? `… (+${text.length - max} characters)` : ''}`;
}

function describeRequest(request: FuzzRequest): string {
  const headers = {
    ...(request.contentType === null ? {} : { 'Content-Type': request.contentType }),
    ...request.headers,
  };
  return `#${request.index} [${request.kind}: ${visible(request.note)}] POST ${PATHS[request.endpoint]} ${JSON.stringify(headers)} body (${request.body.length} bytes): ${preview(request.body)}`;
}

function listed(failures: readonly string[]): string {
  const shown = failures.slice(0, SHOWN_FAILURES).map((failure) => `  - ${failure}`);
  return `${failures.length} failure(s), the first ${shown.length}:\n${shown.join('\n')}`;
}

/** What a refusal must look like: JSON with a string error and details. */
function errorBodyProblem(outcome: Outcome): string | undefined {
  if (!/^application\/json\b/.test(outcome.contentType ?? '')) return `Content-Type ${String(outcome.contentType)}`;
  try {
    const body = JSON.parse(outcome.text) as { error?: unknown; details?: unknown } | null;
    if (typeof body?.error !== 'string' || typeof body.details !== 'string') return 'no string error and details';
  } catch {
    return 'not JSON';
  }
  return undefined;
}

interface StoredRow {
  id: string;
  name: string;
  email: string;
  company: string;
  phone: string | null;
  message: string | null;
  time_slot: Date;
}

// eslint-disable-next-line no-control-regex
const CONTROL_IN_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
/** Text over several lines keeps \n and \t, nothing else of the kind. */
// eslint-disable-next-line no-control-regex
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const ZERO_WIDTH_OR_BIDI = /[\u200b-\u200f\u2060\ufeff\u202a-\u202e\u2066-\u2069\u061c]/;

/** Length as the schema counts it: in characters (code points), not UTF-16 units. */
const characters = (text: string): number => Array.from(text).length;

function textProblems(field: string, value: string, max: number, multiLine = false): string[] {
  const problems: string[] = [];
  if (value.trim() === '') problems.push(`${field} is empty`);
  if (characters(value) > max) problems.push(`${field} has ${characters(value)} characters (max ${max})`);
  if ((multiLine ? CONTROL_IN_TEXT : CONTROL_IN_LINE).test(value)) problems.push(`${field} holds a control character`);
  if (ZERO_WIDTH_OR_BIDI.test(value)) problems.push(`${field} holds a zero-width or bidirectional control character`);
  return problems;
}

/** The address as DNS and the mail server read it: a domain in Unicode is mapped to its ASCII form. */
function asciiAddress(email: string): string {
  const at = email.lastIndexOf('@');
  const domain = domainToASCII(email.slice(at + 1));
  return domain === '' ? email : `${email.slice(0, at)}@${domain}`;
}

/** A name or company is stored as the link rules read it: NFKC, with no format (Cf) or other invisible character. */
function checkedFormProblems(field: string, value: string): string[] {
  const problems: string[] = [];
  if (value.normalize('NFKC') !== value) problems.push(`${field} is not in NFKC`);
  if (/[\p{Cf}\p{Default_Ignorable_Code_Point}]/u.test(value)) problems.push(`${field} holds an invisible character`);
  return problems;
}

function rowProblems(row: StoredRow): string[] {
  const problems = [
    ...textProblems('name', row.name, NAME_MAX_LENGTH),
    ...checkedFormProblems('name', row.name),
    ...textProblems('company', row.company, COMPANY_MAX_LENGTH),
    ...checkedFormProblems('company', row.company),
    ...(row.phone === null ? [] : textProblems('phone', row.phone, PHONE_MAX_LENGTH)),
    ...(row.message === null ? [] : textProblems('message', row.message, MESSAGE_MAX_LENGTH, true)),
  ];
  if (CONTROL_IN_LINE.test(row.email) || ZERO_WIDTH_OR_BIDI.test(row.email))
    problems.push('email holds a control or invisible character');
  const emailRule = emailProblem(row.email);
  if (emailRule) problems.push(`email: ${emailRule}`);
  const ascii = asciiAddress(row.email);
  const asciiRule = ascii === row.email ? null : emailProblem(ascii);
  if (asciiRule) problems.push(`email as DNS reads it (${ascii}): ${asciiRule}`);
  const slotRule = timeSlotProblem(row.time_slot.toISOString(), NOW, TIME_ZONE);
  if (slotRule) problems.push(`time_slot ${row.time_slot.toISOString()}: ${slotRule}`);
  return problems;
}

const emailKey = (email: string): string => email.trim().toLowerCase();

/** The accepted demo requests by address, to show which request a row that breaks a rule came from. */
function requestsByEmail(outcomes: readonly Outcome[]): Map<string, FuzzRequest> {
  const requests = new Map<string, FuzzRequest>();
  for (const { request, status } of outcomes) {
    if (request.endpoint !== 'demo' || status < 200 || status > 299) continue;
    try {
      const body = JSON.parse(request.body.toString()) as { email?: unknown } | null;
      if (typeof body?.email === 'string') requests.set(emailKey(body.email), request);
    } catch {
      // Not JSON as sent (compressed, say): the row is shown without its request.
    }
  }
  return requests;
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

const formatCounts = (counts: Record<string, number>): string =>
  Object.entries(counts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, count]) => `${key}×${count}`)
    .join(' ');

// ---------------------------------------------------------------------------------------------------------------

describe('fuzzing POST /api/demo-request and /api/validate-email', () => {
  let app: AppUnderTest;
  let outcomes: Outcome[] = [];
  let rows: StoredRow[] = [];
  let honeypotEmails = new Set<string>();
  const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();

  before(async function () {
    this.timeout(120_000);
    app = await startAppUnderTest({ now: () => NOW });
    const slots = bookableSlots();
    const generated = generateRequests(slots);
    honeypotEmails = generated.honeypotEmails;
    const started = Date.now();
    outcomes = await inPool(generated.requests, CONCURRENCY, (request) => send(app.url, request));
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    // The same seed sends the same requests: this fingerprint of them is the same on every run.
    const fingerprint = createHash('sha256');
    for (const request of generated.requests)
      fingerprint.update(JSON.stringify([request.endpoint, request.contentType, request.headers])).update(request.body);
    rows = (await app
      .db('bookings')
      .select('id', 'name', 'email', 'company', 'phone', 'message', 'time_slot')) as StoredRow[];

    const slotsUsed = new Set(rows.map((row) => row.time_slot.toISOString())).size;
    const days = new Set(rows.map((row) => row.time_slot.toISOString().slice(0, 10))).size;
    const byKind = Object.entries(countBy(outcomes, (outcome) => outcome.request.kind)).map(
      ([kind]) =>
        `  ${kind}: ${formatCounts(
          countBy(
            outcomes.filter((outcome) => outcome.request.kind === kind),
            (outcome) => String(outcome.status),
          ),
        )}`,
    );
    // eslint-disable-next-line no-console -- the counts are what a reader of the run wants to quote
    console.log(
      [
        `fuzz: ${outcomes.length} requests (seed 0x${SEED.toString(16)}, fingerprint ${fingerprint.digest('hex').slice(0, 12)}, ${CONCURRENCY} at a time) in ${seconds} s`,
        `  demo-request: ${formatCounts(
          countBy(
            outcomes.filter((o) => o.request.endpoint === 'demo'),
            (o) => String(o.status),
          ),
        )}`,
        `  validate-email: ${formatCounts(
          countBy(
            outcomes.filter((o) => o.request.endpoint === 'email'),
            (o) => String(o.status),
          ),
        )}`,
        `  rows stored: ${rows.length} over ${slotsUsed} of ${slots.length} bookable slots on ${days} days`,
        'by kind:',
        ...byKind,
      ].join('\n'),
    );
  });

  after(async () => {
    await app?.close();
  });

  it('answers every request, none with a 5xx', () => {
    const failures = outcomes
      .filter((outcome) => outcome.status === 0 || outcome.status >= 500)
      .map(
        (outcome) =>
          `${outcome.status || 'no answer'} ${visible(outcome.text.slice(0, 200))} ← ${describeRequest(outcome.request)}`,
      );
    expect(failures, listed(failures)).to.have.length(0);
  });

  it('answers every refusal with JSON holding a string error and details', () => {
    const failures = outcomes
      .filter((outcome) => outcome.status !== 0 && (outcome.status < 200 || outcome.status > 299))
      .flatMap((outcome) => {
        const problem = errorBodyProblem(outcome);
        return problem
          ? [
              `${outcome.status} ${problem}: ${visible(outcome.text.slice(0, 200))} ← ${describeRequest(outcome.request)}`,
            ]
          : [];
      });
    expect(failures, listed(failures)).to.have.length(0);
  });

  it('stores only rows that obey the rules', () => {
    const sent = requestsByEmail(outcomes);
    const failures = rows.flatMap((row) => {
      const problems = rowProblems(row);
      if (problems.length === 0) return [];
      const shown = { ...row, time_slot: row.time_slot.toISOString(), message: row.message?.slice(0, 120) ?? null };
      const request = sent.get(emailKey(row.email));
      return [
        `${problems.join('; ')}: ${visible(JSON.stringify(shown))}${request ? ` ← ${describeRequest(request)}` : ''}`,
      ];
    });
    expect(failures, listed(failures)).to.have.length(0);
  });

  it('accepts no body with an extra member (docs/api.md: no key is dropped in silence)', () => {
    const extra = outcomes.filter((outcome) => outcome.request.note.includes('extra member'));
    expect(extra.length, 'bodies with an extra member sent').to.be.at.least(20);
    const failures = extra
      .filter((outcome) => outcome.status >= 200 && outcome.status <= 299)
      .map((outcome) => `${outcome.status} ← ${describeRequest(outcome.request)}`);
    expect(failures, listed(failures)).to.have.length(0);
  });

  it('stores a good share of the valid bodies', () => {
    expect(rows.length, 'rows stored').to.be.at.least(MIN_STORED_ROWS);
    const checked = outcomes.filter((outcome) => outcome.request.endpoint === 'email' && outcome.status === 200);
    expect(checked.length, 'e-mail checks answered').to.be.at.least(50);
  });

  it('stores none of the requests whose honeypot is filled', () => {
    const failures = rows.filter((row) => honeypotEmails.has(row.email)).map((row) => `${row.email} (${row.id})`);
    expect(failures, `${HONEYPOT_FIELD} was filled, yet stored: ${listed(failures)}`).to.have.length(0);
  });

  it('leaves Object.prototype as it was', () => {
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).to.deep.equal(prototypeBefore);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    expect(({} as Record<string, unknown>).isAdmin).to.equal(undefined);
  });
});
