import { positive, ServerOptionError } from '../option-checks.js';

/** startServer()'s bounds on live feeds, GET /api/events (issue 45). */
export interface LiveFeedServerOptions {
  /** Live feeds one user (or the admin token) holds open at once per process; default 10. */
  liveFeedsPerUser?: number;
  /** Live feeds one client address holds open at once per process; default 20. */
  liveFeedsPerAddress?: number;
  /** The share of maxConnections live feeds may take in all; default 0.5 (the rest is the devices'). */
  liveFeedsShare?: number;
}

export interface LiveFeedLimits {
  perUser: number;
  perAddress: number;
  /** Live feeds open at once in this process, all readers together. */
  total: number;
}

export const LIVE_FEED_DEFAULTS = { liveFeedsPerUser: 10, liveFeedsPerAddress: 20, liveFeedsShare: 0.5 } as const;

export function liveFeedLimitsOf(options: LiveFeedServerOptions, maxConnections: number): LiveFeedLimits {
  const share = options.liveFeedsShare ?? LIVE_FEED_DEFAULTS.liveFeedsShare;
  if (typeof share !== 'number' || !(share > 0 && share < 1))
    throw new ServerOptionError('liveFeedsShare', `must be a fraction between 0 and 1 (exclusive), got ${share}`);
  return {
    perUser: positive('liveFeedsPerUser', options.liveFeedsPerUser, LIVE_FEED_DEFAULTS.liveFeedsPerUser),
    perAddress: positive('liveFeedsPerAddress', options.liveFeedsPerAddress, LIVE_FEED_DEFAULTS.liveFeedsPerAddress),
    total: Math.max(1, Math.floor(maxConnections * share)),
  };
}

/** Why a live feed was not opened: answered before anything is streamed. */
export interface FeedRefusal {
  status: 429 | 503;
  code: 'LIVE_FEEDS_PER_USER' | 'LIVE_FEEDS_PER_ADDRESS' | 'LIVE_FEEDS_FULL';
  message: string;
}

/** Feeds open now: per reader (a user's name, or the admin), per client address, and in all. */
export interface OpenFeeds {
  byReader: ReadonlyMap<string, number>;
  byAddress: ReadonlyMap<string, number>;
  total: number;
}

/**
 * Whether one more feed may open. The total is checked first: when the server's share is used up
 * no reader gets one (503, try later), whoever they are; then the reader's and the address's own
 * bounds (429: close one of yours), so one viewer cannot take the connections devices need.
 */
export function refusalOf(
  open: OpenFeeds,
  limits: LiveFeedLimits,
  reader: string,
  address: string,
): FeedRefusal | null {
  if (open.total >= limits.total)
    return {
      status: 503,
      code: 'LIVE_FEEDS_FULL',
      message: `This server has ${limits.total} live feeds open, its most: try again later`,
    };
  if ((open.byReader.get(reader) ?? 0) >= limits.perUser)
    return {
      status: 429,
      code: 'LIVE_FEEDS_PER_USER',
      message: `You have ${limits.perUser} live feeds open, the most one user may: close a dashboard tab`,
    };
  if ((open.byAddress.get(address) ?? 0) >= limits.perAddress)
    return {
      status: 429,
      code: 'LIVE_FEEDS_PER_ADDRESS',
      message: `Your address has ${limits.perAddress} live feeds open, the most one address may`,
    };
  return null;
}

/** This process's open feeds: `take` opens one (or says why not); its release closes it once. */
export function createFeedBounds(limits: LiveFeedLimits) {
  const byReader = new Map<string, number>();
  const byAddress = new Map<string, number>();
  const open = { byReader, byAddress, total: 0 };
  const move = (map: Map<string, number>, key: string, by: number) => {
    const next = (map.get(key) ?? 0) + by;
    if (next > 0) map.set(key, next);
    else map.delete(key);
  };
  return {
    take(reader: string, address: string): { refused: FeedRefusal } | { release: () => void } {
      const refused = refusalOf(open, limits, reader, address);
      if (refused) return { refused };
      move(byReader, reader, 1);
      move(byAddress, address, 1);
      open.total += 1;
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          move(byReader, reader, -1);
          move(byAddress, address, -1);
          open.total -= 1;
        },
      };
    },
  };
}
