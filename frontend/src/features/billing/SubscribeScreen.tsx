// The signed-in plans screen (/subscribe and signed-in /pricing): the four
// plans with the current one marked, subscribing through Stripe's Payment
// Element, plan changes and cancelling, and the billing-off explanation.
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import CheckRounded from '@mui/icons-material/CheckRounded';
import useSWR from 'swr';
import {
  cancelSubscriptionWithResult,
  changeSubscription,
  completeSubscriptionWithResult,
  createSubscription,
  type SubscriptionView,
} from '../../api/client';
import type { UsageLimits } from '../../api/types';
import { trackAddToCart, trackPurchase, trackViewContent } from '../../analytics';
import { useAuth } from '../../auth/useAuth';
import { BillingOffNotice } from '../../components/pricing/BillingOffNotice';
import { PlanCard, PlanGrid } from '../../components/pricing/PlanCard';
import { useToast } from '../../components/Toast';
import { config } from '../../config';
import { usePlans } from '../../hooks/usePlans';
import { formatPrice, TIER_NAMES, type Plan } from '../../plans';
import { computeUsage, effectiveTier, isKnownTier } from '../usage/usage';
import {
  BILLING_OFF_TITLE,
  billingOffMessage,
  CANCEL_FAILED,
  cancelConfirmText,
  CHANGE_FAILED,
  completeAfterSetup,
  type CompleteSubscriptionResult,
  CREATE_FAILED,
  formatDate,
  GRANTED_TITLE,
  grantedMessage,
  isBillingDisabled,
  outcomeToast,
  parseServerDate,
  type PaymentOutcome,
  planAction,
  serverMessage,
} from './billing';
import { ConfirmDialog } from './ConfirmDialog';
import { getStripe } from './stripe';

const PaymentStep = lazy(() => import('./PaymentStep'));

type DialogState =
  | { kind: 'billing-off' }
  | { kind: 'granted' }
  | { kind: 'change'; plan: Plan }
  | { kind: 'cancel' }
  | { kind: 'payment'; plan: Plan; clientSecret: string }
  | null;

interface CancelResult {
  message?: string;
  currentPeriodEnd?: string | number;
  cancelAt?: string | number;
}

interface SubscriptionDetails {
  periodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  hasSubscription: boolean;
}

/** From GET /api/subscription; until it answers, from the profile. */
function subscriptionDetails(view: SubscriptionView | undefined, user: unknown, isPaid: boolean): SubscriptionDetails {
  if (view) {
    return {
      periodEnd: parseServerDate(view.currentPeriodEnd),
      cancelAtPeriodEnd: view.cancelAtPeriodEnd === true,
      hasSubscription: view.hasSubscription === true,
    };
  }
  const u = (user ?? {}) as Record<string, unknown>;
  return {
    periodEnd: parseServerDate(u.currentPeriodEnd),
    cancelAtPeriodEnd: u.cancelAtPeriodEnd === true,
    hasSubscription: isPaid,
  };
}

const cartParams = (plan: Plan) => ({ content_name: plan.name, content_ids: [plan.tier], content_type: 'subscription' });

