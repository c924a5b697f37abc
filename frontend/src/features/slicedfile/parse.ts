// Reading print settings from the file a slicer wrote, entirely in the browser: only the head and
// the tail of a G-code file are read (File.slice), and only the settings entries of a 3MF archive
// are unzipped, so a 100 MB file is never uploaded or read whole.
//
// Formats, as the slicers write them:
// - PrusaSlicer, SuperSlicer, OrcaSlicer and Bambu Studio G-code: "; key = value" lines (a config
//   block at the end for Prusa/Super/Orca, between "; CONFIG_BLOCK_START/END" near the top for
//   Bambu), e.g. "; temperature = 215", "; nozzle_temperature = 220,220", "; fill_density = 15%".
// - Cura G-code: header comments (";TARGET_MACHINE.NAME:Creality Ender-3",
//   ";EXTRUDER_TRAIN.0.INITIAL_TEMPERATURE:200", ";Layer height: 0.2") and the ";SETTING_3 " lines
//   at the end, a JSON string holding the profile as INI text ("layer_height = 0.2").
// - 3MF: a ZIP; PrusaSlicer/SuperSlicer keep "; key = value" lines in Metadata/Slic3r_PE.config,
//   OrcaSlicer/Bambu Studio a JSON object (values as strings or lists of strings) in
//   Metadata/project_settings.config, Cura an INI profile in Cura/*.cfg.

export type Slicer = 'PrusaSlicer' | 'SuperSlicer' | 'OrcaSlicer' | 'Bambu Studio' | 'Cura' | 'unknown';

/** The settings the analysis can use, in the product's units (°C, mm, mm/s, %, mm/s²). */
export interface SlicerSettings {
  slicer: Slicer;
  printerModel?: string;
  material?: string;
  nozzleTemp?: number;
  bedTemp?: number;
  layerHeight?: number;
  printSpeed?: number;
  infill?: number;
  nozzleDiameter?: number;
  retractionLength?: number;
  retractionSpeed?: number;
  firstLayerHeight?: number;
  firstLayerSpeed?: number;
  fanSpeed?: number;
  pressureAdvance?: number;
  wallSpeed?: number;
  travelSpeed?: number;
  acceleration?: number;
}

export const HEAD_BYTES = 256 * 1024;
export const TAIL_BYTES = 1024 * 1024;
const MAX_ENTRY_BYTES = 8 * 1024 * 1024; // an unzipped settings entry; more is not a settings file

export class SlicedFileError extends Error {}

/** The first number of a value: "215", "220,220", "15%", "[\"0.4\"]", "0.2mm". */
function num(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const m = /-?\d+(?:\.\d+)?/.exec(v);
  if (!m) return undefined;
  const n = Number(m[0]);
  return Number.isFinite(n) ? n : undefined;
}

function text(v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  const s = v
    .replace(/^\[|\]$/g, '')
    .split(/[;,]/)[0]
    .replace(/^"|"$/g, '')
    .trim();
  return s === '' || s === 'nil' ? undefined : s.slice(0, 100);
}

// Each setting and the keys the slicers use for it, first match wins.
const KEYS: Record<Exclude<keyof SlicerSettings, 'slicer'>, string[]> = {
  printerModel: ['printer_model', 'printer_settings_id', 'machine_name', 'printer_name', 'TARGET_MACHINE.NAME'],
  material: ['filament_type', 'material_type', 'EXTRUDER_TRAIN.0.MATERIAL.TYPE', 'material'],
  nozzleTemp: ['temperature', 'nozzle_temperature', 'material_print_temperature', 'EXTRUDER_TRAIN.0.INITIAL_TEMPERATURE', 'first_layer_temperature', 'nozzle_temperature_initial_layer'],
  bedTemp: ['bed_temperature', 'hot_plate_temp', 'textured_plate_temp', 'material_bed_temperature', 'BUILD_PLATE.INITIAL_TEMPERATURE', 'first_layer_bed_temperature'],
  layerHeight: ['layer_height', 'Layer height'],
  printSpeed: ['perimeter_speed', 'outer_wall_speed', 'speed_print', 'inner_wall_speed', 'infill_speed', 'sparse_infill_speed'],
  infill: ['fill_density', 'sparse_infill_density', 'infill_sparse_density'],
  nozzleDiameter: ['nozzle_diameter', 'machine_nozzle_size', 'EXTRUDER_TRAIN.0.NOZZLE.DIAMETER'],
  retractionLength: ['retract_length', 'retraction_length', 'retraction_amount'],
  retractionSpeed: ['retract_speed', 'retraction_speed', 'retraction_retract_speed'],
  firstLayerHeight: ['first_layer_height', 'initial_layer_print_height', 'layer_height_0'],
  firstLayerSpeed: ['first_layer_speed', 'initial_layer_speed', 'speed_layer_0'],
  fanSpeed: ['max_fan_speed', 'fan_max_speed', 'cool_fan_speed_max', 'cool_fan_speed'],
  pressureAdvance: ['pressure_advance', 'linear_advance', 'material_linear_advance_factor'],
  wallSpeed: ['external_perimeter_speed', 'outer_wall_speed', 'speed_wall_0'],
  travelSpeed: ['travel_speed', 'speed_travel'],
  acceleration: ['default_acceleration', 'outer_wall_acceleration', 'acceleration_print', 'machine_acceleration'],
};

