import type { JsonObject, JsonValue } from '../config/types.js';
import type { Location } from './location.js';
import type { CompiledTemplate, TemplateContext } from './template.js';

function templateContext(location: Location): TemplateContext {
  const c = location.coords;
  return {
    latitude: c.latitude,
    longitude: c.longitude,
    speed: c.speed,
    heading: c.heading,
    accuracy: c.accuracy,
    altitude: c.altitude,
    altitude_accuracy: c.altitude_accuracy,
    timestamp: location.timestamp,
    uuid: location.uuid,
    event: location.event ?? '',
    odometer: location.odometer,
    sequence: location.sequence ?? 0,
    sequence_epoch: location.sequence_epoch ?? '',
    is_moving: location.is_moving,
    mock: location.mock ?? false,
    'activity.type': location.activity.type,
    'activity.confidence': location.activity.confidence,
    'battery.level': location.battery.level,
    'battery.is_charging': location.battery.is_charging,
    'geofence.identifier': location.geofence?.identifier ?? '',
    'geofence.action': location.geofence?.action ?? '',
  };
}

/**
 * Renders a record to the JSON text that is stored and later uploaded byte for byte: the default
 * schema with `persistence.extras` merged under `extras`, or the template's output.
 */
export function renderRecord(location: Location, extras: JsonObject, template: CompiledTemplate | null): string {
  if (template) {
    // A template has no tag for extras: the geofence's own extras join the others, or they would be lost.
    const merged: JsonObject = { ...extras, ...location.extras, ...location.geofence?.extras };
    return JSON.stringify(template.render(templateContext(location), merged as Record<string, JsonValue>));
  }
  const record: Location = { ...location, extras: { ...extras, ...location.extras } };
  return JSON.stringify(record);
}
