// Stripe.js is loaded only when the payment step opens: this module imports
// @stripe/stripe-js dynamically, so neither the library nor Stripe's script
// is part of any screen until then.
import type { Stripe } from '@stripe/stripe-js';
import { config } from '../../config';

let stripePromise: Promise<Stripe | null> | null = null;

/** Loads Stripe.js once with the runtime publishable key; a failed load can be retried. */
export function getStripe(publishableKey: string = config.stripePublishableKey): Promise<Stripe | null> {
  if (!publishableKey) return Promise.resolve(null);
  if (!stripePromise) {
    stripePromise = import('@stripe/stripe-js')
      .then(({ loadStripe }) => loadStripe(publishableKey))
      .catch((err: unknown) => {
        stripePromise = null;
        throw err;
      });
  }
  return stripePromise;
}