const NUMERIC: (keyof SlicerSettings)[] = [
  'nozzleTemp', 'bedTemp', 'layerHeight', 'printSpeed', 'infill', 'nozzleDiameter', 'retractionLength', 'retractionSpeed',
  'firstLayerHeight', 'firstLayerSpeed', 'fanSpeed', 'pressureAdvance', 'wallSpeed', 'travelSpeed', 'acceleration',
];

/** Plausible ranges: a value outside is ignored rather than filled in. */
const RANGES: Partial<Record<keyof SlicerSettings, [number, number]>> = {
  nozzleTemp: [100, 500], bedTemp: [0, 200], layerHeight: [0.01, 2], printSpeed: [1, 2000], infill: [0, 100],
  nozzleDiameter: [0.1, 2], retractionLength: [0, 20], retractionSpeed: [1, 300], firstLayerHeight: [0.01, 2],
  firstLayerSpeed: [1, 1000], fanSpeed: [0, 100], pressureAdvance: [0, 2], wallSpeed: [1, 2000], travelSpeed: [1, 2000],
  acceleration: [10, 100000],
};

// fromMap turns a key → value map into settings.
export function fromMap(values: Map<string, string>, slicer: Slicer): SlicerSettings {
  const out: SlicerSettings = { slicer };
  for (const [field, keys] of Object.entries(KEYS) as [Exclude<keyof SlicerSettings, 'slicer'>, string[]][]) {
    for (const k of keys) {
      const raw = values.get(k);
      if (raw === undefined) continue;
      if (NUMERIC.includes(field)) {
        let n = num(raw);
        if (n === undefined || (field === 'nozzleTemp' || field === 'bedTemp') && n === 0) continue;
        if (field === 'fanSpeed' && /%/.test(raw) === false && n > 100 && n <= 255) n = Math.round((n / 255) * 100);
        const range = RANGES[field];
        if (range && (n < range[0] || n > range[1])) continue;
        (out as unknown as Record<string, number>)[field] = n;
      } else {
        const t = text(raw);
        if (t) (out as unknown as Record<string, string>)[field] = t;
      }
      break;
    }
  }
  const profile = printerProfileName(values);
  if (profile) out.printerModel = profile;
  return out;
}

// printerProfileName: PrusaSlicer's printer_model is an id ("ENDER3V2", "MK4"); the name of its
// printer profile reads as the maker knows the printer ("Creality Ender-3 V2", "Original Prusa
// MK4 0.4 nozzle", without the nozzle). Slicers whose printer_model is a name keep it.
function printerProfileName(values: Map<string, string>): string | undefined {
  const model = text(values.get('printer_model'));
  const profile = text(values.get('printer_settings_id'))
    ?.replace(/\s*[-–(]?\s*\d+(?:\.\d+)?\s*(?:mm)?\s*nozzle\)?$/i, '')
    .trim();
  if (!profile || (model && !/^[A-Z0-9_+.-]+$/.test(model))) return undefined;
  return profile;
}

function detectSlicer(s: string): Slicer {
  if (/generated by SuperSlicer/i.test(s)) return 'SuperSlicer';
  if (/generated by PrusaSlicer/i.test(s)) return 'PrusaSlicer';
  if (/OrcaSlicer/i.test(s)) return 'OrcaSlicer';
  if (/BambuStudio|Bambu Studio/i.test(s)) return 'Bambu Studio';
  if (/Cura_SteamEngine|;Generated with Cura|;FLAVOR:/i.test(s)) return 'Cura';
  return 'unknown';
}

