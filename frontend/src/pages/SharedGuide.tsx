// /share/:shareId: a shared troubleshooting guide, read-only, public.
import { useEffect, type ReactNode } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import useSWR from 'swr';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ErrorOutlineRounded from '@mui/icons-material/ErrorOutlineRounded';
import PersonAddAlt1Rounded from '@mui/icons-material/PersonAddAlt1Rounded';
import RocketLaunchRounded from '@mui/icons-material/RocketLaunchRounded';
import SearchOffRounded from '@mui/icons-material/SearchOffRounded';
import ShareRounded from '@mui/icons-material/ShareRounded';
import { ApiError, getSharedResult, type SharedResult } from '../api/client';
import { useToast } from '../components/Toast';
import { copyText } from '../features/troubleshoot/clipboard';
import { SHARED_LOAD_FAILED, SHARED_PAGE_COPY_FAILED } from '../features/troubleshoot/errors';
import { AdditionalTips, IssueAnalysis, RecommendedSolutions } from '../features/troubleshoot/ResultView';

// useNoReferrer keeps the share id out of the Referer header of links followed from this page.
function useNoReferrer() {
  useEffect(() => {
    const meta = document.createElement('meta');
    meta.name = 'referrer';
    meta.content = 'no-referrer';
    document.head.appendChild(meta);
    return () => meta.remove();
  }, []);
}

const APP_TITLE = 'Layerfix - AI 3D Print Troubleshooting';

// useGuideTitle names the tab after the guide, as the server's page does for link previews,
// and gives the next screen the app's own title back.
function useGuideTitle(title: string | undefined) {
  useEffect(() => {
    if (title) document.title = `${title} – Layerfix`;
  }, [title]);
  useEffect(
    () => () => {
      document.title = APP_TITLE;
    },
    [],
  );
}

function StateCard({ icon, title, text, action }: { icon: ReactNode; title: string; text: string; action: ReactNode }) {
  return (
    <Container maxWidth="sm" sx={{ py: { xs: 8, md: 12 } }}>
      <Card>
        <CardContent sx={{ p: 4, textAlign: 'center' }}>
          <Box sx={{ color: 'text.secondary', mb: 1 }}>{icon}</Box>
          <Typography variant="h5" component="h1" gutterBottom>
            {title}
          </Typography>
          <Typography sx={{ color: 'text.secondary', mb: 3 }}>{text}</Typography>
          {action}
        </CardContent>
      </Card>
    </Container>
  );
}

export default function SharedGuide() {
  const { shareId = '' } = useParams();
  const { toast } = useToast();
  const { data, error, isLoading, mutate } = useSWR<SharedResult>(shareId ? ['share', shareId] : null, () =>
    getSharedResult(shareId),
  );
  useNoReferrer();
  useGuideTitle(data?.title);

  if (isLoading || (!data && !error)) {
    return (
      <Stack spacing={2} sx={{ alignItems: 'center', py: 16 }} role="status">
        <CircularProgress />
        <Typography sx={{ color: 'text.secondary' }}>Loading troubleshooting guide...</Typography>
      </Stack>
    );
  }
  if (error || !data) {
    // 404 (or any other refusal of the id) is a missing guide; a network or server failure can be retried.
    const missing = error instanceof ApiError && error.status >= 400 && error.status < 500;
    if (!missing) {
      return (
        <StateCard
          icon={<ErrorOutlineRounded sx={{ fontSize: 48 }} />}
          title={SHARED_LOAD_FAILED}
          text="Please check your connection and try again."
          action={
            <Button variant="contained" onClick={() => void mutate()}>
              Try Again
            </Button>
          }
        />
      );
    }
    return (
      <StateCard
        icon={<SearchOffRounded sx={{ fontSize: 48 }} />}
        title="Guide Not Found"
        text="The troubleshooting guide you're looking for doesn't exist or has expired."
        action={
          <Button component={RouterLink} to="/preview" variant="contained">
            Troubleshoot Your Own Print
          </Button>
        }
      />
    );
  }

  const result = data.troubleshootingData;
  const copyLink = async () => {
    try {
      await copyText(window.location.href);
      toast({ title: 'Link copied!', description: 'Share it with anyone who has the same problem.', variant: 'success' });
    } catch {
      toast({ title: 'Error', description: SHARED_PAGE_COPY_FAILED, variant: 'destructive' });
    }
  };
  const created = new Date(data.createdAt);

  return (
    <Container maxWidth="md" sx={{ py: { xs: 3, md: 5 } }}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ alignItems: { xs: 'stretch', sm: 'flex-start' }, justifyContent: 'space-between', mb: 3 }}
      >
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="overline" sx={{ color: 'primary.main', fontWeight: 700 }}>
            Shared Troubleshooting Guide
          </Typography>
          <Typography variant="h4" component="h1" sx={{ fontSize: { xs: 24, md: 30 }, overflowWrap: 'anywhere' }}>
            {data.title}
          </Typography>
          {!Number.isNaN(created.getTime()) && (
            <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5 }}>
              Shared on {created.toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' })}
            </Typography>
          )}
        </Box>
        <Stack direction="row" spacing={1} sx={{ flexShrink: 0 }}>
          <Button variant="outlined" startIcon={<ShareRounded />} onClick={copyLink} sx={{ flex: { xs: 1, sm: 'none' } }}>
            Share
          </Button>
          <Button
            component={RouterLink}
            to="/login?mode=signup"
            variant="contained"
            startIcon={<PersonAddAlt1Rounded />}
            sx={{ flex: { xs: 1, sm: 'none' } }}
          >
            Sign Up
          </Button>
        </Stack>
      </Stack>
      <Stack spacing={2.5}>
        <IssueAnalysis summary={result.summary} />
        <RecommendedSolutions steps={result.steps} />
        <AdditionalTips tips={result.additionalTips} />
        <Card sx={{ bgcolor: 'rgba(234, 88, 12, 0.06)', borderColor: 'rgba(234, 88, 12, 0.35)' }}>
          <CardContent sx={{ p: { xs: 3, sm: 4 }, textAlign: 'center' }}>
            <RocketLaunchRounded sx={{ fontSize: 40, color: 'primary.main', mb: 1 }} />
            <Typography variant="h5" component="h2" gutterBottom>
              Get Started for Free
            </Typography>
            <Typography sx={{ color: 'text.secondary', maxWidth: 520, mx: 'auto', mb: 3 }}>
              Have a print problem of your own? Describe it, add a photo, and get prioritized fixes in seconds. 3 free
              credits a month, no sign-up or credit card required.
            </Typography>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ justifyContent: 'center' }}>
              <Button component={RouterLink} to="/preview" variant="contained" size="large">
                Try It Free
              </Button>
              <Button component={RouterLink} to="/login?mode=signup" variant="outlined" size="large">
                Create Free Account
              </Button>
            </Stack>
          </CardContent>
        </Card>
      </Stack>
    </Container>
  );
}
