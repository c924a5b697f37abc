// / and /preview: the anonymous troubleshooter. A signed-in
// maker who lands here (the logo, 'Back to Home', 'Try It Free') is sent to their own issue form
// and credits instead of the anonymous allowance.
import { useMemo, useState } from 'react';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { trackLead } from '../analytics';
import { useAuth } from '../auth/useAuth';
import { PageLoader } from '../components/PageLoader';
import { detailsFromIssue } from '../features/issueform/validation';
import { CreditsBadge } from '../features/troubleshoot/CreditsBadge';
import { LimitReached } from '../features/troubleshoot/LimitReached';
import { TroubleshootForm } from '../features/troubleshoot/TroubleshootForm';
import { loadSharedIssue } from '../features/troubleshoot/sharedLocal';
import type { Attachment } from '../features/attachments/attachments';
import { submitAnonymousAnalysis } from '../features/troubleshoot/submit';
import { readyToAnalyze, type FailureState } from '../features/troubleshoot/preflight';
import { ANONYMOUS_DRAFT, hasStringFields, loadFormDraft } from '../features/issueform/draft';
import { PUBLIC_USAGE_KEY, usePublicUsage } from '../features/troubleshoot/usePublicUsage';
import { EMPTY_FORM, type TroubleshootFormValues } from '../features/troubleshoot/validation';
import type { IssueDetails } from '../features/troubleshoot/session';
import type { SlicerSettings } from '../features/slicedfile/parse';

function valuesFromIssue(issue: IssueDetails): TroubleshootFormValues {
  return { printerBrand: issue.printerBrand ?? '', ...detailsFromIssue(issue) };
}

export default function Home() {
  const { user, loading } = useAuth();
  const [params] = useSearchParams();
  const signingOut = (useLocation().state as { signingOut?: boolean } | null)?.signingOut === true;
  if (loading) return <PageLoader />;
  if (user && !signingOut) {
    const share = params.get('share');
    return <Navigate to={share ? `/report-issue?share=${encodeURIComponent(share)}` : '/report-issue'} replace />;
  }
  return <AnonymousHome />;
}

const isFormValues = hasStringFields<TroubleshootFormValues>(Object.keys(EMPTY_FORM) as (keyof TroubleshootFormValues)[]);

function AnonymousHome() {
  const navigate = useNavigate();
  const location = useLocation();
  const { mutate } = useSWRConfig();
  const usage = usePublicUsage();
  const [params] = useSearchParams();
  const shareId = params.get('share');
  const shared = useMemo(() => (shareId ? loadSharedIssue(shareId) : null), [shareId]);
  // What the maker typed last is back after a failure or a reload, unless a shared issue is opened.
  const restored = useMemo(() => (shareId ? null : loadFormDraft(ANONYMOUS_DRAFT, isFormValues)), [shareId]);
  // Why the last analysis failed: from the results screen, or found here before sending.
  const [failure, setFailure] = useState((location.state as FailureState | null)?.failure ?? null);
  const [checking, setChecking] = useState(false);

  const submit = async (values: TroubleshootFormValues, photos: File[], slicer: SlicerSettings | null, attachments: Attachment[]) => {
    setFailure(null);
    setChecking(true);
    const notReady = await readyToAnalyze();
    setChecking(false);
    if (notReady) {
      setFailure(notReady);
      return;
    }
    trackLead({ content_name: 'anonymous_issue', content_category: values.category, photos: photos.length });
    submitAnonymousAnalysis(values, photos, () => void mutate(PUBLIC_USAGE_KEY), slicer, attachments);
    navigate('/troubleshooting-results');
  };

  return (
    <Box>
      <Box
        sx={{
          background: 'linear-gradient(180deg, rgba(234,88,12,0.10) 0%, rgba(234,88,12,0) 100%)',
          pt: { xs: 4, md: 7 },
          pb: { xs: 3, md: 4 },
        }}
      >
        <Container maxWidth="md" sx={{ textAlign: 'center' }}>
          <Typography
            variant="h3"
            component="h1"
            sx={{ fontSize: { xs: 30, sm: 40, md: 48 }, lineHeight: 1.1, mb: 1.5 }}
          >
            AI-Powered 3D Printing Troubleshooter
          </Typography>
          <Typography sx={{ color: 'text.secondary', fontSize: { xs: 16, md: 18 }, maxWidth: 620, mx: 'auto', mb: 2.5 }}>
            Describe what went wrong with your print and get a diagnosis with prioritized, concrete fixes in seconds. No
            sign-up or credit card required.
          </Typography>
          <CreditsBadge usage={usage} />
        </Container>
      </Box>
      <Container maxWidth="md" sx={{ pb: { xs: 4, md: 8 } }}>
        <Card sx={{ boxShadow: '0 10px 30px -12px rgba(15, 23, 42, 0.18)' }}>
          <CardContent sx={{ p: { xs: 2, sm: 4 }, '&:last-child': { pb: { xs: 2.5, sm: 4 } } }}>
            {/* The form shows at once (it is prerendered); a used-up allowance replaces it. */}
            {usage.limitReached ? (
              <LimitReached limit={usage.limit} resetsAt={usage.resetsAt} />
            ) : (
              <>
                {shared && (
                  <Alert severity="info" sx={{ mb: 3 }}>
                    The details of the issue you shared are filled in below. Adjust them and analyze again.
                  </Alert>
                )}
                <TroubleshootForm
                  key={shareId ?? 'new'}
                  initialValues={shared ? valuesFromIssue(shared) : EMPTY_FORM}
                  draftKey={ANONYMOUS_DRAFT}
                  restored={restored}
                  failure={failure}
                  submitting={checking}
                  onSubmit={(...args) => void submit(...args)}
                />
              </>
            )}
          </CardContent>
        </Card>
      </Container>
    </Box>
  );
}
