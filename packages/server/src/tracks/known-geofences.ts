import { parseGeofence, type Geofence } from '@waypost/sdk/internal';

/**
 * The geofences a device was told to monitor, replaying its queued commands in order (addGeofence,
 * addGeofences, removeGeofence, removeGeofences) the way the SDK applies them. Commands are
 * validated when queued, but an old row may predate that: anything unreadable is skipped.
 */
export function geofencesFromCommands(commands: readonly unknown[][]): Geofence[] {
  const known = new Map<string, Geofence>();
  const add = (input: unknown) => {
    try {
      const geofence = parseGeofence(input);
      known.set(geofence.identifier, geofence);
    } catch {
      // not a geofence: nothing to draw
    }
  };
  for (const [name, argument] of commands) {
    if (name === 'addGeofence') add(argument);
    else if (name === 'addGeofences' && Array.isArray(argument)) argument.forEach(add);
    else if (name === 'removeGeofence' && typeof argument === 'string') known.delete(argument);
    else if (name === 'removeGeofences') {
      if (Array.isArray(argument)) argument.forEach((id) => known.delete(String(id)));
      else known.clear();
    }
  }
  return [...known.values()];
}
