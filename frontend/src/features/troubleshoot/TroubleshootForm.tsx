import { useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AutoAwesomeRounded from '@mui/icons-material/AutoAwesomeRounded';
import ExpandMoreRounded from '@mui/icons-material/ExpandMoreRounded';
import { CategoryTiles } from './CategoryTiles';
import { PhotoDropZone } from './PhotoDropZone';
import {
  DESCRIPTION_MAX,
  EMPTY_FORM,
  validateTroubleshootForm,
  type FieldErrors,
  type TroubleshootFormValues,
} from './validation';

type NumericField = 'nozzleTemp' | 'bedTemp' | 'layerHeight' | 'printSpeed' | 'infill';

const DETAIL_FIELDS: { field: NumericField; label: string; unit: string; min: number; max: number; step: number; placeholder: string }[] = [
  { field: 'nozzleTemp', label: 'Nozzle Temperature', unit: '°C', min: 0, max: 500, step: 1, placeholder: '210' },
  { field: 'bedTemp', label: 'Bed Temperature', unit: '°C', min: 0, max: 200, step: 1, placeholder: '60' },
  { field: 'layerHeight', label: 'Layer Height', unit: 'mm', min: 0.05, max: 1, step: 0.01, placeholder: '0.2' },
  { field: 'printSpeed', label: 'Print Speed', unit: 'mm/s', min: 1, max: 300, step: 1, placeholder: '60' },
  { field: 'infill', label: 'Infill', unit: '%', min: 0, max: 100, step: 1, placeholder: '20' },
];

const DETAIL_KEYS: (keyof TroubleshootFormValues)[] = ['material', ...DETAIL_FIELDS.map((d) => d.field)];

interface Props {
  initialValues?: TroubleshootFormValues;
  onSubmit: (values: TroubleshootFormValues, photos: File[]) => void;
  submitting?: boolean;
}

// TroubleshootForm is the anonymous issue form of the home screen.
export function TroubleshootForm({ initialValues = EMPTY_FORM, onSubmit, submitting = false }: Props) {
  const [values, setValues] = useState<TroubleshootFormValues>(initialValues);
  const [photos, setPhotos] = useState<File[]>([]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [detailsOpen, setDetailsOpen] = useState(() => DETAIL_KEYS.some((k) => initialValues[k] !== ''));

  const set = (field: keyof TroubleshootFormValues) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const handleSubmit = (e: FormEvent) => {
    e.preventDefault();
    const found = validateTroubleshootForm(values);
    setErrors(found);
    const fields = Object.keys(found) as (keyof TroubleshootFormValues)[];
    if (fields.length > 0) {
      if (fields.some((f) => DETAIL_KEYS.includes(f))) setDetailsOpen(true);
      // Focus the first field in error once the details have had a chance to open.
      setTimeout(() => document.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
      return;
    }
    onSubmit(values, photos);
  };

  const descriptionLength = [...values.description.trim()].length;

  return (
    <Box component="form" noValidate onSubmit={handleSubmit} aria-label="Describe your print problem">
      <Stack spacing={3}>
        <TextField
          label="Printer Brand/Model"
          name="printerBrand"
          placeholder="e.g. Creality Ender 3 V2, Prusa MK4, Bambu Lab P1S"
          value={values.printerBrand}
          onChange={(e) => set('printerBrand')(e.target.value)}
          error={Boolean(errors.printerBrand)}
          helperText={errors.printerBrand}
          required
          fullWidth
          autoComplete="off"
        />
        <CategoryTiles value={values.category} onChange={set('category')} error={errors.category} />
        <TextField
          label="Detailed Description"
          name="description"
          placeholder="What went wrong? When did it start, what does it look like, what have you already tried? e.g. 'The first layer won't stick in the corners and the edges curl up after a few layers.'"
          value={values.description}
          onChange={(e) => set('description')(e.target.value)}
          error={Boolean(errors.description)}
          helperText={errors.description ?? `${descriptionLength}/${DESCRIPTION_MAX} characters, at least 10`}
          required
          fullWidth
          multiline
          minRows={4}
        />
        <PhotoDropZone files={photos} onChange={setPhotos} />
        <Box>
          <Button
            onClick={() => setDetailsOpen((o) => !o)}
            aria-expanded={detailsOpen}
            aria-controls="additional-details"
            color="inherit"
            endIcon={
              <ExpandMoreRounded sx={{ transform: detailsOpen ? 'rotate(180deg)' : 'none', transition: 'transform 150ms' }} />
            }
            sx={{ px: 1, ml: -1 }}
          >
            Additional Details
          </Button>
          <Typography component="span" variant="body2" sx={{ color: 'text.secondary', ml: 1, display: { xs: 'none', sm: 'inline' } }}>
            optional, improves the diagnosis
          </Typography>
          <Collapse in={detailsOpen} id="additional-details">
            <Box
              sx={{
                display: 'grid',
                gap: 2,
                pt: 2,
                gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', md: 'repeat(3, minmax(0, 1fr))' },
              }}
            >
              <TextField
                label="Material"
                name="material"
                placeholder="PLA, PETG, ABS, TPU..."
                value={values.material}
                onChange={(e) => set('material')(e.target.value)}
                error={Boolean(errors.material)}
                helperText={errors.material}
                autoComplete="off"
              />
              {DETAIL_FIELDS.map((d) => (
                <TextField
                  key={d.field}
                  label={d.label}
                  name={d.field}
                  type="number"
                  placeholder={d.placeholder}
                  value={values[d.field]}
                  onChange={(e) => set(d.field)(e.target.value)}
                  error={Boolean(errors[d.field])}
                  helperText={errors[d.field]}
                  slotProps={{
                    htmlInput: { min: d.min, max: d.max, step: d.step, inputMode: 'decimal' },
                    input: { endAdornment: <InputAdornment position="end">{d.unit}</InputAdornment> },
                  }}
                />
              ))}
            </Box>
          </Collapse>
        </Box>
        <Button
          type="submit"
          variant="contained"
          size="large"
          startIcon={<AutoAwesomeRounded />}
          disabled={submitting}
          sx={{ py: 1.5, fontSize: 16 }}
        >
          Analyze Issue
        </Button>
      </Stack>
    </Box>
  );
}
