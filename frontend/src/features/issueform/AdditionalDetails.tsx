import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ExpandMoreRounded from '@mui/icons-material/ExpandMoreRounded';
import { NUMERIC_RULES, type IssueDetailsValues, type NumericField } from './validation';

// How each numeric field is typed; its range comes from NUMERIC_RULES.
const INPUTS: Record<NumericField, { label: string; unit: string; step: number; placeholder: string }> = {
  nozzleTemp: { label: 'Nozzle Temperature', unit: '°C', step: 1, placeholder: '210' },
  bedTemp: { label: 'Bed Temperature', unit: '°C', step: 1, placeholder: '60' },
  layerHeight: { label: 'Layer Height', unit: 'mm', step: 0.05, placeholder: '0.2' },
  printSpeed: { label: 'Print Speed', unit: 'mm/s', step: 1, placeholder: '60' },
  infill: { label: 'Infill', unit: '%', step: 1, placeholder: '20' },
};

interface Props {
  /** The id of the collapsing panel, unique on the page. */
  id: string;
  open: boolean;
  onToggle: () => void;
  values: IssueDetailsValues;
  errors: Partial<Record<keyof IssueDetailsValues, string>>;
  set: (field: keyof IssueDetailsValues) => (value: string) => void;
  /** The layer height input's step; the anonymous form has always stepped by 0.01. */
}

// AdditionalDetails is the optional, collapsible part of an issue form: material and print settings.
// Closed, the panel holds no fields: they are rendered when it opens and leave once it has
// closed, so a page with the form (the home page) parses and lays out a third fewer elements.
export function AdditionalDetails({ id, open, onToggle, values, errors, set }: Props) {
  const [rendered, setRendered] = useState(open);
  if (open && !rendered) setRendered(true);
  return (
    <Box>
      <Button
        onClick={onToggle}
        aria-expanded={open}
        aria-controls={id}
        color="inherit"
        endIcon={<ExpandMoreRounded sx={{ transform: open ? 'rotate(180deg)' : 'none', transition: 'transform 150ms' }} />}
        sx={{ px: 1, ml: -1 }}
      >
        Additional Details
      </Button>
      <Typography component="span" variant="body2" sx={{ color: 'text.secondary', ml: 1, display: { xs: 'none', sm: 'inline' } }}>
        optional, improves the diagnosis
      </Typography>
      <Collapse in={open} id={id} onExited={() => setRendered(false)}>
        {rendered && (
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
            {NUMERIC_RULES.map(({ field, min, max }) => {
              const input = INPUTS[field];
              const step = input.step;
              return (
                <TextField
                  key={field}
                  label={input.label}
                  name={field}
                  type="number"
                  placeholder={input.placeholder}
                  value={values[field]}
                  onChange={(e) => set(field)(e.target.value)}
                  error={Boolean(errors[field])}
                  helperText={errors[field]}
                  slotProps={{
                    htmlInput: { min, max, step, inputMode: 'decimal' },
                    input: { endAdornment: <InputAdornment position="end">{input.unit}</InputAdornment> },
                  }}
                />
              );
            })}
          </Box>
        )}
      </Collapse>
    </Box>
  );
}
