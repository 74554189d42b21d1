import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import ipaddr from 'ipaddr.js';
import type { Counters } from './counters.ts';

/** The wait before an attempt doubles with each failure of its address or name, from this… */
const FIRST_DELAY_MS = 50;
/** …up to this: the longest a person who knows the password waits, whatever others tried. */
const MAX_DELAY_MS = 3_000;
/** Failures are forgotten after this long without another one. */
const FORGET_AFTER_MS = 15 * 60_000;
/**
 * Attempts waiting from one address at once. A person makes one at a time; more than this is a
 * flood from that address, whose extra attempts are refused unchecked rather than held in memory.
 */
const MAX_WAITING_PER_ADDRESS = 10;
/** Attempts waiting in all: past this the server is flooded, and refuses rather than hold more. */
const MAX_WAITING = 2_000;
/** Addresses and names remembered (each some 200 bytes); the least recently seen go first. */
const MAX_KEYS = 20_000;

export type Outcome = 'right' | 'wrong' | 'busy';

interface Penalty {
  /** Where the book keeps it, and the counters count its failures: a digest of the address or name. */
  key: string;
  /** Attempts queued or under way on this key, in this process. */
  waiting: number;
  /** Settles when the latest attempt from this address has its answer: the next one starts after it. */
  tail: Promise<void>;
}

const delayOf = (failures: number) =>
  failures === 0 ? 0 : Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (failures - 1));

/**
 * The part of an address one client has to itself: an IPv6 host usually picks its addresses from
 * a whole /64, so its failures count against the /64.
 */
function clientOfAddress(address: string) {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${parsed.toNormalizedString().split(':').slice(0, 4).join(':')}::/64`;
}

/** The attempts waiting on each key of one kind (addresses, or user names), in bounded memory. */
class PenaltyBook {
  /** Oldest first: a key moves to the end whenever it is used. */
  private readonly penalties = new Map<string, Penalty>();

  take(addressOrName: string): Penalty {
    // A name can be as long as a request body: remember a digest of it.
    const key = createHash('sha256').update(addressOrName).digest('base64url');
    let penalty = this.penalties.get(key);
    if (penalty) this.penalties.delete(key);
    else penalty = { key, waiting: 0, tail: Promise.resolve() };
    this.penalties.set(key, penalty);
    if (this.penalties.size > MAX_KEYS) this.forgetOldest();
    return penalty;
  }

  /** Drops a key no attempt waits on any more (its failures are the counters'). */
  release(penalty: Penalty) {
    if (penalty.waiting > 0) return;
    if (this.penalties.get(penalty.key) === penalty) this.penalties.delete(penalty.key);
  }

  /** A flood of new keys pushes out the idle ones seen least recently, never attempts under way. */
  private forgetOldest() {
    for (const [key, penalty] of this.penalties) {
      if (this.penalties.size <= MAX_KEYS) return;
      if (penalty.waiting === 0) this.penalties.delete(key);
    }
  }
}

/**
 * Makes guessing passwords slow without ever locking out the person who knows theirs. Before an
 * attempt is checked it waits out a delay that doubles with each recent failure of its address
 * and of its name, up to MAX_DELAY_MS. Attempts from one address are checked one after another,
 * so guesses it sends in parallel queue behind each other's delays instead of sharing one. Those
 * on one name are not queued: guesses from many addresses must not make its owner wait behind
 * them. So the right password, from another address, waits at most MAX_DELAY_MS, then gets in.
 */
export class GuessThrottle {
  private readonly addresses = new PenaltyBook();
  private readonly names = new PenaltyBook();
  private waiting = 0;

  /** `counters` keep the failures: shared by every process of the installation when they are Redis's. */
  constructor(
    private readonly counters: Counters,
    /** Keeps these failures apart from another throttle's (sign-ins, site passwords). */
    private readonly name: string,
  ) {}

  private failuresOf(kind: 'address' | 'name', penalty: Penalty) {
    return this.counters.read(`${this.name}:${kind}:${penalty.key}`);
  }

  /**
   * Runs `check` in its turn and answers whether it was right, or `busy` without running it when
   * too many attempts already wait from the address (or in all). A right answer clears the name's
   * failures but not the address's: signing in to one's own account must not excuse guesses at
   * others from the same place.
   */
  async attempt(address: string, name: string, check: () => Promise<boolean>): Promise<Outcome> {
    const byAddress = this.addresses.take(clientOfAddress(address));
    const byName = this.names.take(name);
    if (byAddress.waiting >= MAX_WAITING_PER_ADDRESS || this.waiting >= MAX_WAITING) {
      this.release(byAddress, byName);
      return 'busy';
    }
    this.waiting += 1;
    byAddress.waiting += 1;
    byName.waiting += 1;
    const earlier = byAddress.tail;
    let answered = () => {};
    byAddress.tail = new Promise<void>((resolve) => {
      answered = resolve;
    });
    try {
      await earlier;
      const [addressFailures, nameFailures] = await Promise.all([
        this.failuresOf('address', byAddress),
        this.failuresOf('name', byName),
      ]);
      const delay = Math.max(delayOf(addressFailures), delayOf(nameFailures));
      if (delay > 0) await sleep(delay);
      if (await check()) {
        await this.counters.clear(`${this.name}:name:${byName.key}`);
        return 'right';
      }
      // Forgotten FORGET_AFTER_MS after the latest failure.
      await Promise.all([
        this.counters.add(`${this.name}:address:${byAddress.key}`, FORGET_AFTER_MS, true),
        this.counters.add(`${this.name}:name:${byName.key}`, FORGET_AFTER_MS, true),
      ]);
      return 'wrong';
    } finally {
      this.waiting -= 1;
      byAddress.waiting -= 1;
      byName.waiting -= 1;
      answered();
      this.release(byAddress, byName);
    }
  }

  private release(byAddress: Penalty, byName: Penalty) {
    this.addresses.release(byAddress);
    this.names.release(byName);
  }
}
