// /troubleshooting-results: waits for the analysis started by the form, then shows it
// (polling every 0.5 s, back to the form after 120 s or on failure). A saved issue moves on to its own address,
// /issues/:id, which shows it with the same Results.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link as RouterLink, Navigate, useNavigate } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddCircleOutlineRounded from '@mui/icons-material/AddCircleOutlineRounded';
import PersonAddAlt1Rounded from '@mui/icons-material/PersonAddAlt1Rounded';
import ShareRounded from '@mui/icons-material/ShareRounded';
import { useAuth } from '../auth/useAuth';
import { useToast } from '../components/Toast';
import { putCheckedSteps, refineIssue, refineTroubleshoot, type Issue, type NarrowAnswer, type TroubleshootingResult } from '../api/client';
import { NarrowItDown } from '../features/troubleshoot/NarrowItDown';
import { rerank } from '../features/troubleshoot/rerank';
import { refineErrorText } from '../features/troubleshoot/errors';
import { buildPayload } from '../features/troubleshoot/submit';
import { checkedFromTitles, loadCheckedSteps, resultKey, saveCheckedSteps, titlesOf, toggleStep } from '../features/troubleshoot/checkedSteps';
import { analysisErrorToast, ANALYSIS_FAILED, DEFAULT_ANALYSIS_ERROR, parseHttpError, type ToastText } from '../features/troubleshoot/errors';
import type { FailureState } from '../features/troubleshoot/preflight';
import { useEndSession } from '../auth/useEndSession';
import {
  AdditionalTips,
  IssueAnalysis,
  OriginalIssueDetails,
  RecommendedSolutions,
} from '../features/troubleshoot/ResultView';
import {
  clearAnalysis,
  POLL_INTERVAL_MS,
  readAnalysis,
  showStoredResult,
  TIMEOUT_MS,
  type AnalysisState,
  type IssueDetails,
} from '../features/troubleshoot/session';
import { markSaveAfterSignUp } from '../features/troubleshoot/saveAfterSignUp';
import { AnsweredBy } from '../features/troubleshoot/AnsweredBy';
import { ShareBanner } from '../features/troubleshoot/ShareBanner';
import { useShareLink } from '../features/troubleshoot/useShareLink';
import { issueErrorToast, SUBMIT_DEFAULT_ERROR } from '../features/workspace/issueErrors';
import { rememberIssueState } from '../features/workspace/resolve';
import { issuePath, resultOf } from '../features/workspace/savedIssue';
import { SavedIssueActions } from '../features/workspace/SavedIssueActions';

// The form to return to. Signed-in users will go back to /report-issue once auth exists.
const FORM_PATH = '/preview';

type Done = Extract<AnalysisState, { kind: 'done' }>;

// useAnalysisResult polls the hand-over every 0.5 s until the result is there; on failure or
// time-out it clears the waiting flag and goes back to the form.
function useAnalysisResult(): Done | null {
  const navigate = useNavigate();
  const { toast } = useToast();
  // Signed-in users return to /report-issue with the issue submission messages.
  const { user } = useAuth();
  const endSession = useEndSession();
  const formPath = user ? '/report-issue' : FORM_PATH;
  const errorToast = user ? issueErrorToast : analysisErrorToast;
  const [done, setDone] = useState<Done | null>(() => {
    const s = readAnalysis();
    return s.kind === 'done' ? s : null;
  });

  useEffect(() => {
    if (done) return;
    // The form comes back with its draft and says why the analysis did not happen.
    const backToForm = (failure: ToastText) => {
      toast({ ...failure, variant: 'destructive' });
      navigate(formPath, { replace: true, state: { failure } satisfies FailureState });
    };
    const check = () => {
      const s = readAnalysis();
      switch (s.kind) {
        case 'done':
          setDone(s);
          return true;
        case 'failed':
          clearAnalysis();
          if (user && parseHttpError(s.error)?.status === 401) {
            toast({ ...errorToast(s.error), variant: 'destructive' });
            endSession();
          } else {
            backToForm(errorToast(s.error));
          }
          return true;
        case 'waiting':
          if (s.lost || Date.now() - s.startedAt > TIMEOUT_MS) {
            clearAnalysis();
            backToForm({ title: ANALYSIS_FAILED, description: user ? SUBMIT_DEFAULT_ERROR : DEFAULT_ANALYSIS_ERROR });
            return true;
          }
          return false;
        case 'none':
          navigate(formPath, { replace: true });
          return true;
      }
    };
    if (check()) return;
    const timer = setInterval(() => {
      if (check()) clearInterval(timer);
    }, POLL_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [done, navigate, toast, formPath, errorToast, user, endSession]);

  return done;
}

function Analyzing() {
  return (
    <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: { xs: 10, md: 16 } }} role="status">
      <CircularProgress size={56} thickness={4} />
      <Typography variant="h5" component="h1">
        Analyzing your 3D printing issue...
      </Typography>
      <Typography sx={{ color: 'text.secondary' }}>This may take up to 30 seconds</Typography>
    </Stack>
  );
}

export default function TroubleshootingResults() {
  const done = useAnalysisResult();
  if (!done) {
    return (
      <Container maxWidth="md">
        <Analyzing />
      </Container>
    );
  }
  // A saved issue has its own address, which can be bookmarked and opened in another tab.
  if (done.issue?.id) return <Navigate to={issuePath(done.issue.id)} replace />;
  return <Results key={resultKey(done.result, done.issue?.id)} result={done.result} issue={done.issue} />;
}

