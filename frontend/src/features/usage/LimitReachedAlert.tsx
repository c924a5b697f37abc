import { Link as RouterLink } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { config } from '../../config';
import { LIMIT_REACHED_TEXT, TOP_TIER_TEXT, topTierHelpText, type Usage } from './usage';

/**
 * "You've reached your limit": when the credits return and what the maker can do meanwhile. A
 * lower plan can upgrade; the largest plan is told whom to ask, with the operator's contact.
 * `lead` is said first (the report form says no analysis can run until then).
 */
export function LimitReachedAlert({ usage, resetDate, lead, sx }: { usage: Usage; resetDate: string; lead?: string; sx?: object }) {
  const resets = resetDate ? `Your credits reset on ${resetDate}.` : 'Your credits reset next month.';
  return (
    <Alert severity="error" sx={sx} data-testid="limit-reached-alert">
      <AlertTitle sx={{ mb: 0.25 }}>{LIMIT_REACHED_TEXT}</AlertTitle>
      {lead ? `${lead} ${resets}` : resets}
      {usage.isTopTier ? (
        <Box sx={{ mt: 1 }} data-testid="top-tier-note">
          {TOP_TIER_TEXT} {topTierHelpText(config.operatorName)}
          {config.contactEmail && (
            <>
              {' '}
              Contact: <Link href={`mailto:${config.contactEmail}`} underline="always">{config.contactEmail}</Link>
            </>
          )}
        </Box>
      ) : (
        <Box sx={{ mt: 1.5 }}>
          <Button component={RouterLink} to="/subscribe" variant="contained" color="error" size="small">
            Upgrade Now
          </Button>
        </Box>
      )}
    </Alert>
  );
}
