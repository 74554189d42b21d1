interface Entry<V> {
  value: V;
  weight: number;
  /** When the entry last moved to the young end; the map keeps entries in this order. */
  stamp: number;
}

/**
 * A map that forgets its least recently used entries once their total weight passes a budget.
 * A hit on an entry in the younger half costs one lookup: only entries drifting towards the old
 * end move back, so hot entries (most of an edge's traffic) are never reordered.
 */
export class LruCache<K, V> {
  private readonly entries = new Map<K, Entry<V>>();
  private total = 0;
  private clock = 0;

  constructor(
    private readonly budget: number,
    private readonly weigh: (value: V) => number = () => 1,
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.clock - entry.stamp > this.entries.size / 2) {
      this.entries.delete(key);
      entry.stamp = ++this.clock;
      this.entries.set(key, entry);
    }
    return entry.value;
  }

  set(key: K, value: V) {
    const weight = this.weigh(value);
    if (weight > this.budget) return;
    this.delete(key);
    this.entries.set(key, { value, weight, stamp: ++this.clock });
    this.total += weight;
    for (const [oldest, entry] of this.entries) {
      if (this.total <= this.budget) break;
      this.entries.delete(oldest);
      this.total -= entry.weight;
    }
  }

  delete(key: K) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.weight;
  }

  clear() {
    this.entries.clear();
    this.total = 0;
  }
}
