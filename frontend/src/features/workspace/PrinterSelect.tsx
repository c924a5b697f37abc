import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddRounded from '@mui/icons-material/AddRounded';
import { useSWRConfig } from 'swr';
import { createPrinter, type Printer } from '../../api/client';
import { useToast } from '../../components/Toast';
import { PRINTERS_KEY } from './hooks';
import { DEFAULT_NOZZLE_SIZE, EMPTY_PRINTER, inlinePrinterMissing, validatePrinter, type PrinterFieldErrors } from './printerValidation';

const ADD_NEW = '__add__';

interface Props {
  printers: readonly Printer[];
  loading: boolean;
  value: string;
  onChange: (printerId: string) => void;
  error?: string;
}

export function printerLabel(p: Pick<Printer, 'name' | 'brand'>): string {
  return `${p.name} (${p.brand})`;
}

// PrinterSelect lists the user's printers as 'name (brand)' and adds one inline on the issue
// form; a new printer is selected at once.
export function PrinterSelect({ printers, loading, value, onChange, error }: Props) {
  const { toast } = useToast();
  const { mutate } = useSWRConfig();
  // null until the user opens or cancels the form: then it opens by itself when there is no printer yet.
  const [adding, setAdding] = useState<boolean | null>(null);
  const [name, setName] = useState('');
  const [brand, setBrand] = useState('');
  const [fieldErrors, setFieldErrors] = useState<PrinterFieldErrors>({});
  const [saving, setSaving] = useState(false);
  const showForm = adding ?? (!loading && printers.length === 0);

  const cancel = () => {
    setAdding(false);
    setName('');
    setBrand('');
    setFieldErrors({});
  };

  const add = async () => {
    if (inlinePrinterMissing(name, brand)) {
      toast({ title: 'Missing Information', description: 'Please enter both printer name and brand.', variant: 'destructive' });
      return;
    }
    const found = validatePrinter({ ...EMPTY_PRINTER, name, brand, nozzleSize: DEFAULT_NOZZLE_SIZE });
    setFieldErrors(found);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    try {
      const created = await createPrinter({ name: name.trim(), brand: brand.trim(), nozzleSize: DEFAULT_NOZZLE_SIZE });
      await mutate(PRINTERS_KEY, (list: Printer[] | undefined) => [...(list ?? []).filter((p) => p.id !== created.id), created], {
        revalidate: true,
      });
      onChange(String(created.id));
      toast({ title: 'Success', description: 'Printer added successfully', variant: 'success' });
      cancel();
    } catch {
      toast({ title: 'Error', description: 'Failed to add printer. Please try again.', variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  };

  const known = printers.some((p) => String(p.id) === value);
  return (
    <Box>
      <TextField
        select
        fullWidth
        required
        label="Printer"
        name="printerId"
        value={known ? value : ''}
        onChange={(e) => {
          if (e.target.value === ADD_NEW) setAdding(true);
          else onChange(e.target.value);
        }}
        error={Boolean(error)}
        helperText={error ?? (loading ? 'Loading your printers...' : undefined)}
        disabled={loading}
      >
        {printers.map((p) => (
          <MenuItem key={p.id} value={String(p.id)}>
            {printerLabel(p)}
          </MenuItem>
        ))}
        {printers.length > 0 && <Divider />}
        <MenuItem value={ADD_NEW} sx={{ color: 'primary.main', fontWeight: 600 }}>
          <AddRounded fontSize="small" sx={{ mr: 1 }} />
          Add New Printer
        </MenuItem>
      </TextField>
      {showForm && (
        <Paper variant="outlined" sx={{ mt: 1.5, p: 2, bgcolor: 'background.default' }} data-testid="inline-add-printer">
          <Typography variant="subtitle2" component="h2" sx={{ mb: 1.5 }}>
            Add New Printer
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
            <TextField
              size="small"
              fullWidth
              label="Printer Name"
              placeholder="e.g. Workshop Ender"
              value={name}
              onChange={(e) => setName(e.target.value)}
              error={Boolean(fieldErrors.name)}
              helperText={fieldErrors.name}
              autoComplete="off"
            />
            <TextField
              size="small"
              fullWidth
              label="Brand"
              placeholder="e.g. Creality Ender 3 V2"
              value={brand}
              onChange={(e) => setBrand(e.target.value)}
              error={Boolean(fieldErrors.brand)}
              helperText={fieldErrors.brand}
              autoComplete="off"
            />
          </Stack>
          <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', mt: 1.5 }}>
            <Button onClick={cancel} disabled={saving} color="inherit">
              Cancel
            </Button>
            <Button onClick={add} disabled={saving} variant="contained">
              Add Printer
            </Button>
          </Stack>
        </Paper>
      )}
    </Box>
  );
}
