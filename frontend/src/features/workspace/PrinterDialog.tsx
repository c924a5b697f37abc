import { useState, type FormEvent } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import DeleteOutlineRounded from '@mui/icons-material/DeleteOutlineRounded';
import type { Printer } from '../../api/client';
import {
  deleteConfirmText,
  EMPTY_PRINTER,
  formatNozzle,
  HOST_KINDS,
  NOZZLE_SIZES,
  validatePrinter,
  type PrinterFieldErrors,
  type PrinterFormValues,
} from './printerValidation';

interface Props {
  open: boolean;
  /** The printer being edited; null for Add Printer. */
  printer: Printer | null;
  saving: boolean;
  onClose: () => void;
  onSave: (values: PrinterFormValues) => void;
  onDelete?: () => void;
}

function valuesOf(printer: Printer | null): PrinterFormValues {
  if (!printer) return EMPTY_PRINTER;
  const nozzle = NOZZLE_SIZES.find((n) => n === printer.nozzleSize);
  return {
    name: printer.name,
    brand: printer.brand,
    nozzleSize: nozzle ?? EMPTY_PRINTER.nozzleSize,
    buildVolume: printer.buildVolume ?? '',
    hostKind: printer.host?.kind ?? '',
    hostUrl: printer.host?.url ?? '',
    hostKey: '',
    hostHasKey: printer.host?.hasApiKey ?? false,
    savedHost: printer.host ? { kind: printer.host.kind, url: printer.host.url } : null,
  };
}

// PrinterDialog is the Add Printer and Edit Printer modal of the dashboard.
export function PrinterDialog({ open, printer, saving, onClose, onSave, onDelete }: Props) {
  const fullScreen = useMediaQuery('(max-width:599.95px)');
  const mode = printer ? 'edit' : 'add';
  const [values, setValues] = useState<PrinterFormValues>(() => valuesOf(printer));
  const [errors, setErrors] = useState<PrinterFieldErrors>({});

  const set = <K extends keyof PrinterFormValues>(field: K, value: PrinterFormValues[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = validatePrinter(values, mode);
    setErrors(found);
    if (Object.keys(found).length === 0) onSave(values);
  };

  const title = printer ? 'Edit Printer' : 'Add Printer';
  const host = HOST_KINDS.find((h) => h.kind === values.hostKind);
  return (
    <Dialog open={open} onClose={saving ? undefined : onClose} fullWidth maxWidth="xs" fullScreen={fullScreen} aria-labelledby="printer-dialog-title">
      <form noValidate onSubmit={submit}>
        <DialogTitle id="printer-dialog-title">{title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            <TextField
              label="Printer Name"
              placeholder="e.g. Workshop Ender"
              value={values.name}
              onChange={(e) => set('name', e.target.value)}
              error={Boolean(errors.name)}
              helperText={errors.name}
              required
              autoFocus
              autoComplete="off"
            />
            <TextField
              label={printer ? 'Brand/Model' : 'Brand'}
              placeholder="e.g. Creality Ender 3 V2"
              value={values.brand}
              onChange={(e) => set('brand', e.target.value)}
              error={Boolean(errors.brand)}
              helperText={errors.brand}
              required
              autoComplete="off"
            />
            <TextField
              select
              label="Nozzle Size"
              value={values.nozzleSize}
              onChange={(e) => set('nozzleSize', Number(e.target.value))}
              error={Boolean(errors.nozzleSize)}
              helperText={errors.nozzleSize}
            >
              {NOZZLE_SIZES.map((n) => (
                <MenuItem key={n} value={n}>
                  {formatNozzle(n)}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              label="Build Volume"
              placeholder="e.g. 220 × 220 × 250"
              value={values.buildVolume}
              onChange={(e) => set('buildVolume', e.target.value)}
              error={Boolean(errors.buildVolume)}
              helperText={errors.buildVolume ?? 'Optional, in mm'}
              autoComplete="off"
            />
            <TextField
              select
              label="Printer Host"
              value={values.hostKind}
              onChange={(e) => set('hostKind', e.target.value as PrinterFormValues['hostKind'])}
              helperText="Optional: lets “Diagnose the last print” read the last job, config and log"
            >
              <MenuItem value="">None</MenuItem>
              {HOST_KINDS.map((h) => (
                <MenuItem key={h.kind} value={h.kind}>
                  {h.label}
                </MenuItem>
              ))}
            </TextField>
            {host && (
              <>
                <TextField
                  label="Host Address"
                  placeholder={`e.g. http://192.168.1.20:${host.port}`}
                  value={values.hostUrl}
                  onChange={(e) => set('hostUrl', e.target.value)}
                  error={Boolean(errors.hostUrl)}
                  helperText={errors.hostUrl}
                  inputMode="url"
                  autoComplete="off"
                />
                <TextField
                  label="API Key"
                  type="password"
                  value={values.hostKey}
                  onChange={(e) => set('hostKey', e.target.value)}
                  error={Boolean(errors.hostKey)}
                  helperText={errors.hostKey ?? (values.hostHasKey ? 'Key saved: leave empty to keep it' : host.keyHelp)}
                  placeholder={values.hostHasKey ? '•••••••• (saved)' : undefined}
                  autoComplete="new-password"
                  slotProps={{ htmlInput: { 'data-testid': 'host-api-key' } }}
                />
              </>
            )}
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5, gap: 1, flexWrap: 'wrap' }}>
          {onDelete && (
            <Button color="error" startIcon={<DeleteOutlineRounded />} onClick={onDelete} disabled={saving} sx={{ mr: 'auto' }}>
              Delete
            </Button>
          )}
          <Button onClick={onClose} disabled={saving} color="inherit">
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={saving}>
            {printer ? 'Save Changes' : 'Add Printer'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

interface DeleteProps {
  printer: Printer | null;
  deleting: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

export function DeletePrinterDialog({ printer, deleting, onCancel, onConfirm }: DeleteProps) {
  return (
    <Dialog open={printer !== null} onClose={deleting ? undefined : onCancel} maxWidth="xs" aria-labelledby="delete-printer-title">
      <DialogTitle id="delete-printer-title">Delete Printer</DialogTitle>
      <DialogContent>{printer && deleteConfirmText(printer.name)}</DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button onClick={onCancel} disabled={deleting} color="inherit">
          Cancel
        </Button>
        <Button onClick={onConfirm} disabled={deleting} variant="contained" color="error">
          Delete
        </Button>
      </DialogActions>
    </Dialog>
  );
}