// parseKeyValueLines reads "; key = value" lines (Prusa, Super, Orca, Bambu) and Cura's
// ";KEY:value" header comments.
export function parseKeyValueLines(s: string, into = new Map<string, string>()): Map<string, string> {
  for (const line of s.split(/\r?\n/)) {
    let m = /^;\s*([A-Za-z0-9_.]+)\s*=\s*(.*)$/.exec(line);
    if (m) {
      if (!into.has(m[1])) into.set(m[1], m[2].trim());
      continue;
    }
    m = /^;([A-Z][A-Za-z0-9_. ]*?):\s*(.+)$/.exec(line);
    if (m && !into.has(m[1])) into.set(m[1], m[2].trim());
  }
  return into;
}

// parseCuraSettings reads the ";SETTING_3 " lines: one JSON object split over lines, whose
// values are INI texts ("[values]\nlayer_height = 0.2\n...").
export function parseCuraSettings(s: string, into = new Map<string, string>()): Map<string, string> {
  const json = s
    .split(/\r?\n/)
    .filter((l) => l.startsWith(';SETTING_3 '))
    .map((l) => l.slice(';SETTING_3 '.length))
    .join('');
  if (!json) return into;
  let obj: unknown;
  try {
    obj = JSON.parse(json);
  } catch {
    return into;
  }
  const texts: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') texts.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(obj);
  for (const t of texts) parseIni(t, into);
  return into;
}

export function parseIni(s: string, into = new Map<string, string>()): Map<string, string> {
  for (const line of s.split(/\r?\n/)) {
    const m = /^\s*([A-Za-z0-9_.]+)\s*=\s*(.*)$/.exec(line);
    if (m && !into.has(m[1])) into.set(m[1], m[2].trim());
  }
  return into;
}

// parseProjectJSON reads OrcaSlicer/Bambu Studio project_settings.config.
export function parseProjectJSON(s: string, into = new Map<string, string>()): Map<string, string> {
  let obj: unknown;
  try {
    obj = JSON.parse(s);
  } catch {
    return into;
  }
  if (!obj || typeof obj !== 'object') return into;
  for (const [k, v] of Object.entries(obj as Record<string, unknown>)) {
    if (into.has(k)) continue;
    if (typeof v === 'string' || typeof v === 'number') into.set(k, String(v));
    else if (Array.isArray(v) && v.length > 0 && (typeof v[0] === 'string' || typeof v[0] === 'number')) into.set(k, String(v[0]));
  }
  return into;
}

/** Reads the settings from the head and tail of a G-code text. */
export function parseGcode(head: string, tail: string): SlicerSettings {
  const all = `${head}\n${tail}`;
  const slicer = detectSlicer(head) !== 'unknown' ? detectSlicer(head) : detectSlicer(all);
  const values = parseKeyValueLines(all);
  parseCuraSettings(all, values);
  return fromMap(values, slicer);
}

// --- ZIP (3MF) --------------------------------------------------------------------------------

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  offset: number;
}

async function bytesOf(blob: Blob): Promise<Uint8Array> {
  return new Uint8Array(await blob.arrayBuffer());
}

