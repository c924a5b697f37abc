import { Link as RouterLink } from 'react-router-dom';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import BoltRounded from '@mui/icons-material/BoltRounded';
import type { PublicUsageState } from './usePublicUsage';

// CreditsBadge shows 'N/3 free credits used', amber once the allowance is used up.
export function CreditsBadge({ usage }: { usage: PublicUsageState }) {
  const { used, limit, limitReached, isLoading } = usage;
  return (
    <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', justifyContent: 'center' }}>
      {used === undefined ? (
        isLoading && <Skeleton variant="rounded" width={170} height={32} sx={{ borderRadius: 4 }} />
      ) : (
        <Chip
          data-testid="credits-badge"
          icon={<BoltRounded />}
          label={`${used}/${limit} free credits used`}
          color={limitReached ? 'warning' : 'default'}
          variant={limitReached ? 'filled' : 'outlined'}
          sx={limitReached ? undefined : { bgcolor: 'background.paper' }}
        />
      )}
      <Link component={RouterLink} to="/pricing" sx={{ fontWeight: 600, fontSize: 14 }}>
        Get More
      </Link>
    </Stack>
  );
}
