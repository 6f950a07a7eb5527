/** The bench's requests' bodies: a new person, company and slot each booking, a new address each e-mail check. */
import { availableSlots, calendarDayOf } from '../../domain/booking.js';

/** Every slot the rules offer in the coming weeks, from tomorrow on (later than any notice). */
export function futureSlots(): string[] {
  const now = new Date();
  const slots: string[] = [];
  for (let day = 1; day <= 35; day += 1) {
    for (const slot of availableSlots(
      calendarDayOf(new Date(now.getTime() + day * 86_400_000), 'Europe/Berlin'),
      now,
      'Europe/Berlin',
    ))
      slots.push(slot.iso);
  }
  return slots;
}

/** Bookings made so far by this run: every body is a new person, whichever run sends it. */
let sent = 0;

/** New people, companies and slots for each request, so no guard refuses one. */
export function bookingBodies(slots: readonly string[], run: string) {
  return () => {
    const i = sent;
    sent += 1;
    return JSON.stringify({
      name: `Bench Prospect ${i}`,
      email: `bench${i}.${run}@northwind-${i % 97}.io`,
      company: `Northwind ${i % 97}`,
      timeSlot: slots[i % slots.length],
      ...(i % 3 === 0 ? { message: 'We send a few million SMS a month and want WhatsApp next to it.' } : {}),
    });
  };
}

/** A new address for each e-mail check. */
export function emailBodies(run: string) {
  let i = 0;
  return () => {
    i += 1;
    return JSON.stringify({ email: `visitor${i}.${run}@northwind-${i % 97}.io` });
  };
}
