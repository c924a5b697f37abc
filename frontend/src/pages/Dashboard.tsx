import { PagePlaceholder } from '../components/PagePlaceholder';

// Placeholder until the signed-in dashboard is built.
export default function Dashboard() {
  return (
    <PagePlaceholder title="Dashboard" actions={[{ label: 'Sign In', to: '/login' }]}>
      Sign in to see your printers, recent issues and monthly usage.
    </PagePlaceholder>
  );
}
