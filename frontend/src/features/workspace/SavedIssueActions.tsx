// The saved-issue parts of /troubleshooting-results: 'Mark as Resolved', the
// resolved indicator, Resolution Notes and the signed-in actions.
import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import AddCircleOutlineRounded from '@mui/icons-material/AddCircleOutlineRounded';
import CheckCircleRounded from '@mui/icons-material/CheckCircleRounded';
import DashboardRounded from '@mui/icons-material/DashboardRounded';
import EditNoteRounded from '@mui/icons-material/EditNoteRounded';
import type { TroubleshootingResult } from '../../api/client';
import { useToast } from '../../components/Toast';
import type { IssueDetails } from '../troubleshoot/session';
import { revalidateIssues } from './hooks';
import { markInProgress, NOTES_MAX, notesError, resolveErrorText, resolveSavedIssue, type SavedState } from './resolve';
import { formatDate, preselectedRecommendations } from './savedIssue';

interface DialogProps {
  steps: TroubleshootingResult['steps'];
  checked: readonly number[];
  saving: boolean;
  onCancel: () => void;
  onResolve: (working: string[], notes: string) => void;
}

// ResolveDialog asks which steps worked (the ticked ones preselected) and for optional notes.
export function ResolveDialog({ steps, checked, saving, onCancel, onResolve }: DialogProps) {
  const fullScreen = useMediaQuery('(max-width:599.95px)');
  const [working, setWorking] = useState<string[]>(() => preselectedRecommendations(steps, checked));
  const [notes, setNotes] = useState('');
  const error = notesError(notes);
  const toggle = (title: string) =>
    setWorking((w) => (w.includes(title) ? w.filter((t) => t !== title) : steps.map((s) => s.title).filter((t) => t === title || w.includes(t))));

  return (
    <Dialog open onClose={saving ? undefined : onCancel} fullWidth maxWidth="sm" fullScreen={fullScreen} aria-labelledby="resolve-title">
      <DialogTitle id="resolve-title">Mark as Resolved</DialogTitle>
      <DialogContent>
        <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1.5 }}>
          Which solutions worked? They are saved with the issue and tried first the next time this printer has a similar problem.
        </Typography>
        {steps.length > 0 && (
          <FormGroup sx={{ mb: 2 }} aria-label="Working solutions">
            {steps.map((s, i) => (
              <FormControlLabel
                key={i}
                control={<Checkbox checked={working.includes(s.title)} onChange={() => toggle(s.title)} color="success" />}
                label={s.title}
                sx={{ alignItems: 'flex-start', '& .MuiCheckbox-root': { pt: 0.5 }, '& .MuiFormControlLabel-label': { pt: 0.75 } }}
              />
            ))}
          </FormGroup>
        )}
        <TextField
          label="Resolution Notes (optional)"
          placeholder="What finally fixed it? Anything to remember next time?"
          value={notes}
          onChange={(e) => setNotes(e.target.value)}
          error={Boolean(error)}
          helperText={error ?? `${[...notes.trim()].length}/${NOTES_MAX}`}
          multiline
          minRows={3}
          fullWidth
        />
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button onClick={onCancel} disabled={saving} color="inherit">
          Cancel
        </Button>
        <Button
          variant="contained"
          color="success"
          startIcon={<CheckCircleRounded />}
          disabled={saving || Boolean(error)}
          onClick={() => onResolve(working, notes)}
        >
          Mark as Resolved
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function ResolutionNotes({ state }: { state: SavedState }) {
  return (
    <Card component="section" aria-label="Resolution Notes">
      <CardContent sx={{ p: { xs: 1.75, sm: 3 }, '&:last-child': { pb: { xs: 2, sm: 3 } } }}>
        <Stack direction="row" spacing={1.25} sx={{ alignItems: 'center', mb: 1.5 }}>
          <EditNoteRounded color="success" />
          <Typography variant="h6" component="h2" sx={{ fontSize: { xs: 18, sm: 20 } }}>
            Resolution Notes
          </Typography>
        </Stack>
        {state.workingRecommendations.length > 0 && (
          <Box sx={{ mb: 1.5 }}>
            <Typography variant="body2" sx={{ color: 'text.secondary', mb: 0.5 }}>
              What worked
            </Typography>
            <Box component="ul" sx={{ m: 0, pl: 2.5 }} data-testid="working-recommendations">
              {state.workingRecommendations.map((w) => (
                <Typography component="li" key={w} variant="body2" sx={{ fontWeight: 600 }}>
                  {w}
                </Typography>
              ))}
            </Box>
          </Box>
        )}
        <Typography variant="body2" sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere', color: state.resolutionNotes ? 'text.primary' : 'text.secondary' }}>
          {state.resolutionNotes || 'No notes were added.'}
        </Typography>
      </CardContent>
    </Card>
  );
}

