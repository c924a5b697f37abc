// The sections of /account: display name, email, password, the data download and deleting the
// account. Local accounts change everything on the server; Firebase accounts change the email and
// password in Firebase after a fresh sign-in, and keep the display name in both.
import { useState, type FormEvent, type ReactNode } from 'react';
import useSWR from 'swr';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DeleteForeverRounded from '@mui/icons-material/DeleteForeverRounded';
import DownloadRounded from '@mui/icons-material/DownloadRounded';
import { downloadMyData, updateDisplayName, type SubscriptionView } from '../../api/client';
import { useLeaveSignedIn } from '../../auth/leaveSignedIn';
import { useAuth, useAuthActions } from '../../auth/useAuth';
import { validateNewPassword } from '../../auth/validation';
import { useToast } from '../../components/Toast';
import { config } from '../../config';
import { saveFile } from '../../download';
import { TIER_NAMES } from '../../plans';
import { formFailure } from './accountErrors';

const MAX_DISPLAY_NAME = 100;

/** A titled card of the account screen. */
function Section({ id, title, intro, children, danger }: { id: string; title: string; intro?: ReactNode; children: ReactNode; danger?: boolean }) {
  return (
    <Card
      component="section"
      aria-labelledby={`${id}-title`}
      data-testid={id}
      sx={danger ? { borderColor: 'error.main', borderWidth: 1, borderStyle: 'solid' } : undefined}
    >
      <CardContent sx={{ p: { xs: 2, sm: 3 }, '&:last-child': { pb: { xs: 2, sm: 3 } } }}>
        <Typography id={`${id}-title`} variant="h6" component="h2" sx={{ mb: 0.5 }}>
          {title}
        </Typography>
        {intro && (
          <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
            {intro}
          </Typography>
        )}
        {children}
      </CardContent>
    </Card>
  );
}

/** The state of one form: its field errors, a form-level error, a success message, and busy. */
function useFormState() {
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState('');
  const [done, setDone] = useState('');
  const [busy, setBusy] = useState(false);
  /** Runs `action` with the form busy; a failure is mapped by `fail`. */
  const run = async (action: () => Promise<string>, fail: (err: unknown) => { fields: Record<string, string>; message: string }) => {
    setBusy(true);
    setError('');
    setDone('');
    setFields({});
    try {
      setDone(await action());
    } catch (err) {
      const f = fail(err);
      setFields(f.fields);
      setError(f.message);
    } finally {
      setBusy(false);
    }
  };
  return { fields, setFields, error, done, busy, run };
}

function Outcome({ error, done }: { error: string; done: string }) {
  if (error) return <Alert severity="error" sx={{ mt: 2 }}>{error}</Alert>;
  if (done) return <Alert severity="success" role="status" sx={{ mt: 2 }}>{done}</Alert>;
  return null;
}

/** A text field of the account forms: its error replaces its hint. */
function Field({ label, value, onChange, error, hint, ...rest }: Omit<TextFieldProps, 'onChange' | 'error'> & {
  value: string;
  onChange: (value: string) => void;
  error?: string;
  hint?: string;
}) {
  return (
    <TextField
      label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={Boolean(error)}
      helperText={error ?? hint}
      fullWidth
      {...rest}
    />
  );
}

function SubmitButton({ busy, children }: { busy: boolean; children: ReactNode }) {
  return (
    <Button
      type="submit"
      variant="contained"
      disabled={busy}
      startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}
      sx={{ alignSelf: { xs: 'stretch', sm: 'flex-start' } }}
    >
      {children}
    </Button>
  );
}

export function ProfileSection() {
  const { user, refreshUser } = useAuth();
  const { account } = useAuthActions();
  const [name, setName] = useState(user?.displayName ?? '');
  const form = useFormState();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return form.setFields({ displayName: 'Please enter your display name' });
    if ([...trimmed].length > MAX_DISPLAY_NAME) return form.setFields({ displayName: 'Display name must be less than 100 characters' });
    void form.run(
      async () => {
        await account?.setDisplayName(trimmed);
        await updateDisplayName(trimmed);
        await refreshUser();
        return 'Your display name was saved.';
      },
      (err) => formFailure(err, {}, 'Failed to save your display name. Please try again.'),
    );
  };

  return (
    <Section id="account-profile" title="Display Name" intro="How Layerfix greets you and names you in the menu.">
      <Stack component="form" onSubmit={submit} noValidate spacing={2}>
        <Field
          label="Display Name"
          value={name}
          onChange={setName}
          autoComplete="name"
          error={form.fields.displayName}
          slotProps={{ htmlInput: { maxLength: MAX_DISPLAY_NAME + 20 } }}
        />
        <SubmitButton busy={form.busy}>Save Name</SubmitButton>
      </Stack>
      <Outcome error={form.error} done={form.done} />
    </Section>
  );
}

