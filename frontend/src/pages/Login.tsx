// /login: sign-in, sign-up and password reset, plus
// the reset and verification links of local accounts (?mode=reset|verify&oobCode=...).
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate, useSearchParams, type Location } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import GoogleIcon from '@mui/icons-material/Google';
import { trackLoginAttempt, trackLoginFailure, trackLoginSuccess, trackSignUp } from '../analytics';
import { config } from '../config';
import { LogoMark } from '../components/Logo';
import { PageLoader } from '../components/PageLoader';
import { useToast } from '../components/Toast';
import { ACCOUNT_DISABLED_MESSAGE, authErrorMessage, failureCode, resetErrorMessage, toAuthFailure } from '../auth/errors';
import { actionLinkOf, capturedActionLink, forgetActionLink, scrubAddressBar } from '../addressBar';
import { forgetSessionEnded } from '../auth/sessionEnded';
import { useAuth, useAuthActions } from '../auth/useAuth';
import type { Issue } from '../api/client';
import type { SignUpResult } from '../auth/types';
import { savePendingAnalysis, saveIsPending } from '../features/troubleshoot/saveAfterSignUp';
import { carriedOverText } from '../features/usage/usage';
import { formatResetDate } from '../features/usage/useUsage';
import { validateNewPassword, validateResetEmail, validateSignUp } from '../auth/validation';

export type LoginMode = 'signin' | 'signup' | 'reset' | 'new-password' | 'verify';

/** After sign-up or Google sign-in the user goes to /dashboard after this long. */
export const REDIRECT_DELAY_MS = 1000;

export const SIGNUP_TOAST_TITLE = 'Account Created Successfully!';
export const SIGNUP_TOAST_TEXT =
  'Please check your email to verify your account. You can still use the app while unverified.';
export const RESULTS_SAVED_TEXT = 'Your troubleshooting results are saved to your issues.';
export const RESULTS_NOT_SAVED_TEXT = 'Your troubleshooting results could not be saved: please analyze the issue again.';

// saveResults keeps the promise of "Sign Up to Save Results" once the maker is signed in: the
// sentence to tell them, or '' when no result was waiting.
async function saveResults(): Promise<string> {
  let saved: Issue | null;
  try {
    saved = await savePendingAnalysis();
  } catch (err) {
    console.error('Saving the results failed', err);
    return RESULTS_NOT_SAVED_TEXT;
  }
  return saved ? RESULTS_SAVED_TEXT : '';
}

/**
 * The screen mode of a /login URL and the action link it was opened with (read from the address
 * bar at start, see addressBar.ts). Local links say reset or verify; Firebase's action links
 * (the action URL of the project's email templates set to /login) say resetPassword or verifyEmail.
 */
export function loginModeOf(params: URLSearchParams, localMode: boolean, link = actionLinkOf(params)): LoginMode {
  const [reset, verify] = localMode ? ['reset', 'verify'] : ['resetPassword', 'verifyEmail'];
  if (link?.mode === reset) return 'new-password';
  if (link?.mode === verify) return 'verify';
  const mode = params.get('mode');
  if (mode === 'signup' || mode === 'reset') return mode;
  return 'signin';
}

const TITLES: Record<LoginMode, string> = {
  signin: 'Welcome Back',
  signup: 'Create Account',
  reset: 'Reset Password',
  'new-password': 'Choose a New Password',
  verify: 'Verify Email',
};

const SUBTITLES: Record<LoginMode, string> = {
  signin: 'Sign in to continue to Layerfix.',
  signup: 'Save your printers and keep an issue log.',
  reset: "Enter your email and we'll send you a link to reset your password.",
  'new-password': 'Pick a new password for your account.',
  verify: 'Confirming your email address.',
};

// A verification code works once; React may run the effect twice.
const verifications = new Map<string, Promise<{ message: string }>>();
function verifyOnce(code: string, verify: (code: string) => Promise<{ message: string }>): Promise<{ message: string }> {
  let p = verifications.get(code);
  if (!p) {
    p = verify(code);
    verifications.set(code, p);
  }
  return p;
}

interface Fields {
  displayName: string;
  email: string;
  password: string;
  confirm: string;
}

const emptyFields: Fields = { displayName: '', email: '', password: '', confirm: '' };

/** The disabled-account message is followed by the operator's contact email when one is set. */
function withOperatorContact(text: string): ReactNode {
  const email = config.contactEmail.trim();
  if (text !== ACCOUNT_DISABLED_MESSAGE || !email) return text;
  return (
    <>
      {text} Contact:{' '}
      <Link href={`mailto:${email}`} underline="always">
        {email}
      </Link>
    </>
  );
}

