import type { KeyValueStore } from '../ports/store.js';

/** Upload URLs remembered per feature at most (the newest): a device changes its URL rarely. */
const MAX_URLS = 16;

/**
 * The upload URLs whose server offers one feature (receipts, the health report), said in an answer
 * header and kept in the store's kv under the feature's own key, so they hold across restarts. A
 * device that only remembered an offer in memory sent the first upload of every start (an agent's
 * restart, an app's cold start) without what the server had asked for: no receipt and no claim,
 * no health report (a device back after a restart could not explain its silence).
 *
 * A 2xx without the offer withdraws it (another server answers at that URL now: it sees nothing
 * new), so a URL that stops offering gets at most one request with the feature. Any other answer
 * without it (an error page, a proxy's 502) changes nothing. The kv is read once, on first use,
 * and written only when the set changes.
 */
export class ServerOffers {
  private urls: Set<string> | null = null;

  constructor(
    private readonly kv: KeyValueStore,
    /** The kv key of this feature's URLs (e.g. `receipts.offers`). */
    private readonly key: string,
  ) {}

  /**
   * Whether `url`'s server offers the feature, as last heard (in this run or an earlier one): a
   * promise only until the kv has been read, so an upload asks it with no microtask.
   */
  has(url: string): boolean | Promise<boolean> {
    return this.urls !== null ? this.urls.has(url) : this.load().then((urls) => urls.has(url));
  }

  /**
   * What an answer of `url` said: `offering` when it carried the offer, with its HTTP status. A
   * promise only when the kv is read or written (undefined: the answer changed nothing).
   */
  heard(url: string, status: number, offering: boolean): Promise<void> | undefined {
    if (this.urls === null) return this.load().then(() => this.heard(url, status, offering));
    const urls = this.urls;
    const withdrawn = !offering && status >= 200 && status < 300;
    if (offering ? urls.has(url) : !withdrawn || !urls.has(url)) return undefined;
    if (offering) urls.add(url);
    else urls.delete(url);
    return this.kv.set(this.key, JSON.stringify([...urls].slice(-MAX_URLS)));
  }

  private async load(): Promise<Set<string>> {
    if (this.urls === null) {
      let stored: unknown = [];
      try {
        stored = JSON.parse((await this.kv.get(this.key)) ?? '[]');
      } catch {
        // Unreadable: offers are learned again from the next answers.
      }
      this.urls ??= new Set(Array.isArray(stored) ? stored.filter((u): u is string => typeof u === 'string') : []);
    }
    return this.urls;
  }
}
