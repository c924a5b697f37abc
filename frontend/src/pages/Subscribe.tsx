import { PagePlaceholder } from '../components/PagePlaceholder';

// Placeholder until the signed-in subscription flow is built.
export default function Subscribe() {
  return (
    <PagePlaceholder
      title="Subscription"
      actions={[
        { label: 'Sign In', to: '/login' },
        { label: 'View Pricing', to: '/pricing' },
      ]}
    >
      Sign in to choose a plan and manage your subscription.
    </PagePlaceholder>
  );
}
