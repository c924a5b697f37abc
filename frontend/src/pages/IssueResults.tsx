// /issues/:id: one saved issue at its own address (owner only), so it can be bookmarked, opened
// in another tab or reloaded. Another account's issue, or one that does not exist, is the
// not-found screen.
import { useEffect, useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useNavigationType, useParams } from 'react-router-dom';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ArrowBackRounded from '@mui/icons-material/ArrowBackRounded';
import ErrorOutlineRounded from '@mui/icons-material/ErrorOutlineRounded';
import { ApiError, getIssue, type Issue } from '../api/client';
import { handedOffIssue, issueDetails, resultOf } from '../features/workspace/savedIssue';
import NotFound from './NotFound';
import { Results } from './TroubleshootingResults';

type Loaded = { issue: Issue } | { error: Error } | null;

/** The saved issue of the address; what a list handed over shows at once. */
function useSavedIssue(id: number | null): [Loaded, (issue: Issue) => void, () => void] {
  // Back and Forward fetch again: the issue may have changed since it was handed over.
  const fresh = useNavigationType() !== 'POP';
  const [loaded, setLoaded] = useState<Loaded>(() => {
    const handed = id !== null && fresh ? handedOffIssue(id) : null;
    return handed ? { issue: handed } : null;
  });
  const [attempt, setAttempt] = useState(0);
  const haveIssue = loaded !== null && 'issue' in loaded && loaded.issue.id === id;
  useEffect(() => {
    if (id === null || haveIssue) return;
    let live = true;
    getIssue(id).then(
      (issue) => live && setLoaded({ issue }),
      (error: unknown) => live && setLoaded({ error: error instanceof Error ? error : new Error(String(error)) }),
    );
    return () => {
      live = false;
    };
    // Only a new address or a retry loads again; the issue's own changes stay in the Results.
  }, [id, attempt, haveIssue]);
  const retry = () => {
    setLoaded(null);
    setAttempt((a) => a + 1);
  };
  return [loaded, (issue) => setLoaded({ issue }), retry];
}

function BackToList() {
  const navigate = useNavigate();
  const location = useLocation();
  // Opened from the list: going back returns to the same place in it (filters, Show More, scroll).
  const fromList = (location.state as { fromList?: boolean } | null)?.fromList === true;
  return (
    <Button
      component={RouterLink}
      to="/issues"
      onClick={(e: React.MouseEvent) => {
        if (!fromList) return;
        e.preventDefault();
        navigate(-1);
      }}
      startIcon={<ArrowBackRounded />}
      color="inherit"
      sx={{ mb: 1.5, ml: -1 }}
    >
      All Issues
    </Button>
  );
}

export default function IssueResults() {
  const { id: raw } = useParams();
  const id = raw && /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : null;
  const [loaded, setIssue, retry] = useSavedIssue(id);

  if (id === null) return <NotFound />;
  if (!loaded) {
    return (
      <Container maxWidth="md">
        <Stack spacing={2} sx={{ alignItems: 'center', py: { xs: 10, md: 16 } }} role="status">
          <CircularProgress size={48} />
          <Typography sx={{ color: 'text.secondary' }}>Loading the issue...</Typography>
        </Stack>
      </Container>
    );
  }
  if ('error' in loaded) {
    if (loaded.error instanceof ApiError && loaded.error.status === 404) return <NotFound />;
    return (
      <Container maxWidth="sm" sx={{ py: { xs: 6, md: 10 } }}>
        <Card>
          <CardContent sx={{ textAlign: 'center', py: 6, px: 3 }}>
            <ErrorOutlineRounded color="error" sx={{ fontSize: 48, mb: 1 }} />
            <Typography variant="h6" component="h1" sx={{ mb: 0.5 }}>
              Failed to Load the Issue
            </Typography>
            <Typography sx={{ color: 'text.secondary', mb: 2.5 }}>Check your connection and try again.</Typography>
            <Button variant="contained" onClick={retry}>
              Try Again
            </Button>
          </CardContent>
        </Card>
      </Container>
    );
  }
  const { issue } = loaded;
  return <Results key={issue.id} result={resultOf(issue)} issue={issueDetails(issue)} onSaved={setIssue} header={<BackToList />} />;
}
