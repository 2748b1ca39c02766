// One fixed moment for every screenshot run, so a rerun shows the same "minutes ago", the same
// trip times and the same day whenever it is made (the PNGs then change only when the pages do).
// The server's clock and the page's clock start there together and then tick with real time
// (timers, the live feed and the map's animations keep running as they would).

/** The moment every screenshot's data and clocks are set at (a weekday afternoon in Montreal). */
export const SCREENSHOT_TIME = Date.parse('2026-06-16T18:30:00Z');

const started = Date.now();

/** The server's injected clock (startServer's `now`): SCREENSHOT_TIME plus the time since this run began. */
export const serverNow = () => SCREENSHOT_TIME + (Date.now() - started);

/** Sets the page's Date to the server's clock before any page script runs (Playwright's fake clock). */
export const installPageClock = (page) => page.clock.install({ time: serverNow() });
