import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Link from '@mui/material/Link';
import { config } from '../../config';
import { BILLING_OFF_TITLE } from '../../features/billing/billing';

/**
 * Said before anyone clicks a plan: this server sells no plans (no payment provider is set up),
 * its operator grants them, and how to reach the operator when a contact is configured.
 */
export function BillingOffNotice() {
  const email = config.contactEmail.trim();
  const who = config.operatorName.trim() || 'The operator of this server';
  return (
    <Alert severity="info" data-testid="billing-off-notice" sx={{ mb: { xs: 3, md: 4 }, maxWidth: 760, mx: 'auto' }}>
      <AlertTitle>{BILLING_OFF_TITLE}</AlertTitle>
      Paid plans can&apos;t be bought here: this server has no payment provider set up. {who} can grant a plan to your
      account instead.
      {email && (
        <>
          {' '}
          Ask at <Link href={`mailto:${email}`} underline="always">{email}</Link>.
        </>
      )}
    </Alert>
  );
}
