import { Link as RouterLink } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AutoAwesomeRounded from '@mui/icons-material/AutoAwesomeRounded';
import { TIER_NAMES } from '../../plans';
import { LimitReachedAlert } from './LimitReachedAlert';
import { isKnownTier, RUNNING_LOW_TEXT, UPGRADE_HINT_TEXT } from './usage';
import { formatResetDate, useUsage } from './useUsage';

const TITLE = 'AI Troubleshooting Sessions';

function CardSkeleton() {
  return (
    <Card data-testid="usage-card-loading" aria-busy="true" aria-label={TITLE}>
      <CardContent sx={{ p: 3 }}>
        <Skeleton width="60%" height={32} />
        <Skeleton width="35%" sx={{ mt: 2 }} />
        <Skeleton width="50%" height={40} />
        <Skeleton variant="rounded" height={10} sx={{ my: 1.5 }} />
        <Skeleton width="40%" />
        <Skeleton variant="rounded" height={40} sx={{ mt: 3 }} />
      </CardContent>
    </Card>
  );
}

/** The dashboard usage card: bar, remaining credits, warnings and Get More. */
export function UsageCard() {
  const { usage, resetsAt } = useUsage();
  if (!usage) return <CardSkeleton />;

  const planName = isKnownTier(usage.tier) ? TIER_NAMES[usage.tier] : usage.tier;
  const resetDate = formatResetDate(resetsAt);
  const remainingText = `${usage.remaining} ${usage.remaining === 1 ? 'credit' : 'credits'} remaining`;

  return (
    <Card data-testid="usage-card">
      <CardContent sx={{ p: 3 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 2 }}>
          <AutoAwesomeRounded color="primary" />
          <Typography variant="h6" component="h2" sx={{ flexGrow: 1, fontSize: '1.0625rem', lineHeight: 1.3 }}>
            {TITLE}
          </Typography>
          {usage.showGetMore && (
            <Button component={RouterLink} to="/subscribe" size="small" variant="contained" sx={{ flexShrink: 0 }}>
              Get More
            </Button>
          )}
        </Stack>

        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'baseline', gap: 1 }}>
          <Typography variant="body2" color="text.secondary">
            Used this month
          </Typography>
          <Typography variant="caption" color="text.secondary" data-testid="usage-plan">
            {planName} plan
          </Typography>
        </Stack>
        <Typography variant="h5" component="p" data-testid="usage-credits" sx={{ mt: 0.5 }}>
          {usage.creditsText}
        </Typography>
        <LinearProgress
          variant="determinate"
          value={usage.percent}
          color={usage.barColor}
          data-testid="usage-bar"
          data-color={usage.barColor}
          aria-label="Credits used this month"
          sx={{ height: 10, borderRadius: 5, my: 1.5 }}
        />
        <Stack direction="row" sx={{ justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
          <Typography
            variant="body2"
            data-testid="usage-remaining"
            data-color={usage.remainingColor}
            sx={{ color: `${usage.remainingColor}.main`, fontWeight: 600 }}
          >
            {remainingText}
          </Typography>
          {resetDate && (
            <Typography variant="body2" color="text.secondary">
              Resets {resetDate}
            </Typography>
          )}
        </Stack>

        {usage.showLimitReached && <LimitReachedAlert usage={usage} resetDate={resetDate} sx={{ mt: 2 }} />}
        {usage.showRunningLow && (
          <Alert severity="warning" sx={{ mt: 2 }}>
            {RUNNING_LOW_TEXT}
          </Alert>
        )}
        {usage.showUpgradeHint && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
            {UPGRADE_HINT_TEXT}
          </Typography>
        )}

        <Box sx={{ mt: 3 }}>
          <Button component={RouterLink} to="/subscribe" variant="outlined" fullWidth>
            Manage Subscription
          </Button>
        </Box>
      </CardContent>
    </Card>
  );
}

export default UsageCard;
