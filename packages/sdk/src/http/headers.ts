/**
 * Upload headers, case-insensitively merged: the integrator's `http.headers`, then the SDK's own
 * content type, then the injected Authorization (spec 4.1, 5.2). Later sources win a name clash.
 */
export function mergeHeaders(...sources: Record<string, string>[]): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const source of sources) {
    for (const [name, value] of Object.entries(source)) merged[name.toLowerCase()] = value;
  }
  return merged;
}

export const JSON_CONTENT_TYPE = { 'content-type': 'application/json' } as const;
