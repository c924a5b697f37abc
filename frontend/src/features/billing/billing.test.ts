import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import {
  actionSecret,
  billingOffMessage,
  CANCEL_FAILED,
  cancelConfirmText,
  CHANGE_FAILED,
  confirmAndComplete,
  CREATE_FAILED,
  isBillingDisabled,
  outcomeToast,
  parseServerDate,
  planAction,
  serverMessage,
  type StripeLike,
} from './billing';

const apiError = (status: number, code: string, message: string) =>
  new ApiError(status, 'x', JSON.stringify({ error: { code, message } }));

describe('billing off', () => {
  it('recognizes only 503 BILLING_DISABLED', () => {
    expect(isBillingDisabled(apiError(503, 'BILLING_DISABLED', 'off'))).toBe(true);
    expect(isBillingDisabled(apiError(503, 'PROVIDER_UNAVAILABLE', 'down'))).toBe(false);
    expect(isBillingDisabled(apiError(400, 'BILLING_DISABLED', 'off'))).toBe(false);
    expect(isBillingDisabled(new Error('503: BILLING_DISABLED'))).toBe(false);
  });
  it('says the operator can grant plans, with the contact when configured', () => {
    expect(billingOffMessage()).toMatch(/operator can grant plans/);
    expect(billingOffMessage()).not.toMatch(/Contact/);
    expect(billingOffMessage('ops@example.com')).toMatch(/Contact ops@example\.com/);
  });
});

describe('error messages', () => {
  it("uses the server's error.message, else the fallback", () => {
    expect(serverMessage(apiError(400, 'VALIDATION', 'Unknown tier "gold"'), CREATE_FAILED)).toBe('Unknown tier "gold"');
    expect(serverMessage(new ApiError(500, 'Internal Server Error', ''), CREATE_FAILED)).toBe(CREATE_FAILED);
    expect(serverMessage(new ApiError(502, 'Bad Gateway', '<html>'), CREATE_FAILED)).toBe('Failed to create subscription');
    expect(serverMessage(new TypeError('Failed to fetch'), CREATE_FAILED)).toBe(CREATE_FAILED);
  });
  it('has the exact billing error texts', () => {
    expect(CHANGE_FAILED).toBe('Failed to change subscription plan. Please try again.');
    expect(CANCEL_FAILED).toBe('Failed to cancel subscription. Please try again.');
  });
});

describe('plan actions', () => {
  it.each([
    ['free', 'free', 'current'],
    ['free', 'hobby', 'subscribe'],
    ['free', 'farm', 'subscribe'],
    ['pro', 'pro', 'current'],
    ['pro', 'hobby', 'change'],
    ['pro', 'farm', 'change'],
    ['pro', 'free', 'downgrade'],
  ] as const)('on %s, the %s card is %s', (current, card, action) => {
    expect(planAction(current, card)).toBe(action);
  });
  it('offers a new subscription, not a change, on a plan granted by the operator', () => {
    expect(planAction('pro', 'farm', false)).toBe('subscribe');
    expect(planAction('pro', 'pro', false)).toBe('current');
    expect(planAction('pro', 'free', false)).toBe('downgrade');
  });
});

describe('dates', () => {
  it('reads ISO text and Unix seconds', () => {
    expect(parseServerDate('2026-08-01T00:00:00Z')?.toISOString()).toBe('2026-08-01T00:00:00.000Z');
    expect(parseServerDate(1785542400)?.toISOString()).toBe('2026-08-01T00:00:00.000Z');
    expect(parseServerDate('')).toBeNull();
    expect(parseServerDate('soon')).toBeNull();
    expect(parseServerDate(0)).toBeNull();
  });
  it('says access continues until the period end', () => {
    expect(cancelConfirmText('Pro', new Date('2026-08-15T12:00:00Z'))).toBe(
      'Your Pro plan stays active until August 15, 2026. After that your account returns to the Free plan.',
    );
    expect(cancelConfirmText('Hobby', null)).toMatch(/until the end of the current billing period/);
  });
});

