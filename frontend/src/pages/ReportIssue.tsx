import { PagePlaceholder } from '../components/PagePlaceholder';

// Placeholder until the signed-in issue form is built.
export default function ReportIssue() {
  return (
    <PagePlaceholder
      title="Report an Issue"
      actions={[
        { label: 'Sign In', to: '/login' },
        { label: 'Try It Free', to: '/preview' },
      ]}
    >
      Sign in to report an issue and keep it in your log, or try a free analysis without an account.
    </PagePlaceholder>
  );
}
