// /report-issue: the signed-in issue form. Photos are uploaded first, then the
// issue is saved and analysed in the background while the results screen waits.
import { useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import ArrowBackRounded from '@mui/icons-material/ArrowBackRounded';
import { trackLead } from '../analytics';
import { useAuth } from '../auth/useAuth';
import { useToast } from '../components/Toast';
import { detailsFromIssue } from '../features/issueform/validation';
import { loadSharedIssue } from '../features/troubleshoot/sharedLocal';
import { revalidateIssues, usePrinters } from '../features/workspace/hooks';
import { IssueForm } from '../features/workspace/IssueForm';
import type { SlicerSettings } from '../features/slicedfile/parse';
import { EMPTY_ISSUE_FORM, type IssueFormValues } from '../features/workspace/issueValidation';
import { uploadErrorToast } from '../features/workspace/issueErrors';
import type { Attachment } from '../features/attachments/attachments';
import { startIssueAnalysis, uploadPhotos } from '../features/workspace/submitIssue';
import { OutOfCredits } from '../features/usage/OutOfCredits';
import { UploadError } from '../api/client';
import { useEndSession } from '../auth/useEndSession';
import { hasStringFields, loadFormDraft, userDraftKey } from '../features/issueform/draft';
import { readyToAnalyze, type FailureState } from '../features/troubleshoot/preflight';

const isIssueFormValues = hasStringFields<IssueFormValues>(Object.keys(EMPTY_ISSUE_FORM) as (keyof IssueFormValues)[]);

export default function ReportIssue() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { toast } = useToast();
  const { mutate } = useSWRConfig();
  const { refreshUser, user } = useAuth();
  const endSession = useEndSession();
  const { printers, loading } = usePrinters();
  const [submitting, setSubmitting] = useState(false);
  // The draft belongs to the signed-in account: another account on this browser never sees it.
  const [draftKey] = useState(() => (user ? userDraftKey(user) : null));
  const [start] = useState(() => {
    // An issue shared from this browser (/?share=...) is loaded back into the form; otherwise the
    // maker's draft, kept since their last analysis that did not succeed.
    const shareId = params.get('share');
    const shared = shareId ? loadSharedIssue(shareId) : null;
    const restored = !shared && draftKey ? loadFormDraft(draftKey, isIssueFormValues) : null;
    const values = shared ? { ...EMPTY_ISSUE_FORM, ...detailsFromIssue(shared) } : (restored?.values ?? EMPTY_ISSUE_FORM);
    const preselect = params.get('printerId');
    const initialValues = preselect ? { ...values, printerId: preselect } : values;
    return { initialValues, restored: restored && { ...restored, values: initialValues } };
  });
  // Why the last analysis failed: from the results screen, or found here before sending.
  const [failure, setFailure] = useState((useLocation().state as FailureState | null)?.failure ?? null);

  const submit = async (values: IssueFormValues, photos: File[], slicer: SlicerSettings | null, attachments: Attachment[]) => {
    setFailure(null);
    setSubmitting(true);
    const notReady = await readyToAnalyze();
    if (notReady) {
      setSubmitting(false);
      setFailure(notReady);
      return;
    }
    let photoUrls: string[];
    try {
      photoUrls = await uploadPhotos(photos);
    } catch (err) {
      setSubmitting(false);
      const text = uploadErrorToast(err);
      toast({ ...text, variant: 'destructive' });
      if (err instanceof UploadError && err.status === 401) endSession();
      else setFailure(text);
      return;
    }
    trackLead({ content_name: 'issue', content_category: values.category, photos: photos.length });
    const printer = printers.find((p) => String(p.id) === values.printerId);
    startIssueAnalysis(
      draftKey,
      values,
      printer,
      photoUrls,
      () => {
        revalidateIssues(mutate);
        void refreshUser();
      },
      slicer,
      attachments,
    );
    navigate('/troubleshooting-results');
  };

  return (
    <Container maxWidth="md" sx={{ py: { xs: 2, md: 4 } }}>
      <Button component={RouterLink} to="/dashboard" startIcon={<ArrowBackRounded />} color="inherit" sx={{ mb: 1.5, ml: -1 }}>
        Back to Dashboard
      </Button>
      <Typography variant="h4" component="h1" sx={{ fontSize: { xs: 26, md: 32 }, mb: 0.5 }}>
        Report an Issue
      </Typography>
      <Typography sx={{ color: 'text.secondary', mb: 3 }}>
        Tell us what went wrong. The analysis uses your printer&apos;s profile and what fixed it before.
      </Typography>
      <OutOfCredits />
      <Card sx={{ boxShadow: '0 10px 30px -12px rgba(15, 23, 42, 0.18)' }}>
        <CardContent sx={{ p: { xs: 2, sm: 4 }, '&:last-child': { pb: { xs: 2.5, sm: 4 } } }}>
          <IssueForm
            initialValues={start.initialValues}
            draftKey={draftKey}
            restored={start.restored}
            failure={failure}
            printers={printers}
            printersLoading={loading}
            submitting={submitting}
            onSubmit={submit}
            onCancel={() => navigate('/dashboard')}
          />
        </CardContent>
      </Card>
    </Container>
  );
}
