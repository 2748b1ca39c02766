/** Records a read returns by default, and at most (limit=). */
export const DEFAULT_EXPORT_LIMIT = 1000;
export const MAX_EXPORT_LIMIT = 100_000;