/** The sign-in methods of the signed-in identity (local accounts: a password). */
function useSignInMethods() {
  const { account } = useAuthActions();
  return account?.signInMethods() ?? { password: true, google: false };
}

export function EmailSection() {
  const { user, refreshUser } = useAuth();
  const { account, mode } = useAuthActions();
  const methods = useSignInMethods();
  const [email, setEmail] = useState('');
  const [current, setCurrent] = useState('');
  const form = useFormState();
  const confirmedByLink = mode === 'firebase' || config.emailEnabled;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const fields: Record<string, string> = {};
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) fields.newEmail = 'Invalid email address';
    if (!current) fields.currentPassword = 'Enter your current password.';
    if (Object.keys(fields).length > 0) return form.setFields(fields);
    void form.run(
      async () => {
        const result = await account!.changeEmail(email.trim(), current);
        setCurrent('');
        setEmail('');
        if (!result.pending) await refreshUser();
        return result.message;
      },
      (err) => formFailure(err, { current: 'currentPassword', email: 'newEmail' }, 'Failed to change your email. Please try again.'),
    );
  };

  return (
    <Section
      id="account-email"
      title="Email"
      intro={
        !methods.password
          ? 'You sign in with Google: your email address is your Google account’s.'
          : confirmedByLink
            ? 'We send a link to the new address; your email changes when you open it.'
            : 'This server sends no email: the new address takes effect at once and stays unverified. You sign in with it, so type it carefully.'
      }
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1, mb: 2, minWidth: 0 }}>
        <Typography data-testid="account-current-email" sx={{ fontWeight: 600, overflowWrap: 'anywhere', minWidth: 0 }}>
          {user?.email}
        </Typography>
        <Chip
          size="small"
          label={user?.emailVerified ? 'Verified' : 'Not verified'}
          color={user?.emailVerified ? 'success' : 'default'}
          variant="outlined"
        />
      </Stack>
      {methods.password && account && (
        <Stack component="form" onSubmit={submit} noValidate spacing={2}>
          <Field label="New Email" type="email" value={email} onChange={setEmail} autoComplete="email" error={form.fields.newEmail} />
          <Field
            label="Current Password"
            type="password"
            value={current}
            onChange={setCurrent}
            autoComplete="current-password"
            error={form.fields.currentPassword}
          />
          <SubmitButton busy={form.busy}>Change Email</SubmitButton>
        </Stack>
      )}
      <Outcome error={form.error} done={form.done} />
    </Section>
  );
}

