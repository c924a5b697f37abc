import { Link as RouterLink } from 'react-router-dom';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import BoltRounded from '@mui/icons-material/BoltRounded';
import { useUsage } from './useUsage';

const CHIP_COLOR = { 'limit-reached': 'error', low: 'warning', normal: 'default' } as const;

/** The compact '{used}/{limit} credits used' badge of the signed-in navigation. */
export function UsageBadge() {
  const { usage } = useUsage();
  if (!usage) {
    return <Skeleton variant="rounded" width={150} height={28} sx={{ borderRadius: 4 }} data-testid="usage-badge-loading" />;
  }
  const color = CHIP_COLOR[usage.state];
  return (
    <Chip
      data-testid="usage-badge"
      component={RouterLink}
      to="/subscribe"
      clickable
      size="small"
      icon={<BoltRounded />}
      label={usage.badgeText}
      color={color}
      variant={color === 'default' ? 'outlined' : 'filled'}
      sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
    />
  );
}

export default UsageBadge;
