/* global L, topojson */
// Geographic context with no tile server: country outlines and coastlines from Natural Earth
// (the world-atlas package, served by this server), drawn on a canvas under the tracks.

export async function addBasemap(map) {
  map.createPane('basemap');
  map.getPane('basemap').style.zIndex = 150; // under tiles (200) and tracks (400)
  const response = await fetch('/vendor/world-atlas/countries-50m.json');
  if (!response.ok) return;
  const world = await response.json();
  const renderer = L.canvas({ pane: 'basemap', padding: 0.2 });
  L.geoJSON(topojson.feature(world, world.objects.countries), {
    pane: 'basemap',
    renderer,
    interactive: false,
    style: { color: '#8a99a8', weight: 0.7, fillColor: '#f3f0e8', fillOpacity: 1 },
  }).addTo(map);
}
