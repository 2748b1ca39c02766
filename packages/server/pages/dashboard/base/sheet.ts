// On a phone the map comes first and the lists live in a sheet over its lower part: the sheet
// peeks (the device list's top) and expands with its handle. The selected device's details, its
// records and the command form move into the sheet there, and back beside the map (the inspector
// column and the records panel) on a wide screen; the map is told its new size each time.
import { $ } from './dom.js';

export const PHONE_QUERY = '(max-width: 720px)';

export function setUpSheet(map: L.Map): void {
  const phone = window.matchMedia(PHONE_QUERY);
  const sidebar = $('sidebar');
  const toggle = $('sheet-toggle');
  const place = () => {
    if (phone.matches) sidebar.append($('details'), $('records-panel'), $('command-form'));
    else {
      $('main').append($('records-panel'));
      $('inspector').append($('details'), $('command-form'));
    }
    map.invalidateSize();
  };
  toggle.addEventListener('click', () => {
    const expanded = sidebar.classList.toggle('expanded');
    toggle.setAttribute('aria-expanded', String(expanded));
    toggle.textContent = expanded ? 'Show the map' : 'Devices and details';
  });
  // Picking a device on a phone shows its details in the sheet.
  document.addEventListener('waypost:select', () => {
    if (phone.matches && !sidebar.classList.contains('expanded')) toggle.click();
  });
  // Playing a trip back shows the map: the sheet goes down to its peek.
  document.addEventListener('waypost:play', () => {
    if (phone.matches && sidebar.classList.contains('expanded')) toggle.click();
  });
  phone.addEventListener('change', place);
  place();
}
