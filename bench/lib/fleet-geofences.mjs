// The geofences of bench/fleet-events.mjs (and of bench/lib/fleet-one-round.mjs).
/**
 * Ten 300 m circles: one beside the bench records' path (which runs 48..48.1, 11..11.1 along its
 * diagonal; about 3 % of the positions are inside it, so a few records in a hundred cross it), nine
 * further off, as a fleet's depots are. Every record is evaluated against all ten. (Circles centred
 * on the path itself would put a record in or out of one at almost every step: then every record
 * makes an event, which is what forwarding every record costs, reported apart.)
 */
export const GEOFENCES = Array.from({ length: 10 }, (_, i) => ({
  identifier: `zone-${i}`,
  latitude: i === 0 ? 48.05 : 48.3 + i / 100,
  longitude: i === 0 ? 11.0535 : 11.3 + i / 100,
  radius: 300,
  loiteringDelay: 60_000,
}));