/** Lists a ZIP's entries from its central directory (read from the end of the file). */
export async function zipEntries(file: Blob): Promise<ZipEntry[]> {
  const tailLen = Math.min(file.size, 65536 + 22);
  const tail = await bytesOf(file.slice(file.size - tailLen));
  const dv = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (dv.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new SlicedFileError('This .3mf file is not a valid archive.');
  const count = dv.getUint16(eocd + 10, true);
  const cdSize = dv.getUint32(eocd + 12, true);
  const cdOffset = dv.getUint32(eocd + 16, true);
  if (cdOffset + cdSize > file.size || count > 10000) throw new SlicedFileError('This .3mf file is damaged.');
  const cd = await bytesOf(file.slice(cdOffset, cdOffset + cdSize));
  const cv = new DataView(cd.buffer, cd.byteOffset, cd.byteLength);
  const out: ZipEntry[] = [];
  let p = 0;
  for (let i = 0; i < count && p + 46 <= cd.length; i++) {
    if (cv.getUint32(p, true) !== 0x02014b50) break;
    const nameLen = cv.getUint16(p + 28, true);
    const extraLen = cv.getUint16(p + 30, true);
    const commentLen = cv.getUint16(p + 32, true);
    out.push({
      method: cv.getUint16(p + 10, true),
      compressedSize: cv.getUint32(p + 20, true),
      size: cv.getUint32(p + 24, true),
      offset: cv.getUint32(p + 42, true),
      name: new TextDecoder().decode(cd.subarray(p + 46, p + 46 + nameLen)),
    });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

/** Reads one entry's text (stored or deflated), refusing anything over MAX_ENTRY_BYTES. */
export async function zipText(file: Blob, e: ZipEntry): Promise<string> {
  if (e.size > MAX_ENTRY_BYTES || e.compressedSize > MAX_ENTRY_BYTES) throw new SlicedFileError(`${e.name} is too large to be a settings file.`);
  const lh = await bytesOf(file.slice(e.offset, e.offset + 30));
  const lv = new DataView(lh.buffer, lh.byteOffset, lh.byteLength);
  if (lh.length < 30 || lv.getUint32(0, true) !== 0x04034b50) throw new SlicedFileError('This .3mf file is damaged.');
  const start = e.offset + 30 + lv.getUint16(26, true) + lv.getUint16(28, true);
  const data = await bytesOf(file.slice(start, start + e.compressedSize));
  if (e.method === 0) return new TextDecoder().decode(data);
  if (e.method !== 8) throw new SlicedFileError(`${e.name} uses a compression this page cannot read.`);
  return new TextDecoder().decode(await inflate(data, 'deflate-raw', e.name));
}

/** Decompresses deflate data in the browser, refusing more than MAX_ENTRY_BYTES of output. */
async function inflate(data: Uint8Array, format: 'deflate' | 'deflate-raw', name: string): Promise<Uint8Array> {
  const stream = new Response(data as unknown as BodyInit).body!.pipeThrough(new DecompressionStream(format));
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > MAX_ENTRY_BYTES) {
      await reader.cancel();
      throw new SlicedFileError(`${name} is too large to be a settings file.`);
    }
    chunks.push(value);
  }
  const all = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    all.set(c, o);
    o += c.length;
  }
  return all;
}

/** Reads the settings entries of a 3MF project. */
export async function parse3mf(file: Blob): Promise<SlicerSettings> {
  const entries = await zipEntries(file);
  const values = new Map<string, string>();
  let slicer: Slicer = 'unknown';
  for (const e of entries) {
    const name = e.name.toLowerCase();
    if (name === 'metadata/slic3r_pe.config' || name === 'metadata/superslicer.config') {
      const t = await zipText(file, e);
      slicer = slicer !== 'unknown' ? slicer : detectSlicer(t) !== 'unknown' ? detectSlicer(t) : 'PrusaSlicer';
      parseKeyValueLines(t, values);
    } else if (name === 'metadata/project_settings.config') {
      const t = await zipText(file, e);
      if (slicer === 'unknown') slicer = /BambuStudio|Bambu Lab/i.test(t) && !/OrcaSlicer/i.test(t) ? 'Bambu Studio' : 'OrcaSlicer';
      parseProjectJSON(t, values);
    } else if (name.startsWith('cura/') && name.endsWith('.cfg')) {
      parseIni(await zipText(file, e), values);
      slicer = 'Cura';
    }
  }
  if (values.size === 0) throw new SlicedFileError('This .3mf file holds no slicer settings (export a project 3MF from your slicer).');
  return fromMap(values, slicer);
}

// --- Binary G-code (.bgcode, PrusaSlicer) -----------------------------------------------------
// libbgcode's specification: a 10-byte file header ("GCDE", version, checksum type), then blocks
// of header (type, compression, sizes), parameters, data and an optional CRC32. The metadata
// blocks (file, printer, print, slicer: INI "key=value" lines) come before the G-code blocks, so
// only the first few kilobytes of the file are read. Data may be stored, deflated (zlib) or
// heatshrink-compressed.

const BGCODE_MAGIC = 0x45444347; // "GCDE"
const BLOCK_GCODE = 1;
const BLOCK_THUMBNAIL = 5;

