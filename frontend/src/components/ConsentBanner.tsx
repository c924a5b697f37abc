// Asks before any third-party analytics is loaded: shown only when this server has an analytics id
// and the visitor has not answered. Declining (or not answering) loads and sends nothing.
import { useEffect, useState } from 'react';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { analyticsConfigured, readConsent, setConsent, trackPageView } from '../analytics';

export const CONSENT_EVENT = 'layerfix:consent-reset';

export function ConsentBanner() {
  const [open, setOpen] = useState(() => analyticsConfigured() && readConsent() === null);
  const { pathname } = useLocation();
  // The footer's 'Analytics settings' asks again.
  useEffect(() => {
    const ask = () => setOpen(analyticsConfigured());
    window.addEventListener(CONSENT_EVENT, ask);
    return () => window.removeEventListener(CONSENT_EVENT, ask);
  }, []);
  if (!open) return null;
  const choose = (value: 'granted' | 'denied') => {
    setConsent(value);
    setOpen(false);
    if (value === 'granted') trackPageView(pathname);
  };
  return (
    <Paper
      role="region"
      aria-label="Analytics consent"
      elevation={8}
      sx={{
        position: 'fixed',
        zIndex: (t) => t.zIndex.snackbar,
        left: { xs: 8, sm: 16 },
        right: { xs: 8, sm: 'auto' },
        bottom: { xs: 8, sm: 16 },
        maxWidth: 440,
        p: 2,
      }}
    >
      <Typography variant="body2" sx={{ mb: 1.5 }}>
        May this site measure visits with Google Analytics and the Meta pixel? They are loaded only if you agree and
        see page names only, never your issues, links or codes.{' '}
        <Link component={RouterLink} to="/privacy-policy">
          Privacy Policy
        </Link>
      </Typography>
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
        <Button variant="outlined" size="small" onClick={() => choose('denied')}>
          Decline
        </Button>
        <Button variant="contained" size="small" onClick={() => choose('granted')}>
          Accept
        </Button>
      </Stack>
    </Paper>
  );
}

/** Forgets the choice and shows the banner again. */
export function reopenConsent(): void {
  setConsent(null);
  window.dispatchEvent(new Event(CONSENT_EVENT));
}
