import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CheckCircleRounded from '@mui/icons-material/CheckCircleRounded';
import EventRounded from '@mui/icons-material/EventRounded';
import PrintRounded from '@mui/icons-material/PrintRounded';
import type { Issue } from '../../api/client';
import { CategoryBadge, StatusBadge } from './Badges';
import { shownCategory } from './badges';
import { twoLines } from './RecentIssues';
import { formatDate, UNKNOWN_BRAND, UNKNOWN_PRINTER } from './savedIssue';

export function printerText(issue: Issue): string {
  return issue.printer ? `${issue.printer.name} (${issue.printer.brand})` : `${UNKNOWN_PRINTER} (${UNKNOWN_BRAND})`;
}

// IssueCard is one issue of /issues; clicking it opens the results screen.
export function IssueCard({ issue, onOpen }: { issue: Issue; onOpen: () => void }) {
  const resolved = issue.status === 'resolved';
  const working = issue.workingRecommendations ?? [];
  return (
    <Card data-testid="issue-card" data-issue-id={issue.id}>
      <CardActionArea onClick={onOpen} sx={{ height: '100%' }}>
        <CardContent sx={{ p: { xs: 2, sm: 2.5 } }}>
          <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 1.25 }}>
            <CategoryBadge category={shownCategory(issue)} />
            <StatusBadge status={issue.status} />
            <Typography variant="caption" sx={{ color: 'text.secondary', ml: 'auto' }}>
              Issue ID #{issue.id}
            </Typography>
          </Stack>
          <Typography sx={{ mb: 1.25, ...twoLines }}>{issue.description}</Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ columnGap: 2.5, rowGap: 0.5, color: 'text.secondary' }}>
            <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center', minWidth: 0 }}>
              <PrintRounded sx={{ fontSize: 16 }} />
              <Typography variant="body2" noWrap>
                {printerText(issue)}
              </Typography>
            </Stack>
            <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center' }}>
              <EventRounded sx={{ fontSize: 16 }} />
              <Typography variant="body2">Created {formatDate(issue.createdAt)}</Typography>
            </Stack>
            {resolved && issue.resolvedAt && (
              <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center', color: 'success.main' }}>
                <CheckCircleRounded sx={{ fontSize: 16 }} />
                <Typography variant="body2">Resolved {formatDate(issue.resolvedAt)}</Typography>
              </Stack>
            )}
          </Stack>
          {resolved && working.length > 0 && (
            <Box sx={{ mt: 1.5, p: 1.5, borderRadius: 2, bgcolor: 'rgba(22, 163, 74, 0.08)' }} data-testid="working-solutions">
              <Typography variant="caption" sx={{ fontWeight: 700, color: 'success.main', display: 'block', mb: 0.5 }}>
                Working solutions
              </Typography>
              <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
                {working.map((w) => (
                  <Typography component="li" variant="body2" key={w}>
                    {w}
                  </Typography>
                ))}
              </Box>
            </Box>
          )}
        </CardContent>
      </CardActionArea>
    </Card>
  );
}
