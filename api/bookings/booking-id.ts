/**
 * A new booking's id, made by the API before the booking is stored (its links are made from it). Time-ordered: UUID
 * version 7 (RFC 9562), as the database makes the ids of the other rows that grow with the bookings
 * (time_ordered_uuid(), migrations/20261203100000_time_ordered_ids.ts), so that a new booking's id goes to the end of
 * the primary key's index, next to the last minutes' bookings, instead of to a page of its own anywhere in it.
 * Still unguessable: 74 of its bits are random, and the links carry it encrypted (server-shared/booking-link.ts).
 */
import { v7 } from 'uuid';

export const newBookingId = (): string => v7();
