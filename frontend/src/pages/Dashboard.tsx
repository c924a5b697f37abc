// /dashboard: greeting, counts, printers, recent issues, usage and the modals.
import { useEffect, useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Container from '@mui/material/Container';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddCircleOutlineRounded from '@mui/icons-material/AddCircleOutlineRounded';
import HourglassTopRounded from '@mui/icons-material/HourglassTopRounded';
import PrintRounded from '@mui/icons-material/PrintRounded';
import RocketLaunchRounded from '@mui/icons-material/RocketLaunchRounded';
import TaskAltRounded from '@mui/icons-material/TaskAltRounded';
import type { Printer } from '../api/client';
import { useAuth } from '../auth/useAuth';
import { UsageCard } from '../features/usage/UsageCard';
import { useIssueSummary, usePrinters } from '../features/workspace/hooks';
import { usePrinterHistory } from '../features/workspace/history';
import { AddPrinterCard, PrinterCard } from '../features/workspace/PrinterCard';
import { DeletePrinterDialog, PrinterDialog } from '../features/workspace/PrinterDialog';
import { RecentIssues } from '../features/workspace/RecentIssues';
import { usePrinterActions } from '../features/workspace/usePrinterActions';

// firstName is the first word of the display name.
export function firstName(displayName: string | null | undefined): string {
  return (displayName ?? '').trim().split(/\s+/)[0] ?? '';
}

const WELCOMED_PREFIX = 'layerfix.welcomed.';

// useFirstVisit is true on the first dashboard an account sees in this browser (remembered by the
// account's id only): its maker is welcomed, not welcomed back.
function useFirstVisit(userId: number | undefined): boolean {
  const [first] = useState(() => {
    try {
      return userId !== undefined && localStorage.getItem(WELCOMED_PREFIX + userId) === null;
    } catch {
      return false;
    }
  });
  useEffect(() => {
    if (userId === undefined) return;
    try {
      localStorage.setItem(WELCOMED_PREFIX + userId, '1');
    } catch {
      // Private mode: the next visit says "Welcome" again, which is never wrong.
    }
  }, [userId]);
  return first;
}

export function greeting(name: string, firstVisit: boolean): string {
  const hello = firstVisit ? 'Welcome' : 'Welcome back';
  return name ? `${hello}, ${name}!` : `${hello}!`;
}

function Stat({ icon, label, value, loading, note }: { icon: ReactNode; label: string; value: number; loading: boolean; note?: string }) {
  return (
    <Card sx={{ flex: 1, minWidth: 0 }}>
      <CardContent sx={{ p: { xs: 1.5, sm: 2.5 }, '&:last-child': { pb: { xs: 1.5, sm: 2.5 } } }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0.5, sm: 1.5 }} sx={{ alignItems: { xs: 'flex-start', sm: 'center' } }}>
          <Box sx={{ color: 'primary.main', display: 'flex' }}>{icon}</Box>
          <Box>
            <Typography sx={{ fontSize: { xs: 22, sm: 28 }, fontWeight: 800, lineHeight: 1.1 }} data-testid={`stat-${label}`}>
              {loading ? <Skeleton width={32} /> : value}
            </Typography>
            <Typography variant="body2" sx={{ color: 'text.secondary', fontSize: { xs: 12, sm: 14 } }}>
              {label}
            </Typography>
            {note && !loading && (
              <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block' }} data-testid={`stat-${label}-note`}>
                {note}
              </Typography>
            )}
          </Box>
        </Stack>
      </CardContent>
    </Card>
  );
}