/** Decodes heatshrink (LZSS) data with a 2^window-byte window and 2^lookahead-byte matches. */
export function heatshrinkDecode(input: Uint8Array, window: number, lookahead: number, limit = MAX_ENTRY_BYTES): Uint8Array {
  let out = new Uint8Array(Math.min(limit, Math.max(1024, input.length * 4)));
  let n = 0;
  let bit = 0;
  const total = input.length * 8;
  const bits = (count: number): number | null => {
    if (bit + count > total) return null;
    let v = 0;
    for (let i = 0; i < count; i++, bit++) v = (v << 1) | ((input[bit >> 3] >> (7 - (bit & 7))) & 1);
    return v;
  };
  const put = (b: number) => {
    if (n === out.length) {
      if (n >= limit) throw new SlicedFileError('A metadata block of this .bgcode file is too large.');
      const bigger = new Uint8Array(Math.min(limit, n * 2));
      bigger.set(out);
      out = bigger;
    }
    out[n++] = b;
  };
  for (;;) {
    const tag = bits(1);
    if (tag === null) break;
    if (tag === 1) {
      const b = bits(8);
      if (b === null) break;
      put(b);
      continue;
    }
    const index = bits(window);
    if (index === null) break;
    const count = bits(lookahead);
    if (count === null) break;
    const offset = index + 1;
    if (offset > n) throw new SlicedFileError('This .bgcode file is damaged.');
    for (let i = 0; i <= count; i++) put(out[n - offset]);
  }
  return out.slice(0, n);
}

/** Reads the metadata blocks of a binary G-code file. */
export async function parseBgcode(file: Blob): Promise<SlicerSettings> {
  const fh = await bytesOf(file.slice(0, 10));
  const fv = new DataView(fh.buffer, fh.byteOffset, fh.byteLength);
  if (fh.length < 10 || fv.getUint32(0, true) !== BGCODE_MAGIC) throw new SlicedFileError('This is not a binary G-code file.');
  const checksum = fv.getUint16(8, true) === 1 ? 4 : 0;
  const texts: string[] = [];
  let offset = 10;
  for (let block = 0; block < 64 && offset + 8 <= file.size; block++) {
    const h = await bytesOf(file.slice(offset, offset + 12));
    const hv = new DataView(h.buffer, h.byteOffset, h.byteLength);
    const type = hv.getUint16(0, true);
    const compression = hv.getUint16(2, true);
    const size = hv.getUint32(4, true);
    if (compression !== 0 && h.length < 12) break;
    const stored = compression === 0 ? size : hv.getUint32(8, true);
    if (type === BLOCK_GCODE) break; // the metadata comes first
    const start = offset + (compression === 0 ? 8 : 12) + (type === BLOCK_THUMBNAIL ? 6 : 2);
    offset = start + stored + checksum;
    if (type === BLOCK_THUMBNAIL || type > BLOCK_THUMBNAIL) continue;
    if (size > MAX_ENTRY_BYTES || stored > MAX_ENTRY_BYTES) throw new SlicedFileError('A metadata block of this .bgcode file is too large.');
    const data = await bytesOf(file.slice(start, start + stored));
    let plain: Uint8Array;
    if (compression === 0) plain = data;
    else if (compression === 1) plain = await inflate(data, 'deflate', 'A metadata block of this .bgcode file');
    else if (compression === 2 || compression === 3) plain = heatshrinkDecode(data, compression === 2 ? 11 : 12, 4);
    else throw new SlicedFileError('This .bgcode file uses a compression this page cannot read.');
    texts.push(new TextDecoder().decode(plain));
  }
  const values = new Map<string, string>();
  for (const t of texts) parseIni(t, values);
  const producer = values.get('Producer') ?? '';
  const slicer = /SuperSlicer/i.test(producer) ? 'SuperSlicer' : /PrusaSlicer/i.test(producer) ? 'PrusaSlicer' : detectSlicer(producer);
  const settings = fromMap(values, slicer === 'unknown' && values.size > 0 ? 'PrusaSlicer' : slicer);
  if (Object.keys(settings).filter((k) => k !== 'slicer').length === 0) {
    throw new SlicedFileError('No slicer settings were found in this .bgcode file.');
  }
  return settings;
}

/** Reads the settings of a .gcode, .bgcode or .3mf file. */
export async function readSlicedFile(file: File): Promise<SlicerSettings> {
  const name = file.name.toLowerCase();
  if (name.endsWith('.3mf')) return parse3mf(file);
  if (name.endsWith('.bgcode')) return parseBgcode(file);
  if (!name.endsWith('.gcode') && !name.endsWith('.gco') && !name.endsWith('.g')) {
    throw new SlicedFileError('Choose a .gcode, .bgcode or .3mf file written by your slicer.');
  }
  const head = await file.slice(0, HEAD_BYTES).text();
  const tail = file.size > HEAD_BYTES ? await file.slice(Math.max(HEAD_BYTES, file.size - TAIL_BYTES)).text() : '';
  const settings = parseGcode(head, tail);
  const found = Object.keys(settings).filter((k) => k !== 'slicer').length;
  if (found === 0) throw new SlicedFileError('No slicer settings were found in this G-code file.');
  return settings;
}
