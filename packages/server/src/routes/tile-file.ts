/** A local tile file the server serves at /tiles/{z}/{x}/{y}: MBTiles (mbtiles.ts) or PMTiles (pmtiles-file.ts). */
export interface TileFile {
  type: string;
  /** Vector tiles: the dashboard draws them with its built-in style (routes/local-style.ts). */
  vector: boolean;
  /** The deepest zoom the file holds (metadata maxzoom); MapLibre overzooms past it. */
  maxzoom: number;
  tile(z: number, x: number, y: number): Buffer | null | Promise<Buffer | null>;
  close(): void;
}