interface Props {
  result: TroubleshootingResult;
  issue: (IssueDetails & { resolvedAt?: string | null }) | null;
  checked: readonly number[];
}

// SavedIssueActions is what a signed-in user sees under the result.
export function SavedIssueActions({ result, issue, checked }: Props) {
  const { toast } = useToast();
  const { mutate } = useSWRConfig();
  const id = issue?.id;
  const [state, setState] = useState<SavedState>(() => ({
    status: issue?.status ?? 'pending',
    resolvedAt: issue?.resolvedAt ?? null,
    workingRecommendations: issue?.workingRecommendations ?? [],
    resolutionNotes: issue?.resolutionNotes ?? null,
  }));
  const [dialogOpen, setDialogOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  const resolved = state.status === 'resolved';

  // The first ticked step moves a pending issue to in-progress, once.
  const started = useRef(false);
  useEffect(() => {
    if (!id || state.status !== 'pending' || checked.length === 0 || started.current) return;
    started.current = true;
    void markInProgress(id).then((ok) => {
      if (!ok) return;
      setState((s) => (s.status === 'pending' ? { ...s, status: 'in-progress' } : s));
      revalidateIssues(mutate);
    });
  }, [id, state.status, checked.length, mutate]);

  const resolve = async (working: string[], notes: string) => {
    if (!id) return;
    setSaving(true);
    try {
      setState(await resolveSavedIssue(id, working, notes));
      setDialogOpen(false);
      toast({ title: 'Issue Resolved', description: 'The fixes that worked are saved to your issue log.', variant: 'success' });
      revalidateIssues(mutate);
    } catch (err) {
      toast({ title: 'Resolution Failed', description: resolveErrorText(err), variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      {id && resolved && (
        <Alert severity="success" icon={<CheckCircleRounded />} data-testid="resolved-indicator">
          <AlertTitle sx={{ mb: 0 }}>Resolved</AlertTitle>
          {state.resolvedAt ? `This issue was marked as resolved on ${formatDate(state.resolvedAt)}.` : 'This issue is marked as resolved.'}
        </Alert>
      )}
      {id && resolved && <ResolutionNotes state={state} />}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ justifyContent: 'center', pt: 1, flexWrap: 'wrap', rowGap: 1.5 }}>
        {id && !resolved && (
          <Button variant="contained" color="success" size="large" startIcon={<CheckCircleRounded />} onClick={() => setDialogOpen(true)}>
            Mark as Resolved
          </Button>
        )}
        <Button component={RouterLink} to="/report-issue" variant="outlined" size="large" startIcon={<AddCircleOutlineRounded />}>
          Submit Another Issue
        </Button>
        <Button component={RouterLink} to="/dashboard" variant="outlined" size="large" startIcon={<DashboardRounded />}>
          Return to Dashboard
        </Button>
      </Stack>
      {dialogOpen && (
        <ResolveDialog steps={result.steps} checked={checked} saving={saving} onCancel={() => setDialogOpen(false)} onResolve={resolve} />
      )}
    </>
  );
}