/** A signed-out notice warns (a disabled account is an error); any other notice is a success. */
function noticeSeverity(state: { disabled?: boolean } | null, signedOut: boolean): 'error' | 'warning' | 'success' {
  if (!signedOut) return 'success';
  return state?.disabled ? 'error' : 'warning';
}

export default function Login() {
  // Every navigation to /login starts the screen afresh: 'Get Started' while on /login, or the
  // sign-in after a new password (same address, since the link's code left it at start).
  const { key } = useLocation();
  return <LoginScreen key={key} />;
}

function LoginScreen() {
  const auth = useAuth();
  const actions = useAuthActions();
  const { toast } = useToast();
  const navigate = useNavigate();
  const location = useLocation() as Location<{ from?: Location; notice?: string; signedOut?: boolean; disabled?: boolean } | null>;
  // A session that ended by itself has been explained once it is shown here.
  const signedOutNotice = location.state?.signedOut === true;
  useEffect(forgetSessionEnded, []);
  const [params] = useSearchParams();
  const localMode = actions.mode === 'local';
  // A reset or verification link's code left the address bar before the app started (so it never
  // reaches analytics, the history, a referrer or a screenshot); it is used here once.
  const [link] = useState(() => actionLinkOf(params) ?? capturedActionLink());
  const oobCode = link?.oobCode ?? '';
  useEffect(scrubAddressBar, []);

  const [mode, setMode] = useState<LoginMode>(() => loginModeOf(params, localMode, link));
  const [fields, setFields] = useState<Fields>(emptyFields);
  const [error, setError] = useState('');
  const [success, setSuccess] = useState(location.state?.notice ?? '');
  const [busy, setBusy] = useState(false);
  const [resetSent, setResetSent] = useState(false);
  const [savePending] = useState(saveIsPending);
  // Once a sign-in starts, this screen decides where to go (not the signed-in redirect).
  const [handling, setHandling] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const { refreshUser } = auth;
  const signedIn = auth.user !== null;
  useEffect(() => {
    if (mode !== 'verify') return;
    let active = true;
    verifyOnce(oobCode, actions.verifyEmail).then(
      (res) => {
        forgetActionLink();
        if (!active) return;
        setSuccess(res.message || 'Your email is verified.');
        if (signedIn) void refreshUser();
      },
      (err: unknown) => {
        forgetActionLink();
        if (active) setError(toAuthFailure(err).message || 'This verification link is invalid, expired or already used.');
      },
    );
    return () => {
      active = false;
    };
  }, [mode, oobCode, refreshUser, signedIn, actions.verifyEmail]);

  const entryMode = mode === 'signin' || mode === 'signup' || mode === 'reset';
  if (entryMode && !handling) {
    if (auth.loading) return <PageLoader />;
    if (auth.user) return <Navigate to="/dashboard" replace />;
  }

  const set = (name: keyof Fields) => (e: { target: { value: string } }) =>
    setFields((f) => ({ ...f, [name]: e.target.value }));

  const switchTo = (next: LoginMode) => {
    setMode(next);
    setFields(emptyFields);
    setError('');
    setSuccess('');
    setResetSent(false);
  };

  const goToDashboardSoon = () => {
    timer.current = setTimeout(() => navigate('/dashboard', { replace: true }), REDIRECT_DELAY_MS);
  };

  const run = async (work: () => Promise<void>) => {
    // A new attempt replaces the last outcome: no earlier notice beside a new error.
    setError('');
    setSuccess('');
    setBusy(true);
    try {
      await work();
    } finally {
      setBusy(false);
    }
  };

  const signIn = () =>
    run(async () => {
      trackLoginAttempt('email');
      setHandling(true);
      try {
        await actions.signIn(fields.email.trim(), fields.password);
      } catch (err) {
        setHandling(false);
        trackLoginFailure('email', failureCode(err));
        setError(authErrorMessage(err));
        return;
      }
      trackLoginSuccess('email');
      const saved = await saveResults();
      if (saved) toast({ title: 'Signed In', description: saved, variant: saved === RESULTS_SAVED_TEXT ? 'success' : 'destructive' });
      const from = location.state?.from;
      navigate(from && from.pathname !== '/login' ? from : '/dashboard', { replace: true });
    });

  const signUp = () =>
    run(async () => {
      const invalid = validateSignUp(fields);
      if (invalid) {
        setError(invalid);
        return;
      }
      setHandling(true);
      let result: SignUpResult;
      try {
        result = await actions.signUp(fields.email.trim(), fields.password, fields.displayName.trim());
      } catch (err) {
        setHandling(false);
        setError(authErrorMessage(err));
        return;
      }
      const { verificationSent, transferred = 0, user } = result;
      trackSignUp('email');
      const saved = await saveResults();
      const parts: string[] = [];
      if (verificationSent) parts.push(SIGNUP_TOAST_TEXT);
      if (transferred > 0 && user) {
        // The analyses used before signing up came with the account: say so, and when credits return.
        parts.push(carriedOverText(transferred, user.monthlyUsage ?? transferred, user.monthlyLimit ?? 3, formatResetDate(user.usageResetsAt)));
      } else if (!verificationSent) {
        // Without email (a local server with no SMTP) there is nothing to verify.
        parts.push('You can start using Layerfix right away.');
      }
      if (saved) parts.push(saved);
      toast({ title: SIGNUP_TOAST_TITLE, description: parts.join(' '), variant: 'success' });
      if (verificationSent) {
        setSuccess(`We sent a verification link to ${fields.email.trim()}. Please check your email to verify your account.`);
      }
      goToDashboardSoon();
    });

  const google = () =>
    run(async () => {
      if (!actions.signInWithGoogle) return;
      trackLoginAttempt('google');
      setHandling(true);
      try {
        const { isNewUser } = await actions.signInWithGoogle();
        trackLoginSuccess('google');
        if (isNewUser) trackSignUp('google');
        const saved = await saveResults();
        if (saved) toast({ title: 'Signed In', description: saved, variant: saved === RESULTS_SAVED_TEXT ? 'success' : 'destructive' });
      } catch (err) {
        setHandling(false);
        trackLoginFailure('google', failureCode(err));
        setError(authErrorMessage(err));
        return;
      }
      goToDashboardSoon();
    });

  const sendReset = () =>
    run(async () => {
      const invalid = validateResetEmail(fields.email);
      if (invalid) {
        setError(invalid);
        return;
      }
      try {
        await actions.sendPasswordReset(fields.email.trim());
      } catch (err) {
        setError(resetErrorMessage(err));
        return;
      }
      setResetSent(true);
      setSuccess('If an account exists for this email, a reset link is on its way. Check your inbox.');
      toast({ title: 'Password Reset Email Sent', description: 'Check your email for a link to reset your password.', variant: 'success' });
    });

  const updatePassword = () =>
    run(async () => {
      const invalid = validateNewPassword(fields.password, fields.confirm);
      if (invalid) {
        setError(invalid);
        return;
      }
      let message: string;
      try {
        ({ message } = await actions.updatePassword(oobCode, fields.password));
      } catch (err) {
        setError(authErrorMessage(err));
        return;
      }
      forgetActionLink();
      // The server ended every session of the account, this one included.
      if (auth.user) await auth.signOut();
      navigate('/login', { replace: true, state: { notice: message || 'Your password was changed. Please sign in.' } });
    });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const handlers: Partial<Record<LoginMode, () => Promise<void>>> = {
      signin: signIn,
      signup: signUp,
      reset: sendReset,
      'new-password': updatePassword,
    };
    void handlers[mode]?.();
  };

  const resetWithoutEmail = mode === 'reset' && localMode && !config.emailEnabled;

  return (
    <Container maxWidth="xs" sx={{ py: { xs: 4, md: 8 } }}>
      <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4 } }}>
        <Stack spacing={1} sx={{ alignItems: 'center', textAlign: 'center', mb: 3 }}>
          <LogoMark size={44} />
          <Typography variant="h4" component="h1" sx={{ pt: 1 }}>
            {TITLES[mode]}
          </Typography>
          <Typography color="text.secondary">
            {resetWithoutEmail ? 'Forgot your password? Here is how to get a new one.' : SUBTITLES[mode]}
          </Typography>
        </Stack>

        <Stack spacing={2}>
          {error && (
            <Alert severity="error" data-testid="auth-error">
              {withOperatorContact(error)}
            </Alert>
          )}
          {success && (
            <Alert severity={noticeSeverity(location.state, signedOutNotice && success === location.state?.notice)} data-testid="auth-success">
              {withOperatorContact(success)}
            </Alert>
          )}
          {(mode === 'signup' || mode === 'signin') && !success && savePending && (
            <Alert severity="info" data-testid="save-pending">
              {mode === 'signup'
                ? 'Your troubleshooting results will be saved to your new account.'
                : 'Your troubleshooting results will be saved to your account when you sign in.'}
            </Alert>
          )}

          {mode === 'verify' ? (
            <VerifyStatus done={Boolean(success || error) && !auth.loading} signedIn={signedIn} onSignIn={() => switchTo('signin')} />
          ) : resetWithoutEmail ? (
            <OperatorReset />
          ) : (
            <Box component="form" onSubmit={submit} noValidate={mode === 'reset'}>
              <Stack spacing={2}>
                {mode === 'signup' && (
                  <TextField
                    label="Display Name"
                    name="displayName"
                    autoComplete="name"
                    value={fields.displayName}
                    onChange={set('displayName')}
                    fullWidth
                  />
                )}
                {mode !== 'new-password' && (
                  <TextField
                    label="Email"
                    name="email"
                    type="email"
                    autoComplete="email"
                    required={mode !== 'reset'}
                    value={fields.email}
                    onChange={set('email')}
                    disabled={resetSent}
                    fullWidth
                  />
                )}
                {mode !== 'reset' && (
                  <TextField
                    label={mode === 'new-password' ? 'New Password' : 'Password'}
                    name="password"
                    type="password"
                    autoComplete={mode === 'signin' ? 'current-password' : 'new-password'}
                    required
                    value={fields.password}
                    onChange={set('password')}
                    fullWidth
                  />
                )}
                {(mode === 'signup' || mode === 'new-password') && (
                  <TextField
                    label="Confirm Password"
                    name="confirmPassword"
                    type="password"
                    autoComplete="new-password"
                    required
                    value={fields.confirm}
                    onChange={set('confirm')}
                    fullWidth
                  />
                )}
                {mode === 'signin' && (
                  <Box sx={{ textAlign: 'right', mt: '-4px !important' }}>
                    <Link component="button" type="button" variant="body2" onClick={() => switchTo('reset')} sx={{ minHeight: 24, px: 0.5 }}>
                      Forgot password?
                    </Link>
                  </Box>
                )}
                <Button
                  type="submit"
                  variant="contained"
                  size="large"
                  fullWidth
                  disabled={busy || resetSent}
                  startIcon={busy ? <CircularProgress size={18} color="inherit" /> : undefined}
                >
                  {SUBMIT_LABELS[mode]}
                </Button>
              </Stack>
            </Box>
          )}

          {(mode === 'signin' || mode === 'signup') && actions.signInWithGoogle && (
            <>
              <Divider sx={{ color: 'text.secondary', fontSize: 14 }}>or</Divider>
              <Button variant="outlined" size="large" fullWidth startIcon={<GoogleIcon />} onClick={google} disabled={busy}>
                Continue with Google
              </Button>
            </>
          )}

          <Toggle mode={mode} onSwitch={switchTo} />
        </Stack>
      </Paper>
    </Container>
  );
}

