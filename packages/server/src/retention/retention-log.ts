/** Log codes of retention (issue 33). */
export const RETENTION_REMOVED = 'RETENTION_REMOVED';
export const RETENTION_FAILED = 'RETENTION_FAILED';
