// Where the maker was in the issue list when they opened an issue (how many issues were shown and
// how far down the page), kept per history entry so Back returns to the same place.
const KEY = 'layerfix:issue-list-place';

export interface ListPlace {
  shown: number;
  scrollY: number;
}

type Places = Record<string, ListPlace>;

function read(): Places {
  try {
    const v: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? '{}');
    return v && typeof v === 'object' ? (v as Places) : {};
  } catch {
    return {};
  }
}

/** Remembers the place of the list shown at history entry `entry`; the newest 20 entries are kept. */
export function rememberListPlace(entry: string, place: ListPlace): void {
  const places = read();
  delete places[entry];
  places[entry] = { shown: Math.max(0, Math.floor(place.shown)), scrollY: Math.max(0, Math.round(place.scrollY)) };
  const kept = Object.fromEntries(Object.entries(places).slice(-20));
  try {
    sessionStorage.setItem(KEY, JSON.stringify(kept));
  } catch {
    // Storage full or off: Back opens the list at its top.
  }
}

/** The place remembered for history entry `entry`, if any. */
export function listPlace(entry: string): ListPlace | null {
  const p = read()[entry];
  return p && Number.isFinite(p.shown) && Number.isFinite(p.scrollY) ? p : null;
}
