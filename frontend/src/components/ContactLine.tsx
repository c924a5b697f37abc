import Link from '@mui/material/Link';
import { config } from '../config';
import { operatorText } from './LegalPage';

/** "You can reach {operator} at {email}", or fallback wording when no email is configured. */
export function ContactLine() {
  const operator = operatorText(config.operatorName);
  const email = config.contactEmail.trim();
  if (!email) {
    return (
      <p>
        You can reach {operator} through the contact details published where you found this service. No contact email
        has been configured for this installation yet.
      </p>
    );
  }
  return (
    <p>
      You can reach {operator} by email at{' '}
      <Link href={`mailto:${email}`} underline="always">
        {email}
      </Link>
      . We aim to answer within a few business days.
    </p>
  );
}
