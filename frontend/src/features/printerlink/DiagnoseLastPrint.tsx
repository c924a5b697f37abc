import { useState } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import SettingsInputAntennaRounded from '@mui/icons-material/SettingsInputAntennaRounded';
import { ApiError, pullPrinter, type Printer, type PullResult } from '../../api/client';
import { addAttachments, makeAttachment } from '../attachments/attachments';
import type { IssueFormState } from '../issueform/useIssueForm';
import type { IssueDetailsValues } from '../issueform/validation';
import { describeWithSummary, pulledSettings } from './pullForm';

interface Props<V extends IssueDetailsValues> {
  printer: Printer | undefined;
  form: IssueFormState<V>;
}

const HOST_NAMES = { moonraker: 'Moonraker', octoprint: 'OctoPrint', prusalink: 'PrusaLink' } as const;

// DiagnoseLastPrint asks the selected printer's host for the last job, config and log, fills the
// form with them and shows what the printer says, for the maker to review before Analyze.
export function DiagnoseLastPrint<V extends IssueDetailsValues>({ printer, form }: Props<V>) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<PullResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (!printer?.host) return null;
  const hostName = HOST_NAMES[printer.host.kind];

  const pull = async () => {
    setBusy(true);
    setError(null);
    try {
      const r = await pullPrinter(printer.id);
      setResult(r);
      form.applySlicer(pulledSettings(r));
      form.set('description')(describeWithSummary(form.values.description, r.summary));
      // The printer's errors choose the category only when the maker has not.
      if (r.form.category && form.values.category === 'other') form.set('category')(r.form.category);
      // A second pull replaces the files of the first.
      const names = new Set(r.attachments.map((a) => a.name));
      const { list, refused } = addAttachments(
        form.attachments.filter((a) => !names.has(a.name)),
        r.attachments.map((a) => makeAttachment(a.name, a.text)),
      );
      form.setAttachments(list);
      if (refused.length) setResult({ ...r, notes: [...r.notes, ...refused] });
    } catch (err) {
      setResult(null);
      setError(err instanceof ApiError ? (err.details?.message ?? `The server answered ${err.status}.`) : `${hostName} could not be asked. Check your connection.`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box>
      <Button
        variant="outlined"
        onClick={pull}
        disabled={busy}
        startIcon={busy ? <CircularProgress size={18} /> : <SettingsInputAntennaRounded />}
        sx={{ width: { xs: '100%', sm: 'auto' } }}
      >
        {busy ? `Asking ${hostName}...` : 'Diagnose the last print'}
      </Button>
      {error && (
        <Alert severity="error" sx={{ mt: 1.5 }}>
          {error}
        </Alert>
      )}
      {result && (
        <Alert severity="info" sx={{ mt: 1.5, overflowWrap: 'anywhere' }} data-testid="printer-says">
          <AlertTitle>What the printer says</AlertTitle>
          <Typography variant="body2">{result.summary}</Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            {[result.software, result.attachments.length ? `attached ${result.attachments.map((a) => a.name).join(', ')}` : '']
              .filter(Boolean)
              .join(' · ')}
            . Review the form below, then analyze.
          </Typography>
          {result.notes.length > 0 && (
            <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2.5 }}>
              {result.notes.map((n) => (
                <Typography component="li" variant="caption" key={n}>
                  {n}
                </Typography>
              ))}
            </Box>
          )}
        </Alert>
      )}
    </Box>
  );
}