describe('payment flow', () => {
  function fakeStripe(over: Partial<Record<keyof StripeLike, unknown>> = {}) {
    return {
      confirmSetup: vi.fn(async () => ({ setupIntent: { id: 'seti_1', status: 'succeeded' } })),
      handleNextAction: vi.fn(async () => ({})),
      ...over,
    } as unknown as StripeLike & { confirmSetup: ReturnType<typeof vi.fn>; handleNextAction: ReturnType<typeof vi.fn> };
  }

  it('confirms without redirect, then completes with the SetupIntent id', async () => {
    const stripe = fakeStripe();
    const complete = vi.fn(async () => ({ status: 'active' }));
    const out = await confirmAndComplete(stripe, 'ELEMENTS', 'http://x/subscribe', complete);
    expect(out).toEqual({ kind: 'done' });
    expect(stripe.confirmSetup).toHaveBeenCalledWith({
      elements: 'ELEMENTS',
      redirect: 'if_required',
      confirmParams: { return_url: 'http://x/subscribe' },
    });
    expect(complete).toHaveBeenCalledWith('seti_1');
    expect(stripe.handleNextAction).not.toHaveBeenCalled();
  });

  it("fails with the provider's message and does not complete", async () => {
    const stripe = fakeStripe({ confirmSetup: vi.fn(async () => ({ error: { message: 'Your card was declined.' } })) });
    const complete = vi.fn();
    const out = await confirmAndComplete(stripe, {}, '', complete);
    expect(out).toEqual({ kind: 'failed', message: 'Your card was declined.' });
    expect(complete).not.toHaveBeenCalled();
    expect(outcomeToast(out, 'Pro')).toEqual({
      title: 'Payment Failed',
      description: 'Your card was declined.',
      variant: 'destructive',
    });
  });

  it('is finalizing when complete-subscription fails', async () => {
    const out = await confirmAndComplete(fakeStripe(), {}, '', vi.fn(async () => Promise.reject(new Error('500: boom'))));
    expect(out).toEqual({ kind: 'finalizing' });
    expect(outcomeToast(out, 'Pro').title).toBe('Setup Complete, Finalizing...');
    expect(String(outcomeToast(out, 'Pro').description)).toMatch(/refresh/);
  });

  it("fails with the server's message when the first payment is declined", async () => {
    const declined = apiError(402, 'PAYMENT_FAILED', 'Your card has insufficient funds.');
    const out = await confirmAndComplete(fakeStripe(), {}, '', async () => Promise.reject(declined));
    expect(out).toEqual({ kind: 'failed', message: 'Your card has insufficient funds.' });
  });

  it('reads the server answer that asks for authentication', async () => {
    const stripe = fakeStripe();
    await confirmAndComplete(stripe, {}, '', async () => ({ status: 'incomplete', requiresAction: true, clientSecret: 'pi_3_secret' }));
    expect(stripe.handleNextAction).toHaveBeenCalledWith({ clientSecret: 'pi_3_secret' });
  });

  it('confirms the first invoice when it needs authentication', async () => {
    const stripe = fakeStripe();
    const out = await confirmAndComplete(stripe, {}, '', async () => ({
      status: 'incomplete',
      payment: { status: 'requires_action', clientSecret: 'pi_1_secret' },
    }));
    expect(stripe.handleNextAction).toHaveBeenCalledWith({ clientSecret: 'pi_1_secret' });
    expect(out).toEqual({ kind: 'done' });
  });

  it('fails when the authentication fails', async () => {
    const stripe = fakeStripe({ handleNextAction: vi.fn(async () => ({ error: { message: 'Authentication failed.' } })) });
    const out = await confirmAndComplete(stripe, {}, '', async () => ({ paymentIntentClientSecret: 'pi_2_secret' }));
    expect(out).toEqual({ kind: 'failed', message: 'Authentication failed.' });
  });

  it('fails with the decline message of the first invoice', async () => {
    const out = await confirmAndComplete(fakeStripe(), {}, '', async () => ({
      payment: { status: 'requires_payment_method', error: 'Insufficient funds.' },
    }));
    expect(out).toEqual({ kind: 'failed', message: 'Insufficient funds.' });
  });

  it('reads the action secret only when an action is required', () => {
    expect(actionSecret({ clientSecret: 'pi_x', requiresAction: true })).toBe('pi_x');
    expect(actionSecret({ clientSecret: 'pi_x' })).toBeNull();
    expect(actionSecret({ payment: { status: 'succeeded', clientSecret: 'pi_y' } })).toBeNull();
    expect(actionSecret(null)).toBeNull();
  });

  it('announces success with the plan name', () => {
    expect(outcomeToast({ kind: 'done' }, 'Hobby')).toMatchObject({ title: 'Subscription Active', variant: 'success' });
    expect(String(outcomeToast({ kind: 'done' }, 'Hobby').description)).toContain('Hobby');
  });
});