function UpgradeCard() {
  return (
    <Card sx={{ background: 'linear-gradient(135deg, rgba(234,88,12,0.12), rgba(15,118,110,0.10))' }}>
      <CardContent sx={{ p: 3 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
          <RocketLaunchRounded color="primary" />
          <Typography variant="h6" component="h2">
            Upgrade Your Plan
          </Typography>
        </Stack>
        <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
          Get more AI troubleshooting sessions every month for every printer you run.
        </Typography>
        <Button component={RouterLink} to="/subscribe" variant="contained" fullWidth>
          View Plans
        </Button>
      </CardContent>
    </Card>
  );
}

type Modal = { kind: 'none' } | { kind: 'add' } | { kind: 'edit'; printer: Printer };

export default function Dashboard() {
  const { user } = useAuth();
  const { printers, loading: printersLoading } = usePrinters();
  // Counts and the newest issues come from the server's summary: a farm's whole log never loads here.
  const { summary, loading: issuesLoading } = useIssueSummary();
  const actions = usePrinterActions();
  const [modal, setModal] = useState<Modal>({ kind: 'none' });
  const [deleting, setDeleting] = useState<Printer | null>(null);
  const history = usePrinterHistory();

  const name = firstName(user?.displayName);
  const firstVisit = useFirstVisit(user?.id);
  // Open work is every issue not resolved yet: new (pending) ones and those being worked on.
  const inProgress = summary?.inProgress ?? 0;
  const open = summary?.open ?? 0;
  const resolved = summary?.resolved ?? 0;
  const subscribed = user?.subscriptionStatus === 'active';

  return (
    <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ justifyContent: 'space-between', alignItems: { xs: 'stretch', sm: 'center' }, mb: 3 }}
      >
        <Box>
          <Typography variant="h4" component="h1" sx={{ fontSize: { xs: 26, md: 32 } }}>
            {greeting(name, firstVisit)}
          </Typography>
          <Typography sx={{ color: 'text.secondary' }}>Your printers, your issues and what fixed them.</Typography>
        </Box>
        <Button component={RouterLink} to="/report-issue" variant="contained" size="large" startIcon={<AddCircleOutlineRounded />}>
          New Issue
        </Button>
      </Stack>

      <Stack direction="row" spacing={{ xs: 1, sm: 2 }} sx={{ mb: 3 }}>
        <Stat icon={<PrintRounded />} label="Printers" value={printers.length} loading={printersLoading} />
        <Stat icon={<HourglassTopRounded />} label="Open" value={open} loading={issuesLoading} note={`${inProgress} in progress`} />
        <Stat icon={<TaskAltRounded />} label="Resolved" value={resolved} loading={issuesLoading} />
      </Stack>

      {/* On a phone the credits come right after the counts, before the fleet. */}
      <Box
        sx={{
          display: 'grid',
          gap: 3,
          gridTemplateColumns: { xs: '1fr', md: 'minmax(0, 2fr) minmax(0, 1fr)' },
          gridTemplateAreas: { xs: '"usage" "main" "side"', md: '"main usage" "main side"' },
          gridTemplateRows: { md: 'auto 1fr' },
          alignItems: 'start',
        }}
      >
        <Box sx={{ gridArea: 'usage', minWidth: 0 }}>
          <UsageCard />
        </Box>
        <Stack spacing={3} sx={{ minWidth: 0, gridArea: 'main' }}>
          <Box component="section" aria-labelledby="printers-title">
            <Typography id="printers-title" variant="h6" component="h2" sx={{ mb: 1.5 }}>
              Your Printers
            </Typography>
            <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' } }}>
              {printersLoading
                ? [0, 1].map((i) => <Skeleton key={i} variant="rounded" height={170} />)
                : printers.map((p) => (
                    <PrinterCard key={p.id} printer={p} history={history.get(p.id)} onEdit={() => setModal({ kind: 'edit', printer: p })} />
                  ))}
              <AddPrinterCard onClick={() => setModal({ kind: 'add' })} />
            </Box>
          </Box>
          <RecentIssues issues={summary?.recent ?? []} loading={issuesLoading} />
        </Stack>
        {!subscribed && (
          <Box sx={{ gridArea: 'side', minWidth: 0 }}>
            <UpgradeCard />
          </Box>
        )}
      </Box>

      {modal.kind !== 'none' && (
        <PrinterDialog
          key={modal.kind === 'edit' ? modal.printer.id : 'add'}
          open
          printer={modal.kind === 'edit' ? modal.printer : null}
          saving={actions.busy}
          onClose={() => setModal({ kind: 'none' })}
          onSave={async (values) => {
            const ok = modal.kind === 'edit' ? await actions.update(modal.printer, values) : await actions.add(values);
            if (ok) setModal({ kind: 'none' });
          }}
          onDelete={
            modal.kind === 'edit'
              ? () => {
                  setDeleting(modal.printer);
                  setModal({ kind: 'none' });
                }
              : undefined
          }
        />
      )}
      <DeletePrinterDialog
        printer={deleting}
        deleting={actions.busy}
        onCancel={() => setDeleting(null)}
        onConfirm={async () => {
          if (deleting && (await actions.remove(deleting))) setDeleting(null);
        }}
      />
    </Container>
  );
}
