/**
 * The token in a booking's links: opaque (the booking's id, encrypted) and unforgeable (a MAC over it), both keyed
 * from BOOKING_LINK_SECRET. Without the secret no token can be made, read or altered into another booking's. The
 * texts carry a shorter link of their own (/m/{code}), keyed from the same secret, which the database knows only by
 * its digest (sms_links).
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

const ID_BYTES = 16;
const MAC_BYTES = 16;
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Keys {
  encryption: Buffer;
  mac: Buffer;
  smsLink: Buffer;
}

const keysBySecret = new Map<string, Keys>();

function keysFor(secret: string): Keys {
  let keys = keysBySecret.get(secret);
  if (!keys) {
    const derive = (purpose: string) => Buffer.from(hkdfSync('sha256', secret, 'converge booking link', purpose, 32));
    keys = { encryption: derive('encryption'), mac: derive('mac'), smsLink: derive('sms link') };
    keysBySecret.set(secret, keys);
  }
  return keys;
}

/** One AES block, the id's 16 bytes: a fixed-size value needs no mode beyond the block cipher itself. */
function cipherBlock(keys: Keys, block: Buffer, direction: 'encrypt' | 'decrypt'): Buffer {
  const cipher =
    direction === 'encrypt'
      ? createCipheriv('aes-256-ecb', keys.encryption, null)
      : createDecipheriv('aes-256-ecb', keys.encryption, null);
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(block), cipher.final()]);
}

function macOf(keys: Keys, sealed: Buffer): Buffer {
  return createHmac('sha256', keys.mac).update(sealed).digest().subarray(0, MAC_BYTES);
}

/** The token for a booking (its id is a UUID). */
export function bookingToken(bookingId: string, secret: string): string {
  if (!UUID_PATTERN.test(bookingId)) throw new Error('a booking id is a UUID');
  const keys = keysFor(secret);
  const sealed = cipherBlock(keys, Buffer.from(bookingId.replace(/-/g, ''), 'hex'), 'encrypt');
  return Buffer.concat([sealed, macOf(keys, sealed)]).toString('base64url');
}

/**
 * The booking id a token was made for, or undefined for anything altered, truncated or made with another secret.
 * `previousSecrets` are those of before a rotation: a link from an e-mail sent then still opens its booking.
 */
export function bookingIdOf(
  token: string,
  secret: string,
  previousSecrets: readonly string[] = [],
): string | undefined {
  if (!TOKEN_PATTERN.test(token)) return undefined;
  const bytes = Buffer.from(token, 'base64url');
  // The last character carries two spare bits: only the one spelling of the bytes is a token.
  if (bytes.length !== ID_BYTES + MAC_BYTES || bytes.toString('base64url') !== token) return undefined;
  const sealed = bytes.subarray(0, ID_BYTES);
  for (const candidate of [secret, ...previousSecrets]) {
    const keys = keysFor(candidate);
    if (!timingSafeEqual(bytes.subarray(ID_BYTES), macOf(keys, sealed))) continue;
    const hex = cipherBlock(keys, sealed, 'decrypt').toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
  return undefined;
}

/** The path of a booking's calendar event on the site, behind its token: the same in the e-mail and the 201 answer. */
export function invitePathOf(bookingId: string, secret: string): string {
  return `/api/bookings/${bookingToken(bookingId, secret)}/invite.ics`;
}

/** The path of a booking's own page on the site (reschedule, cancel), as every e-mail to the prospect links it. */
export function managePathOf(bookingId: string, secret: string): string {
  return `/booking/${bookingToken(bookingId, secret)}`;
}

/** A text's short link code: base64url, as many characters as its bytes take. */
export const SMS_LINK_CODE_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/**
 * The code of a booking's short link in its texts: a MAC of its id, so that the worker writes it as it writes the
 * manage link, from the id and the secret alone.
 */
export function smsLinkCode(bookingId: string, secret: string): string {
  // As many bits as the manage link's own MAC: a code is no easier to guess than the long link it stands for.
  return createHmac('sha256', keysFor(secret).smsLink)
    .update(bookingId)
    .digest()
    .subarray(0, MAC_BYTES)
    .toString('base64url');
}

/** The path of a short link, which answers with a redirect to its booking's manage page (api/bookings/sms-link.ts). */
export function smsLinkPath(code: string): string {
  return `/m/${code}`;
}

/** What the database keeps of a code (sms_links.digest): reading the table opens no booking's page. */
export function smsLinkDigest(code: string): string {
  return createHash('sha256').update(code).digest('base64url');
}
