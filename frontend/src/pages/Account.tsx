// /account (signed in): the maker's own account: display name, email, password, a download of
// everything kept about them, and deleting the account.
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { DataSection, DeleteSection, EmailSection, PasswordSection, ProfileSection } from '../features/account/AccountSections';

export default function Account() {
  return (
    <Container maxWidth="sm" sx={{ py: { xs: 3, md: 5 } }}>
      <Typography variant="h4" component="h1" sx={{ fontSize: { xs: 26, md: 32 } }}>
        Your Account
      </Typography>
      <Typography sx={{ color: 'text.secondary', mb: 3 }}>Change your name, email or password, download your data, or delete the account.</Typography>
      <Stack spacing={3}>
        <ProfileSection />
        <EmailSection />
        <PasswordSection />
        <DataSection />
        <DeleteSection />
      </Stack>
    </Container>
  );
}
