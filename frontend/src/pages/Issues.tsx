import { PagePlaceholder } from '../components/PagePlaceholder';

// Placeholder until the signed-in issue log is built.
export default function Issues() {
  return (
    <PagePlaceholder title="All Issues" actions={[{ label: 'Sign In', to: '/login' }]}>
      Sign in to see every issue you reported, filter them and review the fixes that worked.
    </PagePlaceholder>
  );
}