export function PasswordSection() {
  const { user } = useAuth();
  const { account } = useAuthActions();
  const methods = useSignInMethods();
  const [values, setValues] = useState({ current: '', next: '', confirm: '' });
  const form = useFormState();
  if (!methods.password || !account) {
    return (
      <Section id="account-password" title="Password" intro="You sign in with Google, so there is no Layerfix password to change.">
        {null}
      </Section>
    );
  }
  const set = (k: keyof typeof values) => (value: string) => setValues((v) => ({ ...v, [k]: value }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const fields: Record<string, string> = {};
    if (!values.current) fields.currentPassword = 'Enter your current password.';
    const problem = validateNewPassword(values.next, values.confirm);
    if (problem) fields[problem.startsWith('Passwords') ? 'confirm' : 'newPassword'] = problem;
    if (Object.keys(fields).length > 0) return form.setFields(fields);
    void form.run(
      async () => {
        const message = await account.changePassword(values.current, values.next);
        setValues({ current: '', next: '', confirm: '' });
        return message;
      },
      (err) => formFailure(err, { current: 'currentPassword', new: 'newPassword' }, 'Failed to change your password. Please try again.'),
    );
  };

  return (
    <Section id="account-password" title="Password" intro="Other devices are signed out when the password changes.">
      <Stack component="form" onSubmit={submit} noValidate spacing={2} useFlexGap>
        {/* Lets password managers file the new password under the right account. */}
        <Box component="input" type="email" name="username" autoComplete="username" hidden readOnly value={user?.email ?? ''} />
        {(
          [
            ['Current Password', 'current', 'current-password', 'currentPassword', undefined],
            ['New Password', 'next', 'new-password', 'newPassword', 'At least 6 characters.'],
            ['Confirm New Password', 'confirm', 'new-password', 'confirm', undefined],
          ] as const
        ).map(([label, key, autoComplete, field, hint]) => (
          <Field
            key={key}
            label={label}
            type="password"
            value={values[key]}
            onChange={set(key)}
            autoComplete={autoComplete}
            error={form.fields[field]}
            hint={hint}
          />
        ))}
        <SubmitButton busy={form.busy}>Change Password</SubmitButton>
      </Stack>
      <Outcome error={form.error} done={form.done} />
    </Section>
  );
}

export function DataSection() {
  const { toast } = useToast();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const { blob, filename } = await downloadMyData();
      saveFile(blob, filename);
    } catch {
      toast({ title: 'Error', description: 'Failed to download your data. Please try again.', variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Section
      id="account-data"
      title="Your Data"
      intro="One zip file with your account, printers and issues (with their analyses, notes and attached files) as JSON, and your photos."
    >
      <Button
        variant="outlined"
        onClick={download}
        disabled={busy}
        startIcon={busy ? <CircularProgress size={16} color="inherit" /> : <DownloadRounded />}
        sx={{ width: { xs: '100%', sm: 'auto' } }}
      >
        Download my data
      </Button>
    </Section>
  );
}

export function DeleteSection() {
  const { user } = useAuth();
  const { account, accountDeleted } = useAuthActions();
  const methods = useSignInMethods();
  const { toast } = useToast();
  const leave = useLeaveSignedIn();
  const subscription = useSWR<SubscriptionView>(user ? '/api/subscription' : null);
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const form = useFormState();
  const plan = subscription.data?.hasSubscription ? (TIER_NAMES[subscription.data.tier as keyof typeof TIER_NAMES] ?? subscription.data.tier) : '';

  const close = () => {
    if (form.busy) return;
    setOpen(false);
    setPassword('');
    form.setFields({});
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (methods.password && !password) return form.setFields({ password: 'Enter your password to delete your account.' });
    void form.run(
      async () => {
        const result = await account!.deleteAccount(methods.password ? password : '');
        toast({ title: 'Account deleted', description: result.message, variant: 'success', duration: 10_000 });
        leave(accountDeleted, { replace: true });
        return '';
      },
      (err) => formFailure(err, { current: 'password', server: { password: 'password' } }, 'Failed to delete your account. Please try again.'),
    );
  };

  return (
    <Section
      id="account-delete"
      title="Delete Account"
      danger
      intro="Deleting your account removes your printers, issues, photos and attached files, and your sign-in, for good. Download your data first if you want to keep it."
    >
      {plan && (
        <Typography variant="body2" sx={{ mb: 2 }} data-testid="delete-subscription-note">
          Your {plan} subscription is canceled first, so nothing more is charged.
        </Typography>
      )}
      <Button
        variant="outlined"
        color="error"
        startIcon={<DeleteForeverRounded />}
        onClick={() => setOpen(true)}
        disabled={!account}
        sx={{ width: { xs: '100%', sm: 'auto' } }}
      >
        Delete my account
      </Button>
      <Dialog open={open} onClose={close} maxWidth="xs" fullWidth aria-labelledby="delete-account-title">
        <Box component="form" onSubmit={submit} noValidate>
          <DialogTitle id="delete-account-title">Delete your account?</DialogTitle>
          <DialogContent>
            <Typography variant="body2" sx={{ mb: 1.5 }}>
              Your printers, issues, photos and attached files, your plan and your sign-in are deleted for good.
              {plan ? ` Your ${plan} subscription is canceled first.` : ''} Guides you shared stay online as anonymous
              copies: they never held your name, email or printers.
            </Typography>
            {methods.password ? (
              <Field
                label="Password"
                type="password"
                value={password}
                onChange={setPassword}
                autoComplete="current-password"
                error={form.fields.password}
                hint="Your current password confirms it is you."
                autoFocus
                sx={{ mt: 1 }}
              />
            ) : (
              <Typography variant="body2">Google asks you to sign in again to confirm it is you.</Typography>
            )}
            {form.error && (
              <Alert severity="error" sx={{ mt: 2 }}>
                {form.error}
              </Alert>
            )}
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2.5, flexWrap: 'wrap', gap: 1 }}>
            <Button onClick={close} disabled={form.busy} color="inherit">
              Cancel
            </Button>
            <Button
              type="submit"
              variant="contained"
              color="error"
              disabled={form.busy}
              startIcon={form.busy ? <CircularProgress size={16} color="inherit" /> : undefined}
            >
              Delete Account
            </Button>
          </DialogActions>
        </Box>
      </Dialog>
    </Section>
  );
}
