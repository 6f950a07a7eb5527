/**
 * What a client the honeypot caught is shown in the slot list: for an hour after a catch, the slots its network's
 * catches took are shown to that network as they would be had the catches been bookings (one place fewer, their host
 * gone), so the bot learns nothing from the list; every other network sees the bookings alone. The hot path stays as
 * it was for everyone else: which networks were caught in the hour is kept for a moment per process, as the slots'
 * counts are (slot-counts.ts), and only a request from one of them asks the database what it took.
 */
import { SLOT_COUNTS_TTL_MS } from './slot-counts.js';

/** A slot a catch took, and the host it was given (null without a team). */
export interface TrappedSlot {
  timeSlot: Date;
  hostEmail: string | null;
}

export interface TrappedSlots {
  /** What the network's catches of the last hour took, from `from` to `to`; none for a network not caught. */
  of(network: string, from: Date, to: Date): Promise<readonly TrappedSlot[]>;
  /** Called after a catch stored by this process: its network is shown it at once. */
  changed(): void;
}

/**
 * `networks` reads which networks were caught in the last hour (networksTrappedRecently), `taken` what one of them
 * took (trappedByNetwork). Another API process's catches show within `ttlMs`, as its bookings do.
 */
export function createTrappedSlots(
  networks: () => Promise<ReadonlySet<string>>,
  taken: (network: string, from: Date, to: Date) => Promise<readonly TrappedSlot[]>,
  ttlMs = SLOT_COUNTS_TTL_MS,
  now: () => number = Date.now,
): TrappedSlots {
  let kept: { at: number; networks: Promise<ReadonlySet<string>> } | undefined;
  // Bumped by every catch: a read that began before one is not kept after it.
  let generation = 0;
  const caught = () => {
    const at = now();
    if (kept && at - kept.at < ttlMs) return kept.networks;
    const started = generation;
    const entry = { at, networks: networks() };
    kept = entry;
    entry.networks.then(
      () => {
        if (generation !== started && kept === entry) kept = undefined;
      },
      // A failed read is not kept: the next request asks again.
      () => {
        if (kept === entry) kept = undefined;
      },
    );
    return entry.networks;
  };
  return {
    async of(network, from, to) {
      if (!(await caught()).has(network)) return [];
      return taken(network, from, to);
    },
    changed() {
      generation += 1;
      kept = undefined;
    },
  };
}