const SUBMIT_LABELS: Partial<Record<LoginMode, string>> = {
  signin: 'Sign In',
  signup: 'Create Account',
  reset: 'Send Reset Email',
  'new-password': 'Update Password',
};

function ToggleLink({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <Box sx={{ textAlign: 'center' }}>
      <Link component="button" type="button" variant="body2" onClick={onClick} sx={{ fontWeight: 600 }}>
        {children}
      </Link>
    </Box>
  );
}

function Toggle({ mode, onSwitch }: { mode: LoginMode; onSwitch: (m: LoginMode) => void }) {
  switch (mode) {
    case 'signin':
      return <ToggleLink onClick={() => onSwitch('signup')}>Don&apos;t have an account? Sign up</ToggleLink>;
    case 'signup':
      return <ToggleLink onClick={() => onSwitch('signin')}>Already have an account? Sign in</ToggleLink>;
    case 'reset':
    case 'new-password':
      return <ToggleLink onClick={() => onSwitch('signin')}>Back to Sign In</ToggleLink>;
    default:
      return null;
  }
}

/** Local mode without email: the operator prints a reset link on the server. */
function OperatorReset() {
  const who = config.operatorName || 'the person who runs this Layerfix server';
  return (
    <Alert severity="info" data-testid="operator-reset">
      This server does not send emails. To reset your password, ask {who}
      {config.contactEmail && (
        <>
          {' '}
          (<Link href={`mailto:${config.contactEmail}`} underline="always">{config.contactEmail}</Link>)
        </>
      )}{' '}
      to run:
      <Box
        component="code"
        sx={{ display: 'block', my: 1, px: 1, py: 0.75, borderRadius: 1, bgcolor: 'action.hover', fontSize: '0.85em', overflowWrap: 'anywhere' }}
      >
        layerfix user reset-password YOUR-EMAIL
      </Box>
      It prints a link, valid for one hour, where you can choose a new password.
    </Alert>
  );
}

function VerifyStatus({ done, signedIn, onSignIn }: { done: boolean; signedIn: boolean; onSignIn: () => void }) {
  const navigate = useNavigate();
  if (!done) {
    return (
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', justifyContent: 'center', py: 2 }}>
        <CircularProgress size={22} />
        <Typography color="text.secondary">Verifying your email...</Typography>
      </Stack>
    );
  }
  return signedIn ? (
    <Button variant="contained" size="large" fullWidth onClick={() => navigate('/dashboard', { replace: true })}>
      Go to Dashboard
    </Button>
  ) : (
    <Button variant="contained" size="large" fullWidth onClick={onSignIn}>
      Sign In
    </Button>
  );
}
