// Where a fitted track can be seen. On a phone the sheet covers the map's lower part and the
// playback bar and zoom buttons its top, and a vehicle's label reaches right of its dot: fitted to
// the whole map, the selected track lay under the sheet and its label ran past the screen's edge.
// These insets are the fit's padding, measured from the page as it is drawn (so the dashboard fits
// a picked device last, once the phone's sheet has risen and the playback bar shows).
import { $ } from '../base/dom.js';
import { PHONE_QUERY } from '../base/sheet.js';

/** Room kept between what is fitted and whatever covers the map. */
const GAP = 6;

export interface FitInsets {
  paddingTopLeft: L.PointTuple;
  paddingBottomRight: L.PointTuple;
}

/**
 * The sheet's top once its height settles: read with its transition off, so a sheet that was just
 * expanded takes its new height now (it jumps instead of sliding) and the fit measures the map it leaves.
 */
function settledTop(sheet: HTMLElement): number {
  const saved = sheet.style.transition;
  sheet.style.transition = 'none';
  const top = sheet.getBoundingClientRect().top;
  sheet.style.transition = saved;
  return top;
}

/** The padding that keeps a fit inside the map's uncovered part, with this device's label beside its newest fix. */
export function fitInsets(map: L.Map, deviceId: string): FitInsets | null {
  if (!window.matchMedia(PHONE_QUERY).matches) return null; // beside the map on a wide screen: nothing covers it
  const label = document.querySelector(`.vehicle-label[data-device="${CSS.escape(deviceId)}"]`);
  const area = map.getContainer().getBoundingClientRect();
  let top = 0;
  for (const control of map.getContainer().querySelectorAll('.leaflet-top .leaflet-control')) {
    const box = control.getBoundingClientRect();
    if (box.height > 0) top = Math.max(top, box.bottom - area.top);
  }
  const bottom = Math.max(0, area.bottom - settledTop($('sidebar')));
  // The label sits right of the dot, centred on it: its width to the right, half its height above and below.
  const labelBox = label?.getBoundingClientRect();
  const beside = labelBox && labelBox.width > 0 ? labelBox.right - labelBox.left + 13 : 0;
  const half = labelBox && labelBox.height > 0 ? labelBox.height / 2 : 0;
  // Never more padding than map (Leaflet would zoom out to the world): at least 80 px for the track.
  const right = Math.min(beside + GAP, area.width - 80 - GAP);
  const vertical = Math.max(0, area.height - top - bottom - 2 * (half + GAP));
  if (vertical < 8) return null;
  return { paddingTopLeft: [GAP, top + half + GAP], paddingBottomRight: [right, bottom + half + GAP] };
}
