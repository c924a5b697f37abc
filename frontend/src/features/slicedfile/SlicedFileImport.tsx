// "Read settings from your sliced file": the maker picks the .gcode, .bgcode or .3mf their slicer wrote;
// it is read here in the browser (never uploaded), the form is filled and what was read is listed.
import { useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import UploadFileRounded from '@mui/icons-material/UploadFileRounded';
import { readSlicedFile, SlicedFileError, type SlicerSettings } from './parse';

// What the list shows for each extra setting (the form fields show their own).
const LABELS: [keyof SlicerSettings, string, string][] = [
  ['nozzleDiameter', 'Nozzle', 'mm'],
  ['retractionLength', 'Retraction', 'mm'],
  ['retractionSpeed', 'Retraction speed', 'mm/s'],
  ['firstLayerHeight', 'First layer', 'mm'],
  ['firstLayerSpeed', 'First layer speed', 'mm/s'],
  ['fanSpeed', 'Part fan', '%'],
  ['pressureAdvance', 'Pressure advance', ''],
  ['wallSpeed', 'Outer wall', 'mm/s'],
  ['travelSpeed', 'Travel', 'mm/s'],
  ['acceleration', 'Acceleration', 'mm/s²'],
];

export function settingChips(s: SlicerSettings): string[] {
  return LABELS.flatMap(([k, label, unit]) => {
    const v = s[k];
    return typeof v === 'number' ? [`${label} ${v}${unit === '%' ? '' : unit ? ' ' : ''}${unit}`] : [];
  });
}

interface Props {
  settings: SlicerSettings | null;
  onRead: (settings: SlicerSettings | null) => void;
}

export function SlicedFileImport({ settings, onRead }: Props) {
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState('');
  const [reading, setReading] = useState(false);
  const [name, setName] = useState('');

  const read = async (file: File | undefined) => {
    if (!file) return;
    setError('');
    setReading(true);
    try {
      const s = await readSlicedFile(file);
      setName(file.name);
      onRead(s);
    } catch (err) {
      setError(err instanceof SlicedFileError ? err.message : `Could not read ${file.name}.`);
    } finally {
      setReading(false);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <Box
      component="section"
      aria-label="Settings from a sliced file"
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => {
        e.preventDefault();
        void read(e.dataTransfer.files[0]);
      }}
      sx={{ border: 1, borderStyle: 'dashed', borderColor: 'divider', borderRadius: 2, p: 2 }}
    >
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { xs: 'stretch', sm: 'center' } }}>
        <Box sx={{ flexGrow: 1 }}>
          <Typography sx={{ fontWeight: 600 }}>Read the settings from your sliced file</Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            Drop the .gcode, .bgcode or .3mf of the failed print (PrusaSlicer, SuperSlicer, OrcaSlicer, Bambu Studio, Cura). It is read
            on this device and never uploaded.
          </Typography>
        </Box>
        <Button variant="outlined" startIcon={<UploadFileRounded />} onClick={() => input.current?.click()} disabled={reading}>
          {reading ? 'Reading…' : 'Choose File'}
        </Button>
        <input
          ref={input}
          type="file"
          hidden
          accept=".gcode,.gco,.g,.3mf,.bgcode"
          data-testid="sliced-file-input"
          onChange={(e) => void read(e.target.files?.[0])}
        />
      </Stack>
      {error && (
        <Alert severity="warning" sx={{ mt: 1.5 }}>
          {error}
        </Alert>
      )}
      {settings && (
        <Box sx={{ mt: 1.5 }} data-testid="sliced-settings">
          <Typography variant="body2" sx={{ mb: 1 }}>
            Read from {name || 'the file'}
            {settings.slicer !== 'unknown' ? ` (${settings.slicer})` : ''}: the fields below are filled in and stay editable; these settings
            go with the analysis too.
          </Typography>
          <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.75 }}>
            {settingChips(settings).map((c) => (
              <Chip key={c} label={c} size="small" />
            ))}
            <Chip label="Remove" size="small" variant="outlined" onClick={() => onRead(null)} onDelete={() => onRead(null)} />
          </Stack>
        </Box>
      )}
    </Box>
  );
}

/** The settings the API takes (the form fields carry the rest). */
export function apiSlicerSettings(s: SlicerSettings | null | undefined): Record<string, unknown> | null {
  if (!s) return null;
  const out: Record<string, unknown> = { slicer: s.slicer === 'unknown' ? '' : s.slicer };
  for (const [k] of LABELS) if (typeof s[k] === 'number') out[k] = s[k];
  return out;
}
