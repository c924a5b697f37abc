// The payment step: Stripe's Payment Element confirming the SetupIntent of
// create-subscription, then complete-subscription. Loaded lazily.
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { completeSubscriptionWithResult } from '../../api/client';
import { config } from '../../config';
import { formatPrice, type Plan } from '../../plans';
import { confirmAndComplete, type CompleteSubscriptionResult, type PaymentOutcome, type StripeLike } from './billing';
import { getStripe } from './stripe';

export interface PaymentStepProps {
  clientSecret: string;
  plan: Plan;
  onOutcome: (outcome: PaymentOutcome) => void;
  onCancel: () => void;
  onBusyChange?: (busy: boolean) => void;
}

/** Where Stripe sends the browser back when a payment method needs a redirect. */
export function returnUrl(tier: string): string {
  return `${window.location.origin}${config.basePath}/subscribe?tier=${encodeURIComponent(tier)}`;
}

function PaymentForm({ plan, onOutcome, onCancel, onBusyChange }: Omit<PaymentStepProps, 'clientSecret'>) {
  const stripe = useStripe();
  const elements = useElements();
  const [ready, setReady] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!stripe || !elements || busy) return;
    setBusy(true);
    onBusyChange?.(true);
    const outcome = await confirmAndComplete(
      stripe as unknown as StripeLike,
      elements,
      returnUrl(plan.tier),
      (id) => completeSubscriptionWithResult<CompleteSubscriptionResult>(id),
    );
    setBusy(false);
    onBusyChange?.(false);
    onOutcome(outcome);
  };

  return (
    <form onSubmit={submit} data-testid="payment-form">
      {!ready && <Skeleton variant="rounded" height={180} sx={{ mb: 2 }} />}
      <Box sx={{ display: ready ? 'block' : 'none', mb: 2 }}>
        <PaymentElement onReady={() => setReady(true)} options={{ layout: 'tabs' }} />
      </Box>
      <Stack direction={{ xs: 'column-reverse', sm: 'row' }} spacing={1.5} sx={{ justifyContent: 'flex-end' }}>
        <Button onClick={onCancel} disabled={busy} color="inherit">
          Cancel
        </Button>
        <Button
          type="submit"
          variant="contained"
          size="large"
          disabled={!stripe || !ready || busy}
          startIcon={busy ? <CircularProgress size={18} color="inherit" /> : undefined}
        >
          {busy ? 'Processing...' : `Subscribe for ${formatPrice(plan.amount)}/month`}
        </Button>
      </Stack>
    </form>
  );
}

export default function PaymentStep({ clientSecret, plan, onOutcome, onCancel, onBusyChange }: PaymentStepProps) {
  const stripePromise = useMemo(() => getStripe(), []);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    stripePromise.then(
      (s) => live && !s && setFailed(true),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [stripePromise]);

  if (failed) {
    return (
      <Stack spacing={2}>
        <Alert severity="error">The payment form could not be loaded. Check your connection and try again.</Alert>
        <Button onClick={onCancel} sx={{ alignSelf: 'flex-end' }}>
          Close
        </Button>
      </Stack>
    );
  }

  return (
    <Elements
      stripe={stripePromise}
      options={{
        clientSecret,
        appearance: { theme: 'stripe', variables: { colorPrimary: '#ea580c', borderRadius: '10px' } },
      }}
    >
      <PaymentForm plan={plan} onOutcome={onOutcome} onCancel={onCancel} onBusyChange={onBusyChange} />
    </Elements>
  );
}