interface ResultsProps {
  result: TroubleshootingResult;
  issue: (IssueDetails & { resolvedAt?: string | null }) | null;
  /** A saved issue after a narrow-it-down answer, as the server now has it. */
  onSaved?: (issue: Issue) => void;
  /** Above the title (a way back to the list). */
  header?: ReactNode;
}

/**
 * An analysis and its actions: an unsaved result here, a saved issue at /issues/:id. It opens at
 * the top of the page with the focus on the summary's heading, whatever the page before scrolled to.
 */
export function Results({ result: initial, issue, onSaved, header }: ResultsProps) {
  const { toast } = useToast();
  // The result narrows down when the maker answers a question; its ticks follow the steps by title.
  const [result, setResult] = useState(initial);
  const [refining, setRefining] = useState(false);
  const [outcome, setOutcome] = useState<{ message: string; movedUp: string[] }>({ message: '', movedUp: [] });
  const summaryHeading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    window.scrollTo?.(0, 0);
    summaryHeading.current?.focus({ preventScroll: true });
  }, []);
  const key = resultKey(result, issue?.id);
  // A saved issue's ticks come from the server, so every device agrees; an anonymous result's ticks
  // stay in this browser.
  const [checked, setChecked] = useState(() =>
    issue?.id && Array.isArray(issue.checkedSteps)
      ? checkedFromTitles(result.steps, issue.checkedSteps)
      : loadCheckedSteps(key, result.steps.length),
  );
  const { link, sharing, share } = useShareLink(result, issue);
  const { user } = useAuth();
  // Every anonymous result carries a token (it also saves the result after sign-up); only one with
  // questions, or answers given, can be narrowed down.
  const asked = (result.questions?.length ?? 0) > 0 || Object.keys(result.answers ?? {}).length > 0;
  const canRefine = issue?.id ? issue.status !== 'resolved' : Boolean(issue && result.refineToken && asked);

  const answer = async (id: string, value: NarrowAnswer) => {
    if (!issue || refining) return;
    setRefining(true);
    try {
      let saved: Issue | undefined;
      const next = issue.id
        ? resultOf((saved = await refineIssue(issue.id, { [id]: value })))
        : {
            ...(await refineTroubleshoot({
              ...buildPayload(issue, []),
              answers: { ...result.answers, [id]: value },
              refineToken: result.refineToken ?? '',
            })),
            refineToken: result.refineToken,
          };
      const ticked = checkedFromTitles(next.steps, titlesOf(result.steps, checked));
      setOutcome(rerank(result.steps, next.steps));
      setResult(next);
      setChecked(ticked);
      saveCheckedSteps(resultKey(next, issue.id), ticked);
      if (saved) onSaved?.(saved);
      else showStoredResult(next, issue);
    } catch (err) {
      toast({ title: 'Could Not Update the Steps', description: refineErrorText(err), variant: 'destructive' });
    } finally {
      setRefining(false);
    }
  };

  const toggle = (i: number) => {
    const next = toggleStep(checked, i);
    setChecked(next);
    saveCheckedSteps(key, next);
    if (issue?.id) {
      const titles = titlesOf(result.steps, next);
      rememberIssueState({ checkedSteps: titles });
      putCheckedSteps(issue.id, titles).catch(() => {
        toast({
          title: 'Ticks Not Saved',
          description: 'Your ticks could not be saved with the issue; they are kept on this device. Tick a step again to retry.',
          variant: 'destructive',
        });
      });
    }
  };

  return (
    <Container maxWidth="md" sx={{ py: { xs: 3, md: 5 } }}>
      {header}
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ alignItems: { xs: 'stretch', sm: 'center' }, justifyContent: 'space-between', mb: 3 }}
      >
        <Box>
          <Typography variant="h4" component="h1" sx={{ fontSize: { xs: 26, md: 32 } }}>
            Troubleshooting Results
          </Typography>
          <Typography sx={{ color: 'text.secondary' }}>Work through the fixes from the most likely down and tick what you tried.</Typography>
        </Box>
        <Button variant="outlined" startIcon={<ShareRounded />} onClick={share} disabled={sharing} sx={{ flexShrink: 0 }}>
          Share
        </Button>
      </Stack>
      <Stack spacing={2.5}>
        {link && <ShareBanner link={link} />}
        <IssueAnalysis summary={result.summary} headingRef={summaryHeading} />
        <AnsweredBy result={result} />
        {canRefine && (
          <NarrowItDown
            questions={result.questions ?? []}
            answers={result.answers ?? {}}
            busy={refining}
            outcome={outcome.message}
            onAnswer={(id, v) => void answer(id, v)}
          />
        )}
        <RecommendedSolutions steps={result.steps} checked={checked} onToggle={toggle} movedUp={outcome.movedUp} />
        <AdditionalTips tips={result.additionalTips} />
        {issue && <OriginalIssueDetails issue={issue} />}
        {/* Signed in: Mark as Resolved, Resolution Notes, Return to Dashboard. */}
        {user ? (
          <SavedIssueActions result={result} issue={issue} checked={checked} />
        ) : (
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ justifyContent: 'center', pt: 1 }}>
            <Button
              component={RouterLink}
              to="/login?mode=signup"
              onClick={markSaveAfterSignUp}
              variant="contained"
              size="large"
              startIcon={<PersonAddAlt1Rounded />}
            >
              Sign Up to Save Results
            </Button>
            <Button component={RouterLink} to={FORM_PATH} variant="outlined" size="large" startIcon={<AddCircleOutlineRounded />}>
              Submit Another Issue
            </Button>
          </Stack>
        )}
      </Stack>
    </Container>
  );
}
