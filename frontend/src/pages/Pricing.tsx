import { lazy, Suspense, useEffect } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { trackViewContent } from '../analytics';
import { config } from '../config';
import { BillingOffNotice } from '../components/pricing/BillingOffNotice';
import { PlanCard, PlanGrid } from '../components/pricing/PlanCard';
import { usePlans } from '../hooks/usePlans';
import { useAuth } from '../auth/useAuth';
import { PageLoader } from '../components/PageLoader';

// Only a signed-in maker needs the subscription screen (and its payment code).
const SubscribeScreen = lazy(() => import('../features/billing/SubscribeScreen'));

/** Pricing: the signed-in variant is the subscription screen. */
export default function Pricing() {
  const { user } = useAuth();
  return user ? (
    <Suspense fallback={<PageLoader />}>
      <SubscribeScreen />
    </Suspense>
  ) : (
    <PublicPricing />
  );
}

/** Public pricing: the four plans with 'Get Started Free' buttons. */
function PublicPricing() {
  const { plans, isLoading } = usePlans();

  useEffect(() => {
    trackViewContent('Pricing', { content_category: 'pricing' });
  }, []);

  return (
    <Container maxWidth="lg" sx={{ py: { xs: 6, md: 10 } }}>
      <Box sx={{ textAlign: 'center', maxWidth: 680, mx: 'auto', mb: { xs: 5, md: 8 } }}>
        <Typography variant="overline" color="primary" sx={{ fontWeight: 700 }}>
          Pricing
        </Typography>
        <Typography variant="h3" component="h1" sx={{ fontSize: { xs: '2rem', md: '3rem' }, mb: 2 }}>
          Simple plans for every maker
        </Typography>
        <Typography color="text.secondary" sx={{ fontSize: '1.125rem' }}>
          Start free and upgrade when you print more. Plans are billed monthly and differ only in how many issues
          you can analyze each month.
        </Typography>
      </Box>
      {!config.billingEnabled && <BillingOffNotice />}
      <PlanGrid>
        {plans.map((plan) => (
          <PlanCard
            key={plan.tier}
            plan={plan}
            loading={isLoading}
            action={
              <Button
                component={RouterLink}
                to="/login?mode=signup"
                variant={plan.popular ? 'contained' : 'outlined'}
                size="large"
                fullWidth
              >
                Get Started Free
              </Button>
            }
          />
        ))}
      </PlanGrid>
      <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center', mt: 5 }}>
        Prices in USD per month. {`Anonymous visitors get ${config.anonMonthlyLimit} free analyses a month, with no sign-up or credit card.`}
      </Typography>
    </Container>
  );
}
