import { expect } from 'chai';

/** A UUID of version 7 (RFC 9562) and variant 10. */
const VERSION_7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The time a time-ordered id carries (its first 48 bits, Unix milliseconds), once it is checked to be one. */
export function timeOfTimeOrderedId(id: string): number {
  expect(id).to.match(VERSION_7);
  return parseInt(id.replace(/-/g, '').slice(0, 12), 16);
}
