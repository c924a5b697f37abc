import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { TOOLTIP_ENTER_DELAY_MS } from '../../theme';
import { categoryBadge } from './badges';
import { monthLabel, recentMonths, resolvedPercent, type PrinterHistory } from './history';

// PrinterHistoryView is the small history block of a printer card: a bar per month, the share
// resolved and the most frequent categories.
export function PrinterHistoryView({ history }: { history: PrinterHistory }) {
  if (history.total === 0) return null;
  const months = recentMonths(history.months);
  const max = Math.max(1, ...months.map((m) => m.count));
  const percent = resolvedPercent(history);
  return (
    <Box data-testid="printer-history" sx={{ mt: 2, pt: 1.5, borderTop: 1, borderColor: 'divider' }}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'baseline', mb: 1 }}>
        <Typography variant="caption" sx={{ color: 'text.secondary', fontWeight: 600 }}>
          {history.total} {history.total === 1 ? 'issue' : 'issues'}
        </Typography>
        <Typography variant="caption" sx={{ color: percent >= 50 ? 'success.main' : 'text.secondary', fontWeight: 600 }}>
          {percent}% resolved
        </Typography>
      </Stack>
      <Box
        role="img"
        aria-label={`Issues per month: ${months.map((m) => `${monthLabel(m.month)} ${m.count}`).join(', ')}`}
        sx={{ display: 'grid', gridTemplateColumns: `repeat(${months.length}, 1fr)`, gap: 0.75, alignItems: 'end' }}
      >
        {months.map((m) => (
          <Tooltip key={m.month} title={`${monthLabel(m.month)}: ${m.count}`} enterDelay={TOOLTIP_ENTER_DELAY_MS}>
            <Stack spacing={0.25} sx={{ alignItems: 'center' }}>
              <Box sx={{ height: 32, width: '100%', display: 'flex', alignItems: 'flex-end' }}>
                <Box
                  sx={{
                    width: '100%',
                    height: `${Math.max(m.count ? 18 : 6, (m.count / max) * 100)}%`,
                    borderRadius: 0.75,
                    bgcolor: m.count ? 'primary.main' : 'divider',
                    opacity: m.count ? 0.85 : 1,
                  }}
                />
              </Box>
              <Typography sx={{ fontSize: 10, color: 'text.secondary', lineHeight: 1 }}>{monthLabel(m.month)}</Typography>
            </Stack>
          </Tooltip>
        ))}
      </Box>
      {history.topCategories.length > 0 && (
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5, mt: 1.25 }}>
          {history.topCategories.map((c) => (
            <Chip key={c.category} size="small" variant="outlined" label={`${c.label || categoryBadge(c.category).label} · ${c.count}`} sx={{ maxWidth: '100%' }} />
          ))}
        </Stack>
      )}
    </Box>
  );
}
