// The subscription rules that need no Stripe and no
// React: which action each plan card offers, the billing-off message, the
// toasts, and the confirm → complete sequence run against a Stripe-like object.
import type { ToastOptions } from '../../components/Toast';
import { ApiError } from '../../api/client';
import type { Tier } from '../../api/types';

export const CREATE_FAILED = 'Failed to create subscription';
export const CHANGE_FAILED = 'Failed to change subscription plan. Please try again.';
export const CANCEL_FAILED = 'Failed to cancel subscription. Please try again.';

export const BILLING_OFF_TITLE = 'Billing is not enabled on this server';

/** The explanation shown when someone tries to subscribe while billing is off. */
export function billingOffMessage(contactEmail = ''): string {
  const contact = contactEmail ? ` Contact ${contactEmail} to ask for one.` : '';
  return `Paid plans can't be bought here because this server has no payment provider configured. The server's operator can grant plans to accounts instead.${contact}`;
}

/** 503 with code BILLING_DISABLED from any subscription call. */
export function isBillingDisabled(err: unknown): boolean {
  return err instanceof ApiError && err.status === 503 && err.details?.code === 'BILLING_DISABLED';
}

/** The server's error.message, or the fallback. */
export function serverMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError) return err.details?.message || fallback;
  return fallback;
}

export type PlanAction = 'current' | 'subscribe' | 'change' | 'downgrade';

/**
 * What a plan card offers: the current plan is marked; from free every paid
 * plan is a new subscription; from a paid subscription another paid plan is a
 * plan change and Free means cancelling. A paid plan without a provider
 * subscription (granted by the operator) can only be replaced by buying one.
 */
export function planAction(currentTier: string, cardTier: Tier, hasSubscription = true): PlanAction {
  if (cardTier === currentTier) return 'current';
  if (currentTier === 'free') return cardTier === 'free' ? 'current' : 'subscribe';
  if (cardTier === 'free') return 'downgrade';
  return hasSubscription ? 'change' : 'subscribe';
}

export const GRANTED_TITLE = 'Your plan was granted by the operator';

export function grantedMessage(planName: string): string {
  return `Your ${planName} plan was set by this server's operator, not bought here, so only the operator can change it back to Free.`;
}

/** A date from the server: ISO text or Unix seconds. */
export function parseServerDate(value: unknown): Date | null {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return new Date(value * 1000);
  if (typeof value === 'string' && value) {
    const d = new Date(value);
    return Number.isNaN(d.getTime()) ? null : d;
  }
  return null;
}

export function formatDate(d: Date | null): string {
  return d ? d.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' }) : '';
}

/** The confirmation text of a cancel: paid access continues until the period end. */
export function cancelConfirmText(planName: string, periodEnd: Date | null): string {
  const until = periodEnd ? `until ${formatDate(periodEnd)}` : 'until the end of the current billing period';
  return `Your ${planName} plan stays active ${until}. After that your account returns to the Free plan.`;
}

// ---- Payment: confirmSetup → complete-subscription → next action ----

interface StripeError {
  message?: string;
}

/** The part of Stripe.js the payment step uses. */
export interface StripeLike {
  confirmSetup(options: {
    elements: unknown;
    redirect: 'if_required';
    confirmParams: { return_url: string };
  }): Promise<{ error?: StripeError; setupIntent?: { id: string; status: string } }>;
  handleNextAction(options: { clientSecret: string }): Promise<{ error?: StripeError }>;
}

/** The answer of POST /api/complete-subscription. */
export interface CompleteSubscriptionResult {
  status?: string;
  tier?: string;
  /** Set when the first invoice's PaymentIntent needs customer action (3-D Secure). */
  paymentIntentClientSecret?: string | null;
  requiresAction?: boolean;
  clientSecret?: string | null;
  /** The first invoice's payment while the subscription is incomplete. */
  payment?: { status?: string; clientSecret?: string; error?: string } | null;
  message?: string;
}

/** The PaymentIntent secret to confirm, if the server asks for an action. */
export function actionSecret(res: CompleteSubscriptionResult | null | undefined): string | null {
  if (!res) return null;
  if (res.paymentIntentClientSecret) return res.paymentIntentClientSecret;
  if (res.payment?.status === 'requires_action' && res.payment.clientSecret) return res.payment.clientSecret;
  if ((res.requiresAction || res.status === 'requires_action') && res.clientSecret) return res.clientSecret;
  return null;
}

export type PaymentOutcome =
  | { kind: 'failed'; message: string }
  | { kind: 'finalizing' }
  | { kind: 'done' };

const CONFIRM_FALLBACK = 'Your payment details could not be confirmed. Please try again.';

/** Finishes a subscription once the SetupIntent succeeded (also after a redirect). */
export async function completeAfterSetup(
  stripe: Pick<StripeLike, 'handleNextAction'> | null,
  setupIntentId: string,
  complete: (setupIntentId: string) => Promise<CompleteSubscriptionResult>,
): Promise<PaymentOutcome> {
  let res: CompleteSubscriptionResult;
  try {
    res = await complete(setupIntentId);
  } catch (err) {
    // A declined first payment (402 PAYMENT_FAILED) carries the provider's message.
    if (err instanceof ApiError && err.details?.code === 'PAYMENT_FAILED') {
      return { kind: 'failed', message: err.details.message || CONFIRM_FALLBACK };
    }
    return { kind: 'finalizing' };
  }
  if (res?.payment?.status === 'requires_payment_method') {
    return { kind: 'failed', message: res.payment.error || CONFIRM_FALLBACK };
  }
  const secret = actionSecret(res);
  if (secret) {
    if (!stripe) return { kind: 'finalizing' };
    const next = await stripe.handleNextAction({ clientSecret: secret });
    if (next.error) return { kind: 'failed', message: next.error.message || CONFIRM_FALLBACK };
  }
  return { kind: 'done' };
}

/** Confirms the Payment Element's SetupIntent, then completes the subscription. */
export async function confirmAndComplete(
  stripe: StripeLike,
  elements: unknown,
  returnUrl: string,
  complete: (setupIntentId: string) => Promise<CompleteSubscriptionResult>,
): Promise<PaymentOutcome> {
  const result = await stripe.confirmSetup({ elements, redirect: 'if_required', confirmParams: { return_url: returnUrl } });
  if (result.error) return { kind: 'failed', message: result.error.message || CONFIRM_FALLBACK };
  const intent = result.setupIntent;
  if (!intent?.id) return { kind: 'failed', message: CONFIRM_FALLBACK };
  if (intent.status === 'processing') return { kind: 'finalizing' };
  return completeAfterSetup(stripe, intent.id, complete);
}

/** The toast of each payment outcome. */
export function outcomeToast(outcome: PaymentOutcome, planName: string): ToastOptions {
  switch (outcome.kind) {
    case 'failed':
      return { title: 'Payment Failed', description: outcome.message, variant: 'destructive' };
    case 'finalizing':
      return {
        title: 'Setup Complete, Finalizing...',
        description: 'Your payment method was saved and your subscription is being finalized. Please refresh the page in a moment.',
        variant: 'info',
      };
    case 'done':
      return {
        title: 'Subscription Active',
        description: `Welcome to the ${planName} plan! Your new monthly allowance is ready.`,
        variant: 'success',
      };
  }
}
