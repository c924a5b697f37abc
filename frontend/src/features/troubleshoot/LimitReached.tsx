import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import EventRepeatRounded from '@mui/icons-material/EventRepeatRounded';
import HourglassBottomRounded from '@mui/icons-material/HourglassBottomRounded';
import { formatResetDate } from '../usage/useUsage';

// LimitReached replaces the form once the anonymous allowance is used up; it says the day the free
// credits return when the server gave it.
export function LimitReached({ limit, resetsAt }: { limit: number; resetsAt?: string }) {
  const resetDate = formatResetDate(resetsAt);
  return (
    <Box data-testid="limit-reached" sx={{ textAlign: 'center', py: { xs: 2, sm: 4 }, px: { xs: 0, sm: 4 } }}>
      <Box
        sx={{
          width: 64,
          height: 64,
          mx: 'auto',
          mb: 2,
          borderRadius: '50%',
          display: 'grid',
          placeItems: 'center',
          bgcolor: 'rgba(217, 119, 6, 0.12)',
          color: 'warning.main',
        }}
      >
        <HourglassBottomRounded sx={{ fontSize: 32 }} />
      </Box>
      <Typography variant="h5" component="h2" gutterBottom>
        You&apos;ve used all your free credits!
      </Typography>
      <Typography sx={{ color: 'text.secondary', maxWidth: 480, mx: 'auto' }}>
        You have used all {limit} free analyses for this month. A free account keeps a log of your printers and issues, and
        the analyses used here count toward its month; pick a plan for more monthly troubleshooting sessions right away.
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ justifyContent: 'center', mt: 3 }}>
        <Button component={RouterLink} to="/login?mode=signup" variant="contained" size="large">
          Create Free Account
        </Button>
        <Button component={RouterLink} to="/pricing" variant="outlined" size="large">
          View Pricing Plans
        </Button>
      </Stack>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'center', mt: 3, color: 'text.secondary' }}>
        <EventRepeatRounded fontSize="small" />
        <Typography variant="body2" data-testid="limit-reset">
          {resetDate ? `Your free credits reset on ${resetDate}.` : 'Your free credits reset next month.'}
        </Typography>
      </Stack>
    </Box>
  );
}
