import { Link as RouterLink, useNavigate } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Divider from '@mui/material/Divider';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ChevronRightRounded from '@mui/icons-material/ChevronRightRounded';
import type { Issue } from '../../api/client';
import { categoryBadge, shownCategory } from './badges';
import { StatusBadge } from './Badges';
import { formatDate, handOffIssue, issuePath, UNKNOWN_PRINTER } from './savedIssue';

export const RECENT_ISSUES = 3;

// recentIssues is the newest three issues.
export function recentIssues(issues: readonly Issue[], n = RECENT_ISSUES): Issue[] {
  return [...issues].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt)).slice(0, n);
}

export const twoLines = {
  display: '-webkit-box',
  WebkitLineClamp: 2,
  WebkitBoxOrient: 'vertical',
  overflow: 'hidden',
  overflowWrap: 'anywhere',
} as const;

export function RecentIssues({ issues, loading }: { issues: readonly Issue[]; loading: boolean }) {
  const navigate = useNavigate();
  const view = (issue: Issue) => {
    handOffIssue(issue);
    navigate(issuePath(issue.id));
  };
  const recent = recentIssues(issues);
  return (
    <Card component="section" aria-labelledby="recent-issues-title">
      <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
          <Typography id="recent-issues-title" variant="h6" component="h2">
            Recent Issues
          </Typography>
          {issues.length > 0 && (
            <Button component={RouterLink} to="/issues" size="small" endIcon={<ChevronRightRounded />}>
              View All
            </Button>
          )}
        </Stack>
        {loading ? (
          <Stack spacing={1.5}>
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} variant="rounded" height={72} />
            ))}
          </Stack>
        ) : recent.length === 0 ? (
          <Box sx={{ textAlign: 'center', py: 3 }}>
            <Typography sx={{ color: 'text.secondary', mb: 1.5 }}>No issues reported yet</Typography>
            <Button component={RouterLink} to="/report-issue" variant="outlined">
              Report an Issue
            </Button>
          </Box>
        ) : (
          <Stack divider={<Divider flexItem />}>
            {recent.map((issue) => (
              <Stack
                key={issue.id}
                data-testid="recent-issue"
                direction="row"
                spacing={1.5}
                sx={{ py: 1.5, alignItems: 'center' }}
              >
                <Box sx={{ minWidth: 0, flexGrow: 1 }}>
                  <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', columnGap: 1, rowGap: 0.5, mb: 0.5 }}>
                    <Typography sx={{ fontWeight: 700 }}>{categoryBadge(shownCategory(issue)).label}</Typography>
                    <StatusBadge status={issue.status} />
                  </Stack>
                  <Typography variant="body2" sx={{ color: 'text.secondary', ...twoLines }}>
                    {issue.description}
                  </Typography>
                  <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                    {issue.printer?.name ?? UNKNOWN_PRINTER} · {formatDate(issue.createdAt)}
                  </Typography>
                </Box>
                <Button size="small" variant="text" onClick={() => view(issue)} aria-label={`View issue ${issue.id}`} sx={{ flexShrink: 0 }}>
                  View
                </Button>
              </Stack>
            ))}
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}
