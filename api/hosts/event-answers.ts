/**
 * What a calendar object says about the events in it beyond their times: each event's UID and every attendee's
 * PARTSTAT, by address (lower case). The API compares them with the bookings the database says the calendar holds
 * (api/hosts/host-answers.ts): a demo's event gone, its host's own attendee DECLINED, or its prospect's answer (a
 * server that processes iMIP writes it into the host's copy).
 */
import ICAL from 'ical.js';

export interface EventAnswers {
  uid: string;
  /** Each attendee's participation status (upper case), by their address without `mailto:`, lower case. */
  partstats: Record<string, string>;
  /** The event's SEQUENCE (0 when absent). */
  sequence: number;
  /** The event's DTSTAMP, when it has one. */
  stamp?: Date;
}

/** The events of one calendar object (a VCALENDAR) with a UID; a recurring event's instances are left out. */
export function eventAnswers(text: string): EventAnswers[] {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const events: EventAnswers[] = [];
  for (const event of calendar.getAllSubcomponents('vevent')) {
    if (event.hasProperty('recurrence-id')) continue;
    const uid = event.getFirstPropertyValue('uid');
    if (typeof uid !== 'string' || uid === '') continue;
    const partstats: Record<string, string> = {};
    for (const attendee of event.getAllProperties('attendee')) {
      const value = attendee.getFirstValue();
      if (typeof value !== 'string') continue;
      const address = value
        .replace(/^mailto:/i, '')
        .trim()
        .toLowerCase();
      const partstat = attendee.getParameter('partstat');
      partstats[address] = typeof partstat === 'string' ? partstat.toUpperCase() : 'NEEDS-ACTION';
    }
    const sequence = Number(event.getFirstPropertyValue('sequence') ?? 0);
    const dtstamp = event.getFirstPropertyValue('dtstamp');
    const stamp = dtstamp instanceof ICAL.Time ? dtstamp.toJSDate() : undefined;
    events.push({
      uid,
      partstats,
      sequence: Number.isInteger(sequence) ? sequence : 0,
      ...(stamp && !Number.isNaN(stamp.getTime()) ? { stamp } : {}),
    });
  }
  return events;
}
