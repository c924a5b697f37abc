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
import type { Printer } from '../../api/client';
import { CategoryTiles } from '../troubleshoot/CategoryTiles';
import { PhotoDropZone } from '../troubleshoot/PhotoDropZone';
import { DESCRIPTION_MAX } from '../troubleshoot/validation';
import { validateIssueForm, type IssueFieldErrors, type IssueFormValues } from './issueValidation';
import { PrinterSelect } from './PrinterSelect';

type NumericField = 'nozzleTemp' | 'bedTemp' | 'layerHeight' | 'printSpeed' | 'infill';

const DETAIL_FIELDS: { field: NumericField; label: string; unit: string; min: number; max: number; step: number; placeholder: string }[] = [
  { field: 'nozzleTemp', label: 'Nozzle Temperature', unit: '°C', min: 0, max: 500, step: 1, placeholder: '210' },
  { field: 'bedTemp', label: 'Bed Temperature', unit: '°C', min: 0, max: 200, step: 1, placeholder: '60' },
  { field: 'layerHeight', label: 'Layer Height', unit: 'mm', min: 0.05, max: 1, step: 0.05, placeholder: '0.2' },
  { field: 'printSpeed', label: 'Print Speed', unit: 'mm/s', min: 1, max: 300, step: 1, placeholder: '60' },
  { field: 'infill', label: 'Infill', unit: '%', min: 0, max: 100, step: 1, placeholder: '20' },
];

const DETAIL_KEYS: (keyof IssueFormValues)[] = ['material', ...DETAIL_FIELDS.map((d) => d.field)];

interface Props {
  initialValues: IssueFormValues;
  printers: readonly Printer[];
  printersLoading: boolean;
  submitting: boolean;
  onSubmit: (values: IssueFormValues, photos: File[]) => void;
  onCancel: () => void;
}

// IssueForm is the signed-in issue form of /report-issue.
export function IssueForm({ initialValues, printers, printersLoading, submitting, onSubmit, onCancel }: Props) {
  const [values, setValues] = useState<IssueFormValues>(initialValues);
  const [photos, setPhotos] = useState<File[]>([]);
  const [errors, setErrors] = useState<IssueFieldErrors>({});
  const [detailsOpen, setDetailsOpen] = useState(() => DETAIL_KEYS.some((k) => initialValues[k] !== ''));

  const set = (field: keyof IssueFormValues) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  // A preselected or remembered printer that no longer exists counts as no choice.
  const printerId = printers.some((p) => String(p.id) === values.printerId) ? values.printerId : '';

  const handleSubmit = (e: FormEvent) => {
    e.preventDefault();
    const checked = { ...values, printerId };
    const found = validateIssueForm(checked);
    setErrors(found);
    const fields = Object.keys(found) as (keyof IssueFormValues)[];
    if (fields.length > 0) {
      if (fields.some((f) => DETAIL_KEYS.includes(f))) setDetailsOpen(true);
      setTimeout(() => document.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
      return;
    }
    onSubmit(checked, photos);
  };

  const descriptionLength = [...values.description.trim()].length;

  return (
    <Box component="form" noValidate onSubmit={handleSubmit} aria-label="Report an issue">
      <Stack spacing={3}>
        <PrinterSelect
          printers={printers}
          loading={printersLoading}
          value={values.printerId}
          onChange={set('printerId')}
          error={errors.printerId}
        />
        <CategoryTiles value={values.category} onChange={set('category')} error={errors.category} />
        <TextField
          label="Detailed Description"
          name="description"
          placeholder="What went wrong? When did it start, what does it look like, what have you already tried?"
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
            aria-controls="issue-additional-details"
            color="inherit"
            endIcon={<ExpandMoreRounded sx={{ transform: detailsOpen ? 'rotate(180deg)' : 'none', transition: 'transform 150ms' }} />}
            sx={{ px: 1, ml: -1 }}
          >
            Additional Details
          </Button>
          <Typography component="span" variant="body2" sx={{ color: 'text.secondary', ml: 1, display: { xs: 'none', sm: 'inline' } }}>
            optional, improves the diagnosis
          </Typography>
          <Collapse in={detailsOpen} id="issue-additional-details">
            <Box sx={{ display: 'grid', gap: 2, pt: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', md: 'repeat(3, minmax(0, 1fr))' } }}>
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
        <Stack direction={{ xs: 'column-reverse', sm: 'row' }} spacing={1.5} sx={{ justifyContent: 'flex-end' }}>
          <Button onClick={onCancel} disabled={submitting} color="inherit" size="large">
            Cancel
          </Button>
          <Button type="submit" variant="contained" size="large" startIcon={<AutoAwesomeRounded />} disabled={submitting} sx={{ minWidth: 200 }}>
            {submitting ? 'Analyzing Issue...' : 'Analyze Issue'}
          </Button>
        </Stack>
      </Stack>
    </Box>
  );
}
