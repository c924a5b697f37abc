import { useSearchParams } from 'react-router-dom';
import { PagePlaceholder } from '../components/PagePlaceholder';

// Placeholder until sign-in and sign-up are built.
export default function Login() {
  const [params] = useSearchParams();
  const signUp = params.get('mode') === 'signup';
  return (
    <PagePlaceholder
      title={signUp ? 'Create Account' : 'Welcome Back'}
      actions={[
        { label: 'Try It Free', to: '/preview' },
        { label: 'View Pricing', to: '/pricing' },
      ]}
    >
      Accounts are not open yet. Meanwhile you can analyze print problems without signing in.
    </PagePlaceholder>
  );
}
