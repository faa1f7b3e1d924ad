// Values worked out once per key and kept: parsed endpoint URLs, decoded secrets, the SSRF checks of address
// URLs — pure functions of their key, needed again for every message. At most `max` are kept; when full, all
// are dropped (the keys in use are the few endpoints sending now, so refilling is cheap, and no per-read
// bookkeeping is needed as an LRU would).
export class BoundedCache<T> {
  private readonly values = new Map<string, T>();

  constructor(private readonly max = 1024) {}

  get(key: string): T | undefined {
    return this.values.get(key);
  }

  set(key: string, value: T): T {
    if (this.values.size >= this.max) this.values.clear();
    this.values.set(key, value);
    return value;
  }
}
