import TextField from '@mui/material/TextField';
import { DESCRIPTION_MAX } from './validation';

interface Props {
  value: string;
  onChange: (value: string) => void;
  error?: string;
  placeholder: string;
}

// DescriptionField is the required 'Detailed Description' with its live character count.
export function DescriptionField({ value, onChange, error, placeholder }: Props) {
  const length = [...value.trim()].length;
  return (
    <TextField
      label="Detailed Description"
      name="description"
      placeholder={placeholder}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={Boolean(error)}
      helperText={error ?? `${length}/${DESCRIPTION_MAX} characters, at least 10`}
      required
      fullWidth
      multiline
      minRows={4}
      // The rows' height before the autosize measures it (a prerendered page), so nothing moves then.
      sx={{ '& textarea:not([aria-hidden])': { minHeight: { xs: `${5 * 1.4375}em`, sm: `${4 * 1.4375}em` } } }}
    />
  );
}
