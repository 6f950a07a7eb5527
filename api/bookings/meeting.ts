/**
 * Each booking's video room: MEETING_URL_TEMPLATE with `{room}` replaced by a name nobody can guess (20 characters
 * of base32, 100 bits), or the name appended when the template has no `{room}`. Made once, when the demo is booked,
 * and kept across moves.
 */
import { randomBytes } from 'node:crypto';
import { ConfigError } from '../../server-shared/settings.js';

/** Jitsi Meet: a room exists as soon as someone opens its address. */
export const DEFAULT_MEETING_URL_TEMPLATE = 'https://meet.jit.si/ConvergeDemo-{room}';

const ROOM_PLACEHOLDER = '{room}';
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

function roomName(): string {
  const bytes = randomBytes(20);
  let name = '';
  // 20 bytes, 5 bits of each: 100 bits of chance, letters and digits only (room names keep to those everywhere).
  for (const byte of bytes) name += BASE32[byte & 31];
  return name;
}

export function meetingUrlOf(template: string): string {
  return template.includes(ROOM_PLACEHOLDER)
    ? template.replace(ROOM_PLACEHOLDER, roomName())
    : `${template}${roomName()}`;
}

/** MEETING_URL_TEMPLATE checked at start: an https:// address (http:// only for a host on this machine). */
export function parseMeetingUrlTemplate(value: string | undefined): string {
  if (value === undefined || value === '') return DEFAULT_MEETING_URL_TEMPLATE;
  let url: URL;
  try {
    url = new URL(meetingUrlOf(value));
  } catch {
    throw new ConfigError(
      `MEETING_URL_TEMPLATE must be an address such as ${DEFAULT_MEETING_URL_TEMPLATE}; got "${value}"`,
    );
  }
  const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) {
    throw new ConfigError(`MEETING_URL_TEMPLATE must start with https:// (http:// only for localhost); got "${value}"`);
  }
  return value;
}
