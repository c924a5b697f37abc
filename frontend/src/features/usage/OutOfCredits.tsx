import { TIER_NAMES } from '../../plans';
import { LimitReachedAlert } from './LimitReachedAlert';
import { isKnownTier } from './usage';
import { formatResetDate, useUsage } from './useUsage';

/** At 0 credits the report form says so first, before the maker types a long description. */
export function OutOfCredits() {
  const { usage, resetsAt } = useUsage();
  if (!usage?.showLimitReached) return null;
  const plan = isKnownTier(usage.tier) ? TIER_NAMES[usage.tier] : usage.tier;
  return (
    <LimitReachedAlert
      usage={usage}
      resetDate={formatResetDate(resetsAt)}
      lead={`All ${usage.limit} credits of your ${plan} plan are used this month, so no new analysis can run until they reset.`}
      sx={{ mb: 2 }}
    />
  );
}