export default function SubscribeScreen() {
  const { user, refreshUser } = useAuth();
  const { plans, isLoading } = usePlans();
  const limits = useSWR<UsageLimits>('/api/usage-limits');
  const subscription = useSWR<SubscriptionView>(user ? '/api/subscription' : null);
  const { toast } = useToast();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'));

  const [dialog, setDialog] = useState<DialogState>(null);
  const [busyTier, setBusyTier] = useState<string | null>(null);
  const [working, setWorking] = useState(false);
  const [paying, setPaying] = useState(false);

  const current = effectiveTier(user);
  const currentName = isKnownTier(current) ? TIER_NAMES[current] : current;
  const usage = user && !limits.isLoading ? computeUsage(user, limits.data) : null;
  const isPaid = current !== 'free';
  const { periodEnd, cancelAtPeriodEnd, hasSubscription } = subscriptionDetails(subscription.data, user, isPaid);
  const billingEnabled = config.billingEnabled || subscription.data?.billingEnabled === true;

  const mutateSubscription = subscription.mutate;
  const reload = useCallback(async () => {
    await Promise.all([refreshUser().catch(() => undefined), mutateSubscription().catch(() => undefined)]);
  }, [refreshUser, mutateSubscription]);

  useEffect(() => {
    trackViewContent('Pricing', { content_category: 'pricing' });
  }, []);

  const finish = useCallback(
    async (outcome: PaymentOutcome, plan: Plan | undefined) => {
      const name = plan?.name ?? 'new';
      toast(outcomeToast(outcome, name));
      if (outcome.kind === 'failed') return;
      setDialog(null);
      if (outcome.kind === 'done' && plan) trackPurchase(plan.amount, 'USD', cartParams(plan));
      await reload();
      navigate('/dashboard');
    },
    [toast, reload, navigate],
  );

  // Back from a payment method that redirected (e.g. a bank page): finish here.
  const handledRedirect = useRef(false);
  useEffect(() => {
    const setupIntent = params.get('setup_intent');
    const status = params.get('redirect_status');
    if (!setupIntent || !status || handledRedirect.current) return;
    handledRedirect.current = true;
    const tier = params.get('tier') ?? '';
    const plan = plans.find((p) => p.tier === tier);
    setParams({}, { replace: true });
    if (status !== 'succeeded') {
      void finish({ kind: 'failed', message: 'Your payment details could not be confirmed. Please try again.' }, plan);
      return;
    }
    void (async () => {
      const stripe = await getStripe().catch(() => null);
      const outcome = await completeAfterSetup(stripe, setupIntent, (id) =>
        completeSubscriptionWithResult<CompleteSubscriptionResult>(id),
      );
      await finish(outcome, plan);
    })();
    // handledRedirect makes it run once for the redirect's query parameters.
  }, [params, plans, setParams, finish]);

  const subscribe = async (plan: Plan) => {
    setBusyTier(plan.tier);
    try {
      const res = await createSubscription(plan.tier);
      if (res.clientSecret) {
        setDialog({ kind: 'payment', plan, clientSecret: res.clientSecret });
      } else {
        toast({ title: 'Already Subscribed', description: res.message || 'You already have an active subscription.' });
        await reload();
      }
    } catch (err) {
      if (isBillingDisabled(err)) setDialog({ kind: 'billing-off' });
      else toast({ title: 'Error', description: serverMessage(err, CREATE_FAILED), variant: 'destructive' });
    } finally {
      setBusyTier(null);
    }
  };

  const choose = (plan: Plan) => {
    const action = planAction(current, plan.tier, hasSubscription);
    if (action === 'current') return;
    if (action !== 'downgrade') trackAddToCart(plan.amount, 'USD', cartParams(plan));
    if (action === 'downgrade' && !hasSubscription) {
      setDialog({ kind: 'granted' });
      return;
    }
    if (!billingEnabled) {
      setDialog({ kind: 'billing-off' });
      return;
    }
    if (action === 'subscribe') void subscribe(plan);
    else if (action === 'change') setDialog({ kind: 'change', plan });
    else setDialog({ kind: 'cancel' });
  };

  const confirmChange = async (plan: Plan) => {
    setWorking(true);
    try {
      const res = await changeSubscription(plan.tier);
      toast({
        title: 'Plan Updated',
        description: res?.message || `You're now on the ${plan.name} plan.`,
        variant: 'success',
      });
      setDialog(null);
      await reload();
    } catch (err) {
      if (isBillingDisabled(err)) setDialog({ kind: 'billing-off' });
      else toast({ title: 'Error', description: CHANGE_FAILED, variant: 'destructive' });
    } finally {
      setWorking(false);
    }
  };

  const confirmCancel = async () => {
    setWorking(true);
    try {
      const res = await cancelSubscriptionWithResult<CancelResult>();
      const end = parseServerDate(res?.currentPeriodEnd ?? res?.cancelAt) ?? periodEnd;
      const until = end ? `until ${formatDate(end)}` : 'until the end of the current billing period';
      toast({
        title: 'Subscription Cancelled',
        description: res?.message || `Your ${currentName} plan stays active ${until}.`,
        variant: 'success',
      });
      setDialog(null);
      await reload();
    } catch (err) {
      if (isBillingDisabled(err)) setDialog({ kind: 'billing-off' });
      else toast({ title: 'Error', description: CANCEL_FAILED, variant: 'destructive' });
    } finally {
      setWorking(false);
    }
  };

  const actionButton = (plan: Plan) => {
    // Whether a paid plan is a provider subscription decides change vs. choose.
    if (subscription.isLoading) return <Skeleton variant="rounded" height={44} data-testid="plan-action-loading" />;
    const action = planAction(current, plan.tier, hasSubscription);
    if (action === 'current') {
      return (
        <Button variant="contained" color="success" size="large" fullWidth disabled startIcon={<CheckRounded />}>
          Current Plan
        </Button>
      );
    }
    if (action === 'downgrade' && cancelAtPeriodEnd) {
      return (
        <Button variant="outlined" size="large" fullWidth disabled>
          {periodEnd ? `Free from ${formatDate(periodEnd)}` : 'Cancellation scheduled'}
        </Button>
      );
    }
    const busy = busyTier === plan.tier;
    const label =
      action === 'subscribe' ? `Choose ${plan.name}` : action === 'change' ? `Switch to ${plan.name}` : 'Switch to Free';
    return (
      <Button
        variant={plan.popular && action === 'subscribe' ? 'contained' : 'outlined'}
        size="large"
        fullWidth
        disabled={busyTier !== null}
        onClick={() => choose(plan)}
        startIcon={busy ? <CircularProgress size={18} color="inherit" /> : undefined}
        sx={{ px: 1.5, whiteSpace: 'nowrap' }}
      >
        {label}
      </Button>
    );
  };

  return (
    <Container maxWidth="lg" sx={{ py: { xs: 5, md: 8 } }}>
      <Box sx={{ textAlign: 'center', maxWidth: 680, mx: 'auto', mb: { xs: 4, md: 6 } }}>
        <Typography variant="overline" color="primary" sx={{ fontWeight: 700 }}>
          Subscription
        </Typography>
        <Typography variant="h3" component="h1" sx={{ fontSize: { xs: '2rem', md: '2.75rem' }, mb: 1.5 }}>
          Choose your plan
        </Typography>
        <Typography color="text.secondary" sx={{ fontSize: '1.0625rem' }} data-testid="current-plan-summary">
          {user ? (
            <>
              You're on the <strong>{currentName}</strong> plan
              {usage ? ` · ${usage.creditsText} used this month` : ''}.
            </>
          ) : (
            <Skeleton width={280} sx={{ mx: 'auto' }} />
          )}
        </Typography>
        {isPaid && cancelAtPeriodEnd && (
          <Alert severity="info" sx={{ mt: 2, textAlign: 'left' }}>
            Your subscription is cancelled. {cancelConfirmText(currentName, periodEnd)}
          </Alert>
        )}
      </Box>

      {!billingEnabled && !subscription.isLoading && <BillingOffNotice />}
      <PlanGrid>
        {plans.map((plan) => {
          const isCurrent = planAction(current, plan.tier, hasSubscription) === 'current';
          return (
            <Box
              key={plan.tier}
              data-testid={`subscribe-${plan.tier}`}
              data-current={isCurrent ? 'true' : undefined}
              sx={{
                borderRadius: '18px',
                outline: isCurrent ? '2px solid' : 'none',
                outlineColor: 'success.main',
                outlineOffset: 3,
              }}
            >
              <PlanCard plan={plan} loading={isLoading} action={actionButton(plan)} />
            </Box>
          );
        })}
      </PlanGrid>

      {isPaid && hasSubscription && !cancelAtPeriodEnd && (
        <Box sx={{ textAlign: 'center', mt: 4 }}>
          <Button color="error" onClick={() => setDialog({ kind: billingEnabled ? 'cancel' : 'billing-off' })}>
            Cancel Subscription
          </Button>
        </Box>
      )}
      <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center', mt: 3 }}>
        Prices in USD per month, billed monthly in advance. Plan changes are prorated immediately and keep your billing date.
      </Typography>

      <ConfirmDialog
        open={dialog?.kind === 'billing-off'}
        title={BILLING_OFF_TITLE}
        confirmLabel="Got It"
        infoOnly
        onClose={() => setDialog(null)}
      >
        {billingOffMessage(config.contactEmail)}
      </ConfirmDialog>

      <ConfirmDialog
        open={dialog?.kind === 'granted'}
        title={GRANTED_TITLE}
        confirmLabel="Got It"
        infoOnly
        onClose={() => setDialog(null)}
      >
        {grantedMessage(currentName)}
      </ConfirmDialog>

      <ConfirmDialog
        open={dialog?.kind === 'change'}
        title={dialog?.kind === 'change' ? `Switch to ${dialog.plan.name}?` : ''}
        confirmLabel="Switch Plan"
        busy={working}
        onConfirm={() => dialog?.kind === 'change' && void confirmChange(dialog.plan)}
        onClose={() => setDialog(null)}
      >
        {dialog?.kind === 'change' &&
          `Your plan changes from ${currentName} to ${dialog.plan.name} (${formatPrice(dialog.plan.amount)}/month, ${dialog.plan.limit} issues per month) right away. The difference for the rest of this billing period is charged or credited now, and your billing date stays the same.`}
      </ConfirmDialog>

      <ConfirmDialog
        open={dialog?.kind === 'cancel'}
        title="Cancel your subscription?"
        confirmLabel="Cancel Subscription"
        cancelLabel="Keep Plan"
        destructive
        busy={working}
        onConfirm={() => void confirmCancel()}
        onClose={() => setDialog(null)}
      >
        {cancelConfirmText(currentName, periodEnd)}
      </ConfirmDialog>

      <Dialog
        open={dialog?.kind === 'payment'}
        onClose={paying ? undefined : () => setDialog(null)}
        fullScreen={narrow}
        maxWidth="sm"
        fullWidth
        aria-labelledby="payment-dialog-title"
      >
        {dialog?.kind === 'payment' && (
          <>
            <DialogTitle id="payment-dialog-title">Subscribe to {dialog.plan.name}</DialogTitle>
            <DialogContent>
              <Typography color="text.secondary" sx={{ mb: 2.5 }}>
                {formatPrice(dialog.plan.amount)}/month for {dialog.plan.limit} issues per month. Billed monthly; cancel
                anytime.
              </Typography>
              <Suspense fallback={<Skeleton variant="rounded" height={220} />}>
                <PaymentStep
                  clientSecret={dialog.clientSecret}
                  plan={dialog.plan}
                  onBusyChange={setPaying}
                  onCancel={() => setDialog(null)}
                  onOutcome={(outcome) => void finish(outcome, dialog.plan)}
                />
              </Suspense>
            </DialogContent>
          </>
        )}
      </Dialog>
    </Container>
  );
}
